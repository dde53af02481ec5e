package loop_test

import (
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/troupe-go/troupe/loop"
)

// Microtasks queued by a macrotask, including nested ones, run before the
// next macrotask.
func TestMicrotasksRunBeforeNextMacrotask(t *testing.T) {
	l := startLoop(t)
	var r recorder
	done := make(chan struct{})
	l.Submit(func() {
		r.add("task1")
		l.QueueMicrotask(func() {
			r.add("micro1")
			l.QueueMicrotask(func() {
				r.add("micro1.1")
				l.QueueMicrotask(func() { r.add("micro1.1.1") })
			})
		})
		l.QueueMicrotask(func() { r.add("micro2") })
	})
	l.Submit(func() { r.add("task2"); close(done) })
	wait(t, done)
	want := []string{"task1", "micro1", "micro2", "micro1.1", "micro1.1.1", "task2"}
	if got := r.list(); !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

// A microtask queued before a zero-delay timer runs first; the timer runs
// in a later macrotask.
func TestQueueMicrotaskBeforeTimer(t *testing.T) {
	l, vc := startVirtual(t)
	var r recorder
	do(t, l, func() {
		l.ScheduleTimer(0, func() { r.add("timer") })
		l.QueueMicrotask(func() { r.add("micro") })
		r.add("task")
	})
	advance(t, l, vc, 0)
	want := []string{"task", "micro", "timer"}
	if got := r.list(); !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

// Tasks submitted from one goroutine run in submission order, with many
// producers at once.
func TestSubmitFIFOPerProducer(t *testing.T) {
	l := startLoop(t)
	const producers, per = 8, 5000
	last := make([]int, producers)
	bad := make(chan string, 1)
	done := make(chan struct{}, producers)
	for p := range producers {
		go func() {
			for i := 1; i <= per; i++ {
				l.Submit(func() {
					if last[p] != i-1 {
						select {
						case bad <- "producer " + strconv.Itoa(p) + " out of order at " + strconv.Itoa(i):
						default:
						}
					}
					last[p] = i
					if i == per {
						done <- struct{}{}
					}
				})
			}
		}()
	}
	for range producers {
		select {
		case <-done:
		case msg := <-bad:
			t.Fatal(msg)
		case <-time.After(waitLimit):
			t.Fatal("hang guard")
		}
	}
	select {
	case msg := <-bad:
		t.Fatal(msg)
	default:
	}
}

// Immediates run after queued tasks; those queued by immediates wait for
// the next round, behind timers that are due.
func TestImmediateOrder(t *testing.T) {
	l, vc := startVirtual(t)
	var r recorder
	do(t, l, func() {
		l.SetImmediate(func() {
			r.add("imm1")
			l.SetImmediate(func() { r.add("imm3") })
			l.ScheduleTimer(0, func() { r.add("timer") })
		})
		l.SetImmediate(func() { r.add("imm2") })
	})
	advance(t, l, vc, 0)
	want := []string{"imm1", "imm2", "timer", "imm3"}
	if got := r.list(); !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestQueueMicrotaskOffLoop(t *testing.T) {
	l := startLoop(t)
	if err := l.QueueMicrotask(func() {}); err != loop.ErrNotOnLoop {
		t.Fatalf("got %v, want ErrNotOnLoop", err)
	}
	if err := l.Submit(nil); err != loop.ErrNilFunc {
		t.Fatalf("got %v, want ErrNilFunc", err)
	}
}
