package suite

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/troupe-go/troupe/bench/internal/measure"
	"github.com/troupe-go/troupe/bench/internal/systems"
)

// Case names one scenario on one system.
type Case struct {
	Scenario string
	System   string
}

// Spec renders c as the -child flag value, "scenario=X,system=Y".
func (c Case) Spec() string {
	return "scenario=" + c.Scenario + ",system=" + c.System
}

// ParseSpec parses a -child flag value written by [Case.Spec].
func ParseSpec(spec string) (Case, error) {
	var c Case
	for _, kv := range strings.Split(spec, ",") {
		k, v, ok := strings.Cut(kv, "=")
		switch {
		case !ok:
			return c, fmt.Errorf("child spec %q: %q is not key=value", spec, kv)
		case k == "scenario":
			c.Scenario = v
		case k == "system":
			c.System = v
		default:
			return c, fmt.Errorf("child spec %q: unknown key %q", spec, k)
		}
	}
	if c.Scenario == "" || c.System == "" {
		return c, fmt.Errorf("child spec %q: need scenario= and system=", spec)
	}
	return c, nil
}

// RunCase runs c once in this process and returns its figures. The error
// wraps [systems.ErrNA] when the system cannot run the scenario.
func RunCase(c Case, quick bool) (measure.Figures, error) {
	s, ok := Find(c.Scenario)
	if !ok {
		return measure.Figures{}, fmt.Errorf("unknown scenario %q", c.Scenario)
	}
	run, err := systems.Lookup(c.System, c.Scenario)
	if err != nil {
		return measure.Figures{}, err
	}
	return run(s.ParamsFor(quick))
}

// RunChild is the child process's whole job: run the case named by spec and
// write its figures to w as one JSON line.
func RunChild(spec string, quick bool, w io.Writer) error {
	c, err := ParseSpec(spec)
	if err != nil {
		return err
	}
	stop := systems.StartProfile("main")
	f, err := RunCase(c, quick)
	stop()
	if err != nil {
		return fmt.Errorf("%s: %w", spec, err)
	}
	return json.NewEncoder(w).Encode(f)
}
