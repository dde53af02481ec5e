package jsactor

import (
	"time"

	"github.com/dop251/goja"

	"github.com/troupe-go/troupe/loop"
)

// wallClock is the time source of Date.now() and new Date(): the wall
// clock when the actor's loop runs on the real clock; on any other clock
// (a virtual clock in tests) the loop's clock itself, read as time since
// the Unix epoch, so that Date follows the clock as setTimeout and
// performance.now do (a virtual clock at 0 reads 1970-01-01T00:00:00Z).
func (in *instance) wallClock() goja.Now {
	clk := in.l.Clock()
	if clk == loop.RealClock() {
		return time.Now
	}
	return func() time.Time { return time.Unix(0, clk.Now()) }
}
