package loop_test

import (
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/troupe-go/troupe/loop"
)

// A timer counts from the moment it is scheduled, however long the
// callback that schedules it has already run, and an interval's next run
// counts from when its run starts. Callbacks "take" virtual time by
// advancing the clock themselves.
func TestTimerCountsFromItsCall(t *testing.T) {
	const ms = time.Millisecond
	tests := []struct {
		name  string
		setup func(l *loop.Loop, vc *loop.VirtualClock, fired func(string))
		want  []string // "name@ms", in firing order
	}{{
		name: "late in a long task",
		setup: func(l *loop.Loop, vc *loop.VirtualClock, fired func(string)) {
			l.ScheduleTimer(time.Hour, func() {}) // another timer pending
			l.Submit(func() {
				vc.Advance(80 * ms)
				l.ScheduleTimer(100*ms, func() { fired("late") })
			})
		},
		want: []string{"late@180"},
	}, {
		name: "late in a long timer callback",
		setup: func(l *loop.Loop, vc *loop.VirtualClock, fired func(string)) {
			l.ScheduleTimer(time.Hour, func() {})
			l.ScheduleTimer(100*ms, func() {
				fired("slow")
				vc.Advance(80 * ms)
				l.ScheduleTimer(100*ms, func() { fired("late") })
			})
		},
		want: []string{"slow@100", "late@280"},
	}, {
		name: "early and late in one callback",
		setup: func(l *loop.Loop, vc *loop.VirtualClock, fired func(string)) {
			l.Submit(func() {
				l.ScheduleTimer(100*ms, func() { fired("early") })
				vc.Advance(50 * ms)
				l.ScheduleTimer(100*ms, func() { fired("late") })
			})
		},
		want: []string{"early@100", "late@150"},
	}, {
		name: "interval behind a slow timer",
		setup: func(l *loop.Loop, vc *loop.VirtualClock, fired func(string)) {
			l.ScheduleTimer(100*ms, func() { fired("slow"); vc.Advance(30 * ms) })
			var n int
			var id loop.TimerID
			id, _ = l.ScheduleInterval(100*ms, func() {
				fired("tick")
				if n++; n == 2 {
					l.CancelTimer(id)
				}
			})
		},
		want: []string{"slow@100", "tick@130", "tick@230"},
	}, {
		// Node's reckoning: the timers one callback schedules count from
		// its first clock reading, so they fire in the order of their delays.
		name: "turn: one callback, in the order of the delays",
		setup: func(l *loop.Loop, vc *loop.VirtualClock, fired func(string)) {
			l.Submit(func() {
				l.ScheduleTimerTurn(100*ms, func() { fired("first") })
				vc.Advance(50 * ms)
				l.ScheduleTimerTurn(80*ms, func() { fired("shorter") })
				l.ScheduleTimer(80*ms, func() { fired("exact") })
			})
		},
		want: []string{"shorter@80", "first@100", "exact@130"},
	}, {
		name: "turn: the next callback reads the clock again",
		setup: func(l *loop.Loop, vc *loop.VirtualClock, fired func(string)) {
			l.Submit(func() {
				l.ScheduleTimerTurn(100*ms, func() { fired("a") })
				vc.Advance(50 * ms)
			})
			l.Submit(func() { l.ScheduleTimerTurn(100*ms, func() { fired("b") }) })
		},
		want: []string{"a@100", "b@150"},
	}, {
		name: "turn: an interval's first run, then d after each run",
		setup: func(l *loop.Loop, vc *loop.VirtualClock, fired func(string)) {
			l.Submit(func() {
				l.ScheduleTimerTurn(10*ms, func() {})
				vc.Advance(20 * ms)
				var n int
				var id loop.TimerID
				id, _ = l.ScheduleIntervalTurn(100*ms, func() {
					fired("tick")
					if n++; n == 2 {
						l.CancelTimer(id)
					}
				})
			})
		},
		want: []string{"tick@100", "tick@200"},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l, vc := startVirtual(t)
			var r recorder
			fired := func(name string) {
				r.add(name + "@" + strconv.Itoa(int(vc.Now()/int64(ms))))
			}
			do(t, l, func() { tc.setup(l, vc, fired) })
			do(t, l, func() {}) // a task the setup submitted has run
			for range 40 {
				advance(t, l, vc, 10*ms)
			}
			if got := r.list(); !slices.Equal(got, tc.want) {
				t.Fatalf("fired %v, want %v", got, tc.want)
			}
		})
	}
}
