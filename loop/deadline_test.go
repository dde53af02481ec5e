package loop_test

import (
	"math"
	"sync/atomic"
	"testing"
	"time"

	"github.com/troupe-go/troupe/loop"
)

// A delay too large to add to the clock saturates to "never": it must not
// wrap to a past deadline and fire at once, on the loop or from another
// goroutine.
func TestHugeDelayNeverFires(t *testing.T) {
	l, vc := startVirtual(t)
	advance(t, l, vc, time.Hour) // the loop's time is now well above 0
	var fired atomic.Int32
	do(t, l, func() {
		must[loop.TimerID](t)(l.ScheduleTimer(math.MaxInt64, func() { fired.Add(1) }))
		must[loop.TimerID](t)(l.ScheduleInterval(math.MaxInt64, func() { fired.Add(1) }))
	})
	must[loop.TimerID](t)(l.ScheduleTimer(math.MaxInt64, func() { fired.Add(1) }))
	for range 3 {
		advance(t, l, vc, time.Hour)
	}
	if n := fired.Load(); n != 0 {
		t.Fatalf("timers with a huge delay fired %d times", n)
	}
}
