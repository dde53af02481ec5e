package convert

import (
	"fmt"
)

// Every conversion between JavaScript and Go has a budget: how many
// values it may visit and how many bytes (string and binary contents) it
// may copy. The watchdog cannot interrupt Go code, so the budget is what
// bounds the time and memory one send, reply or clone can take: a
// conversion over budget fails with ErrCannotCross (errOverBudget). jsactor
// sets the budget (WithConversionLimits).

var errOverBudget = fmt.Errorf("%w: value too large (over the conversion budget; see WithConversionLimits)", ErrCannotCross)

// budget is what a conversion may still spend.
type budget struct {
	nodes int
	bytes int
}

func (cv *Converter) newBudget() budget { return cv.limits }

// spend takes nodes values and n bytes from the budget.
func (b *budget) spend(nodes, n int) error {
	b.nodes -= nodes
	b.bytes -= n
	if b.nodes < 0 || b.bytes < 0 {
		return errOverBudget
	}
	return nil
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

// PropertyNodes is what one property of an object costs the budget, in
// values visited. Building an object of many properties costs the
// receiver's Runtime far more per property than the sender paid to read
// it (a million properties took seconds, in a turn of the receiver, which
// its watchdog then failed for the sender's message), so the sender's
// conversion counts each property as the receiver's building costs, and
// refuses to send what would cost the receiver more than its budget.
const PropertyNodes = 16
