package jsactor

import (
	"errors"
	"fmt"
)

// Every conversion between JavaScript and Go has a budget: how many
// values it may visit and how many bytes (string and binary contents) it
// may copy. The watchdog cannot interrupt Go code, so the budget is what
// bounds the time and memory one send, reply or clone can take: a
// conversion over budget fails with ErrCannotCross (errOverBudget).

const (
	// DefaultMaxConvertNodes is the number of values one conversion may
	// visit unless WithConversionLimits says otherwise.
	DefaultMaxConvertNodes = 1 << 20
	// DefaultMaxConvertBytes is the number of string and binary bytes one
	// conversion may copy unless WithConversionLimits says otherwise.
	DefaultMaxConvertBytes = 64 << 20
)

var errOverBudget = fmt.Errorf("%w: value too large (over the conversion budget; see WithConversionLimits)", ErrCannotCross)

// budget is what a conversion may still spend.
type budget struct {
	nodes int
	bytes int
}

func (in *instance) newBudget() budget {
	if in.cfg == nil || in.cfg.convNodes == 0 {
		return budget{nodes: DefaultMaxConvertNodes, bytes: DefaultMaxConvertBytes}
	}
	return budget{nodes: in.cfg.convNodes, bytes: in.cfg.convBytes}
}

// spend takes nodes values and n bytes from the budget.
func (b *budget) spend(nodes, n int) error {
	b.nodes -= nodes
	b.bytes -= n
	if b.nodes < 0 || b.bytes < 0 {
		return errOverBudget
	}
	return nil
}

// WithConversionLimits bounds each conversion of a value between
// JavaScript and Go (an argument, a message, a reply, a structuredClone):
// at most nodes values visited and bytes bytes of strings and binary data
// copied. A value over either limit cannot cross (ErrCannotCross). The
// defaults are DefaultMaxConvertNodes and DefaultMaxConvertBytes.
func WithConversionLimits(nodes, bytes int) Option {
	return func(c *config) error {
		if nodes <= 0 || bytes <= 0 {
			return errors.New("jsactor: WithConversionLimits needs nodes > 0 and bytes > 0")
		}
		c.convNodes, c.convBytes = nodes, bytes
		return nil
	}
}

// maxPathSteps is how many steps of the path to a value that cannot
// cross an error names.
const maxPathSteps = 8

// atPath prefixes err with step, one step of the path to the value that
// failed, at the outermost maxPathSteps levels only: a value nested too
// deep would otherwise fail with a path of a thousand steps.
func atPath(depth int, step string, err error) error {
	switch {
	case depth < maxPathSteps:
		return fmt.Errorf("%s: %w", step, err)
	case depth == maxPathSteps:
		return fmt.Errorf("...: %w", err)
	}
	return err
}
