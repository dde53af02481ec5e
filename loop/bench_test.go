package loop_test

import (
	"context"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/troupe-go/troupe/loop"
)

// These benchmarks mirror the loop suite of bench/cmd/compare (see
// ../shared/BENCHMARKS.md), in go test form for quick iteration.

func BenchmarkSubmitExec(b *testing.B) {
	l := startLoop(b)
	done := make(chan struct{})
	noop := func() {}
	b.ResetTimer()
	for range b.N - 1 {
		l.Submit(noop)
	}
	l.Submit(func() { close(done) })
	<-done
}

// sink is a MailHost that counts letters down and signals at zero.
type sink struct {
	left int
	done chan struct{}
}

func (s *sink) LoopPanic(error)             {}
func (s *sink) ReturnMail(loop.Mail, error) {}
func (s *sink) DeliverMail(loop.Mail) {
	if s.left--; s.left == 0 {
		close(s.done)
	}
}

// BenchmarkPostDeliver is BenchmarkSubmitExec for the mail lane.
func BenchmarkPostDeliver(b *testing.B) {
	h := &sink{left: b.N, done: make(chan struct{})}
	l := startLoop(b, loop.WithHost(h))
	msg := &struct{}{}
	b.ResetTimer()
	for range b.N {
		l.Post(loop.Mail{Msg: msg}, loop.OverflowRefuse)
	}
	<-h.done
}

func BenchmarkRoundtrip(b *testing.B) {
	l := startLoop(b)
	back := make(chan struct{})
	signal := func() { back <- struct{}{} }
	b.ResetTimer()
	for range b.N {
		l.Submit(signal)
		<-back
	}
}

func BenchmarkChannelPingPong(b *testing.B) {
	ping, pong := make(chan struct{}), make(chan struct{})
	go func() {
		for range ping {
			pong <- struct{}{}
		}
	}()
	b.ResetTimer()
	for range b.N {
		ping <- struct{}{}
		<-pong
	}
	close(ping)
}

func BenchmarkTimerOnLoop(b *testing.B) {
	for _, pending := range []int{0, 10000, 1000000} {
		b.Run("pending="+itoa(pending), func(b *testing.B) {
			l := startLoop(b)
			noop := func() {}
			do(b, l, func() {
				for range pending {
					l.ScheduleTimer(time.Hour, noop)
				}
				b.ReportAllocs()
				b.ResetTimer()
				for range b.N {
					id, _ := l.ScheduleTimer(time.Hour, noop)
					l.CancelTimer(id)
				}
				b.StopTimer()
			})
		})
	}
}

func BenchmarkTimerExternal(b *testing.B) {
	l := startLoop(b)
	noop := func() {}
	b.ResetTimer()
	for range b.N {
		id, _ := l.ScheduleTimer(time.Hour, noop)
		l.CancelTimer(id)
	}
	do(b, l, func() {})
}

func BenchmarkFireDue(b *testing.B) {
	l, vc := startVirtual(b)
	var wg sync.WaitGroup
	wg.Add(b.N)
	fire := wg.Done
	do(b, l, func() {
		for range b.N {
			l.ScheduleTimer(time.Second, fire)
		}
	})
	b.ResetTimer()
	vc.Advance(time.Second)
	wg.Wait()
}

// BenchmarkMicrotask queues 1,000 microtasks from a task and lets the
// checkpoint drain them, b.N/1000 times.
func BenchmarkMicrotask(b *testing.B) {
	l := startLoop(b)
	noop := func() {}
	rounds := (b.N + 999) / 1000
	done := make(chan struct{})
	var round func()
	round = func() {
		for range 1000 {
			l.QueueMicrotask(noop)
		}
		if rounds--; rounds > 0 {
			l.Submit(round)
		} else {
			l.QueueMicrotask(func() { close(done) })
		}
	}
	b.ResetTimer()
	l.Submit(round)
	<-done
}

func BenchmarkPromiseThen(b *testing.B) {
	l := startLoop(b)
	done := make(chan struct{})
	var step func(int) (int, error)
	n := 0
	iterate := func() {
		p, r := loop.NewPromise[int](l)
		p.Then(step)
		r.Resolve(n)
	}
	step = func(v int) (int, error) {
		if n++; n < b.N {
			iterate()
		} else {
			close(done)
		}
		return v, nil
	}
	b.ReportAllocs()
	b.ResetTimer()
	l.Submit(iterate)
	<-done
}

// BenchmarkIdleLoop reports the heap bytes an idle driven loop keeps after
// it ran a task, a timer and a promise (and, with timer=pending, holds a
// pending one-hour timer).
func BenchmarkIdleLoop(b *testing.B) {
	for _, pendingTimer := range []bool{false, true} {
		name := "timer=none"
		if pendingTimer {
			name = "timer=pending"
		}
		b.Run(name, func(b *testing.B) {
			s := must[*loop.Scheduler](b)(loop.NewScheduler())
			defer s.Shutdown(context.Background())
			const n = 10000
			var wg sync.WaitGroup
			use := func() *loop.Loop {
				l := must[*loop.Loop](b)(loop.New(loop.WithScheduler(s)))
				wg.Add(3)
				l.Submit(func() {
					wg.Done()
					l.ScheduleTimer(time.Millisecond, wg.Done)
					p, r := loop.NewPromise[int](l)
					p.Then(func(v int) (int, error) { wg.Done(); return v, nil })
					r.Resolve(1)
					if pendingTimer {
						l.ScheduleTimer(time.Hour, func() {})
					}
				})
				return l
			}
			for range b.N {
				keep := make([]*loop.Loop, n)
				before := heapInUse()
				for i := range keep {
					keep[i] = use()
				}
				wg.Wait()
				after := heapInUse()
				b.ReportMetric(float64(after-before)/n, "B/loop")
				runtime.KeepAlive(keep)
			}
		})
	}
}

func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse + ms.StackInuse
}

func itoa(n int) string {
	switch n {
	case 0:
		return "0"
	case 10000:
		return "10k"
	case 1000000:
		return "1m"
	}
	return "n"
}
