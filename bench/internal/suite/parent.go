package suite

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/troupe-go/troupe/bench/internal/measure"
	"github.com/troupe-go/troupe/bench/internal/systems"
)

// Options configure a parent run.
type Options struct {
	Suite Suite
	// Exe is the binary re-executed for each case; it must accept
	// -child and -quick as cmd/compare does.
	Exe   string
	Runs  int
	Quick bool
	// Scenarios restricts the run to these names; empty means all.
	Scenarios []string
	// ChildTimeout bounds one child process.
	ChildTimeout time.Duration
	// Progress receives one line per finished case; may be nil.
	Progress io.Writer
}

// Sample is one run of one case.
type Sample struct {
	Figures measure.Figures
	// ProcessCPU is the child's whole user+sys time, setup included, read
	// from its ProcessState.
	ProcessCPU time.Duration
	Err        error
}

// Results holds every sample of a parent run.
type Results struct {
	Suite     Suite
	Runs      int
	Quick     bool
	Env       []string
	Scenarios []Scenario
	Systems   []string
	// Samples maps a case to its samples, one per run.
	Samples map[Case][]Sample
	// NA maps a case the system cannot run to the reason.
	NA map[Case]string
}

// childEnv pins GOMAXPROCS and GOGC to the parent's values so every system
// runs under the same settings.
func childEnv() []string {
	gogc := os.Getenv("GOGC")
	if gogc == "" {
		gogc = "100"
	}
	return []string{
		"GOMAXPROCS=" + strconv.Itoa(runtime.GOMAXPROCS(0)),
		"GOGC=" + gogc,
	}
}

// Run runs every case once per round, interleaved, for opts.Runs rounds.
func Run(opts Options) (*Results, error) {
	scenarios, err := opts.Suite.pick(opts.Scenarios)
	if err != nil {
		return nil, err
	}
	res := &Results{
		Suite: opts.Suite, Runs: opts.Runs, Quick: opts.Quick, Env: childEnv(),
		Scenarios: scenarios, Systems: opts.Suite.Systems,
		Samples: map[Case][]Sample{}, NA: map[Case]string{},
	}
	for round := 1; round <= opts.Runs; round++ {
		for _, sc := range scenarios {
			for _, sys := range res.Systems {
				c := Case{Scenario: sc.Name, System: sys}
				if _, err := systems.Lookup(sys, sc.Name); errors.Is(err, systems.ErrNA) {
					res.NA[c] = strings.TrimPrefix(strings.TrimPrefix(err.Error(), systems.ErrNA.Error()), ": ")
					continue
				}
				s := runChild(opts, c, res.Env)
				res.Samples[c] = append(res.Samples[c], s)
				progress(opts.Progress, round, opts.Runs, c, s)
			}
		}
	}
	return res, nil
}

// pick returns the suite's scenarios called names, or all of them.
func (su Suite) pick(names []string) ([]Scenario, error) {
	if len(names) == 0 {
		return su.Scenarios, nil
	}
	var out []Scenario
	for _, n := range names {
		s, ok := su.find(n)
		if !ok {
			return nil, fmt.Errorf("unknown scenario %q in the %s suite", n, su.Name)
		}
		out = append(out, s)
	}
	return out, nil
}

// runChild runs one case in a fresh process and parses its JSON line.
func runChild(opts Options, c Case, env []string) Sample {
	ctx, cancel := context.WithTimeout(context.Background(), opts.ChildTimeout)
	defer cancel()
	args := []string{"-child", c.Spec()}
	if opts.Quick {
		args = append(args, "-quick")
	}
	cmd := exec.CommandContext(ctx, opts.Exe, args...)
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var s Sample
	if ps := cmd.ProcessState; ps != nil {
		s.ProcessCPU = ps.UserTime() + ps.SystemTime()
	}
	if err != nil {
		s.Err = fmt.Errorf("%s: %v: %s", c.Spec(), err, lastLine(stderr.String()))
		return s
	}
	if err := json.Unmarshal([]byte(lastLine(stdout.String())), &s.Figures); err != nil {
		s.Err = fmt.Errorf("%s: bad child output: %v", c.Spec(), err)
	}
	return s
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

func progress(w io.Writer, round, runs int, c Case, s Sample) {
	if w == nil {
		return
	}
	if s.Err != nil {
		fmt.Fprintf(w, "run %d/%d %-18s %-13s error: %v\n", round, runs, c.Scenario, c.System, s.Err)
		return
	}
	f := s.Figures
	fmt.Fprintf(w, "run %d/%d %-18s %-13s %9.1f ns/op  cpu %9.1f ns/op  allocs %.3g  B %.0f  g %.3g  fd %.3g\n",
		round, runs, c.Scenario, c.System, f.NsPerOp, f.CPUNsPerOp, f.AllocsPerOp, f.BytesPerOp, f.GoroutinesPerOp, f.FDsPerOp)
}
