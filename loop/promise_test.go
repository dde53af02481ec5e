package loop_test

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/troupe-go/troupe/loop"
)

var (
	errA = errors.New("a")
	errB = errors.New("b")
)

// settleOf waits, from outside every loop, for p to settle; the timeout is a
// hang guard, not a timing assertion.
func settleOf[T any](t testing.TB, p *loop.Promise[T]) (T, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	v, err := p.Wait(ctx)
	if errors.Is(err, context.DeadlineExceeded) {
		t.Fatal("timed out waiting for a promise (hang guard)")
	}
	return v, err
}

// record returns a Then reaction that records name and passes the value on.
func record(r *recorder, name string) func(int) (int, error) {
	return func(v int) (int, error) { r.add(name); return v, nil }
}

// Only the first settlement counts, on the loop and off it.
func TestPromiseSettlesOnce(t *testing.T) {
	type op func(*loop.Resolver[int])
	resolve := func(v int) op { return func(r *loop.Resolver[int]) { r.Resolve(v) } }
	reject := func(err error) op { return func(r *loop.Resolver[int]) { r.Reject(err) } }
	tests := []struct {
		name    string
		ops     []op
		wantV   int
		wantErr error
	}{
		{"resolve twice", []op{resolve(1), resolve(2)}, 1, nil},
		{"reject twice", []op{reject(errA), reject(errB)}, 0, errA},
		{"resolve then reject", []op{resolve(1), reject(errA)}, 1, nil},
		{"reject then resolve", []op{reject(errA), resolve(1)}, 0, errA},
	}
	for _, tt := range tests {
		for _, where := range []string{"on loop", "off loop"} {
			t.Run(tt.name+" "+where, func(t *testing.T) {
				l := startLoop(t)
				p, r := loop.NewPromise[int](l)
				p.Catch(func(err error) (int, error) { return 0, err }) // no unhandled noise
				settle := func() {
					for _, o := range tt.ops {
						o(r)
					}
				}
				if where == "on loop" {
					do(t, l, settle)
				} else {
					settle()
				}
				v, err := settleOf(t, p)
				if v != tt.wantV || err != tt.wantErr {
					t.Fatalf("got (%v, %v), want (%v, %v)", v, err, tt.wantV, tt.wantErr)
				}
			})
		}
	}
}

// Reactions never run inside Resolve, nor inside Then on a settled promise:
// they run at the microtask checkpoint that ends the current macrotask,
// before the next macrotask.
func TestPromiseReactionsRunAtCheckpoint(t *testing.T) {
	l := startLoop(t)
	var r recorder
	done := make(chan struct{})
	l.Submit(func() {
		l.Submit(func() { r.add("next task"); close(done) })
		p, res := loop.NewPromise[int](l)
		p.Then(record(&r, "reaction to Resolve"))
		res.Resolve(1)
		r.add("after Resolve")
		loop.Resolved(l, 2).Then(record(&r, "reaction to settled"))
		r.add("after Then")
		l.QueueMicrotask(func() { r.add("microtask") })
	})
	wait(t, done)
	want := []string{
		"after Resolve", "after Then",
		"reaction to Resolve", "reaction to settled", "microtask",
		"next task",
	}
	if got := r.list(); !slices.Equal(got, want) {
		t.Fatalf("got %v\nwant %v", got, want)
	}
}

// Reactions run in the order they were attached, whether attached before or
// after settlement, on the loop or from another goroutine.
func TestPromiseReactionsRunInAttachmentOrder(t *testing.T) {
	attach := func(r *recorder, p *loop.Promise[int], from, to int) {
		for i := from; i < to; i++ {
			name := string(rune('a' + i))
			if i%2 == 0 {
				p.Then(record(r, name))
			} else {
				p.Finally(func() { r.add(name) })
			}
		}
	}
	want := []string{"a", "b", "c", "d", "e", "f"}
	t.Run("on loop", func(t *testing.T) {
		l := startLoop(t)
		var r recorder
		do(t, l, func() {
			p, res := loop.NewPromise[int](l)
			attach(&r, p, 0, 4)
			res.Resolve(1)
			attach(&r, p, 4, 6)
		})
		do(t, l, func() {})
		if got := r.list(); !slices.Equal(got, want) {
			t.Fatalf("got %v, want %v", got, want)
		}
	})
	t.Run("off loop", func(t *testing.T) {
		l := startLoop(t)
		var r recorder
		p, res := loop.NewPromise[int](l)
		attach(&r, p, 0, 4)
		res.Resolve(1)
		attach(&r, p, 4, 6)
		do(t, l, func() {})
		if got := r.list(); !slices.Equal(got, want) {
			t.Fatalf("got %v, want %v", got, want)
		}
	})
}

// Then passes a rejection through, Catch passes a fulfilment through, and
// Finally passes both unless it panics.
func TestPromisePassThrough(t *testing.T) {
	tests := []struct {
		name       string
		rejectWith error // nil: the source fulfils with 7
		derive     func(p *loop.Promise[int], called *atomic.Bool) *loop.Promise[int]
		wantCalled bool
		wantV      int
		wantErr    error
		wantPanic  bool
	}{
		{
			name: "Then on fulfilled", derive: func(p *loop.Promise[int], c *atomic.Bool) *loop.Promise[int] {
				return p.Then(func(v int) (int, error) { c.Store(true); return v * 2, nil })
			},
			wantCalled: true, wantV: 14,
		},
		{
			name: "Then on rejected", rejectWith: errA, derive: func(p *loop.Promise[int], c *atomic.Bool) *loop.Promise[int] {
				return p.Then(func(v int) (int, error) { c.Store(true); return v, nil })
			},
			wantErr: errA,
		},
		{
			name: "generic Then on rejected", rejectWith: errA, derive: func(p *loop.Promise[int], c *atomic.Bool) *loop.Promise[int] {
				return loop.Then(p, func(v int) (int, error) { c.Store(true); return v, nil })
			},
			wantErr: errA,
		},
		{
			name: "Chain on rejected", rejectWith: errA, derive: func(p *loop.Promise[int], c *atomic.Bool) *loop.Promise[int] {
				return loop.Chain(p, func(v int) *loop.Promise[int] { c.Store(true); return p })
			},
			wantErr: errA,
		},
		{
			name: "Catch on fulfilled", derive: func(p *loop.Promise[int], c *atomic.Bool) *loop.Promise[int] {
				return p.Catch(func(error) (int, error) { c.Store(true); return 0, nil })
			},
			wantV: 7,
		},
		{
			name: "Catch on rejected", rejectWith: errA, derive: func(p *loop.Promise[int], c *atomic.Bool) *loop.Promise[int] {
				return p.Catch(func(err error) (int, error) { c.Store(errors.Is(err, errA)); return 1, nil })
			},
			wantCalled: true, wantV: 1,
		},
		{
			name: "Catch rethrows", rejectWith: errA, derive: func(p *loop.Promise[int], c *atomic.Bool) *loop.Promise[int] {
				return p.Catch(func(err error) (int, error) { c.Store(true); return 0, errB })
			},
			wantCalled: true, wantErr: errB,
		},
		{
			name: "Finally on fulfilled", derive: func(p *loop.Promise[int], c *atomic.Bool) *loop.Promise[int] {
				return p.Finally(func() { c.Store(true) })
			},
			wantCalled: true, wantV: 7,
		},
		{
			name: "Finally on rejected", rejectWith: errA, derive: func(p *loop.Promise[int], c *atomic.Bool) *loop.Promise[int] {
				return p.Finally(func() { c.Store(true) })
			},
			wantCalled: true, wantErr: errA,
		},
		{
			name: "panicking Finally on fulfilled", derive: func(p *loop.Promise[int], c *atomic.Bool) *loop.Promise[int] {
				return p.Finally(func() { c.Store(true); panic("finally") })
			},
			wantCalled: true, wantPanic: true,
		},
		{
			name: "panicking Finally on rejected", rejectWith: errA, derive: func(p *loop.Promise[int], c *atomic.Bool) *loop.Promise[int] {
				return p.Finally(func() { c.Store(true); panic("finally") })
			},
			wantCalled: true, wantPanic: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := startLoop(t)
			p, r := loop.NewPromise[int](l)
			var called atomic.Bool
			q := tt.derive(p, &called)
			if tt.rejectWith != nil {
				r.Reject(tt.rejectWith)
			} else {
				r.Resolve(7)
			}
			v, err := settleOf(t, q)
			if called.Load() != tt.wantCalled {
				t.Errorf("callback called = %v, want %v", called.Load(), tt.wantCalled)
			}
			if tt.wantPanic {
				var pe *loop.PanicError
				if !errors.As(err, &pe) || pe.Value != "finally" {
					t.Fatalf("got (%v, %v), want a *loop.PanicError", v, err)
				}
				return
			}
			if v != tt.wantV || err != tt.wantErr {
				t.Fatalf("got (%v, %v), want (%v, %v)", v, err, tt.wantV, tt.wantErr)
			}
		})
	}
}

// A reaction that panics rejects the derived promise with a *PanicError
// that carries the panic value and, for an error value, unwraps to it.
func TestPromisePanickingReactionRejects(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name   string
		value  any
		derive func(*loop.Loop, any) *loop.Promise[int]
	}{
		{"Then", "then", func(l *loop.Loop, v any) *loop.Promise[int] {
			return loop.Resolved(l, 1).Then(func(int) (int, error) { panic(v) })
		}},
		{"generic Then", boom, func(l *loop.Loop, v any) *loop.Promise[int] {
			return loop.Then(loop.Resolved(l, "x"), func(string) (int, error) { panic(v) })
		}},
		{"Catch", 42, func(l *loop.Loop, v any) *loop.Promise[int] {
			return loop.Rejected[int](l, errA).Catch(func(error) (int, error) { panic(v) })
		}},
		{"Chain", boom, func(l *loop.Loop, v any) *loop.Promise[int] {
			return loop.Chain(loop.Resolved(l, 1), func(int) *loop.Promise[int] { panic(v) })
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := startLoop(t)
			_, err := settleOf(t, tt.derive(l, tt.value))
			var pe *loop.PanicError
			if !errors.As(err, &pe) {
				t.Fatalf("got %v, want a *loop.PanicError", err)
			}
			if pe.Value != tt.value {
				t.Errorf("panic value %v, want %v", pe.Value, tt.value)
			}
			if verr, ok := tt.value.(error); ok && !errors.Is(err, verr) {
				t.Errorf("errors.Is(%v, %v) = false", err, verr)
			}
			// The loop is still running.
			do(t, l, func() {})
		})
	}
}

// Resolving a promise with itself, directly or by Chain returning its own
// derived promise, rejects it with ErrSelfResolution.
func TestPromiseSelfResolution(t *testing.T) {
	t.Run("ResolvePromise", func(t *testing.T) {
		l := startLoop(t)
		p, r := loop.NewPromise[int](l)
		r.ResolvePromise(p)
		if _, err := settleOf(t, p); !errors.Is(err, loop.ErrSelfResolution) {
			t.Fatalf("got %v, want ErrSelfResolution", err)
		}
	})
	t.Run("Chain", func(t *testing.T) {
		l := startLoop(t)
		var q *loop.Promise[int]
		do(t, l, func() { // on the loop, so q is set before the reaction runs
			q = loop.Chain(loop.Resolved(l, 1), func(int) *loop.Promise[int] { return q })
		})
		if _, err := settleOf(t, q); !errors.Is(err, loop.ErrSelfResolution) {
			t.Fatalf("got %v, want ErrSelfResolution", err)
		}
	})
}

// ResolvePromise makes a promise follow another one, pending or settled, on
// the same loop or on another, and its reactions still run on its own loop.
func TestPromiseResolvePromiseFollows(t *testing.T) {
	tests := []struct {
		name      string
		otherLoop bool
		settled   bool
		rejectErr error
	}{
		{name: "pending, fulfils"},
		{name: "pending, rejects", rejectErr: errA},
		{name: "settled, fulfils", settled: true},
		{name: "settled, rejects", settled: true, rejectErr: errA},
		{name: "other loop, fulfils", otherLoop: true},
		{name: "other loop, rejects", otherLoop: true, rejectErr: errA},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := startLoop(t)
			ql := l
			if tt.otherLoop {
				ql = startLoop(t)
			}
			q, qr := loop.NewPromise[int](ql)
			settleQ := func() {
				if tt.rejectErr != nil {
					qr.Reject(tt.rejectErr)
				} else {
					qr.Resolve(5)
				}
			}
			if tt.settled {
				settleQ()
			}
			p, r := loop.NewPromise[int](l)
			var onLoop atomic.Bool
			derived := p.Finally(func() { onLoop.Store(l.OnLoop()) })
			r.ResolvePromise(q)
			if !tt.settled {
				do(t, l, func() {
					if _, _, ok := p.Settled(); ok {
						t.Error("settled before the promise it follows")
					}
				})
				settleQ()
			}
			v, err := settleOf(t, derived)
			if tt.rejectErr != nil {
				if err != tt.rejectErr {
					t.Fatalf("got (%v, %v), want error %v", v, err, tt.rejectErr)
				}
			} else if v != 5 || err != nil {
				t.Fatalf("got (%v, %v), want 5", v, err)
			}
			if !onLoop.Load() {
				t.Error("reaction did not run on the promise's loop")
			}
		})
	}
}

// Resolve and Reject from another goroutine hop onto the loop: the
// reactions run there.
func TestPromiseSettleFromAnotherGoroutine(t *testing.T) {
	for _, reject := range []bool{false, true} {
		name := "Resolve"
		if reject {
			name = "Reject"
		}
		t.Run(name, func(t *testing.T) {
			l := startLoop(t)
			p, r := loop.NewPromise[int](l)
			var onLoop atomic.Bool
			var q *loop.Promise[int]
			if reject {
				q = p.Catch(func(err error) (int, error) { onLoop.Store(l.OnLoop()); return 0, err })
			} else {
				q = p.Then(func(v int) (int, error) { onLoop.Store(l.OnLoop()); return v, nil })
			}
			go func() {
				if reject {
					r.Reject(errA)
				} else {
					r.Resolve(3)
				}
			}()
			settleOf(t, q)
			if !onLoop.Load() {
				t.Fatal("reaction ran off the loop")
			}
		})
	}
}

// Wait from outside every loop returns the outcome; a ctx that ends first
// gives its error.
func TestPromiseWaitOutside(t *testing.T) {
	tests := []struct {
		name    string
		settle  func(*loop.Resolver[int])
		later   bool // settle from another goroutine after Wait started
		wantV   int
		wantErr error
	}{
		{name: "fulfilled", settle: func(r *loop.Resolver[int]) { r.Resolve(4) }, wantV: 4},
		{name: "rejected", settle: func(r *loop.Resolver[int]) { r.Reject(errA) }, wantErr: errA},
		{name: "fulfilled later", settle: func(r *loop.Resolver[int]) { r.Resolve(4) }, later: true, wantV: 4},
		{name: "rejected later", settle: func(r *loop.Resolver[int]) { r.Reject(errA) }, later: true, wantErr: errA},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := startLoop(t)
			p, r := loop.NewPromise[int](l)
			if tt.later {
				go tt.settle(r)
			} else {
				tt.settle(r)
				do(t, l, func() {})
			}
			v, err := settleOf(t, p)
			if v != tt.wantV || err != tt.wantErr {
				t.Fatalf("got (%v, %v), want (%v, %v)", v, err, tt.wantV, tt.wantErr)
			}
		})
	}
	t.Run("ctx times out", func(t *testing.T) {
		l := startLoop(t)
		p, _ := loop.NewPromise[int](l) // never settles before shutdown
		ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
		defer cancel()
		if _, err := p.Wait(ctx); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("got %v, want DeadlineExceeded", err)
		}
	})
}

// Wait never blocks a loop: called from a callback of the promise's own
// loop, of another standalone or driven loop, or given a ctx from WithLoop,
// it returns ErrWouldBlock at once.
func TestPromiseWaitWouldBlock(t *testing.T) {
	ctx := context.Background()
	t.Run("own loop", func(t *testing.T) {
		l := startLoop(t)
		p, _ := loop.NewPromise[int](l)
		var err error
		do(t, l, func() { _, err = p.Wait(ctx) })
		if !errors.Is(err, loop.ErrWouldBlock) {
			t.Fatalf("got %v, want ErrWouldBlock", err)
		}
	})
	t.Run("another loop", func(t *testing.T) {
		l, other := startLoop(t), startLoop(t)
		p, _ := loop.NewPromise[int](l)
		var err error
		do(t, other, func() { _, err = p.Wait(ctx) })
		if !errors.Is(err, loop.ErrWouldBlock) {
			t.Fatalf("got %v, want ErrWouldBlock", err)
		}
	})
	t.Run("driven loop", func(t *testing.T) {
		l := startLoop(t)
		s := must[*loop.Scheduler](t)(loop.NewScheduler(loop.WithWorkers(1)))
		defer s.Shutdown(ctx)
		driven := must[*loop.Loop](t)(loop.New(loop.WithScheduler(s)))
		p, _ := loop.NewPromise[int](l)
		var err error
		do(t, driven, func() { _, err = p.Wait(ctx) })
		if !errors.Is(err, loop.ErrWouldBlock) {
			t.Fatalf("got %v, want ErrWouldBlock", err)
		}
	})
	t.Run("WithLoop ctx", func(t *testing.T) {
		l := startLoop(t)
		p, _ := loop.NewPromise[int](l)
		if _, err := p.Wait(loop.WithLoop(ctx, l)); !errors.Is(err, loop.ErrWouldBlock) {
			t.Fatalf("got %v, want ErrWouldBlock", err)
		}
	})
	t.Run("settled, own loop", func(t *testing.T) {
		l := startLoop(t)
		var err error
		do(t, l, func() { _, err = loop.Resolved(l, 1).Wait(ctx) })
		if !errors.Is(err, loop.ErrWouldBlock) {
			t.Fatalf("got %v, want ErrWouldBlock", err)
		}
	})
}

// A rejection with no reaction is reported after the checkpoint of the
// macrotask that rejected it, on the loop.
func TestUnhandledRejectionReportedAfterCheckpoint(t *testing.T) {
	var r recorder
	var l *loop.Loop
	l = startLoop(t, loop.WithUnhandledRejectionHandler(func(err error) {
		r.add("unhandled " + err.Error())
		if !l.OnLoop() {
			t.Error("handler ran off the loop")
		}
	}))
	do(t, l, func() {
		_, res := loop.NewPromise[int](l)
		res.Reject(errA)
		r.add("task")
		l.QueueMicrotask(func() {
			r.add("microtask")
			l.QueueMicrotask(func() { r.add("nested microtask") })
		})
	})
	do(t, l, func() { r.add("next task") })
	want := []string{"task", "microtask", "nested microtask", "unhandled a", "next task"}
	if got := r.list(); !slices.Equal(got, want) {
		t.Fatalf("got %v\nwant %v", got, want)
	}
}

// A rejection that gets a Catch within the macrotask that rejected it (or
// during its checkpoint) is never reported.
func TestUnhandledRejectionNotReportedWhenCaught(t *testing.T) {
	tests := []struct {
		name  string
		catch func(l *loop.Loop, p *loop.Promise[int])
	}{
		{"Catch before Reject", nil},
		{"Catch after Reject", func(l *loop.Loop, p *loop.Promise[int]) {
			p.Catch(func(error) (int, error) { return 0, nil })
		}},
		{"Catch in a microtask", func(l *loop.Loop, p *loop.Promise[int]) {
			l.QueueMicrotask(func() { p.Catch(func(error) (int, error) { return 0, nil }) })
		}},
		{"Rejected then Catch", func(l *loop.Loop, p *loop.Promise[int]) {
			p.Catch(func(error) (int, error) { return 0, nil })
			loop.Rejected[int](l, errB).Catch(func(error) (int, error) { return 0, nil })
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var reported atomic.Int32
			l := startLoop(t, loop.WithUnhandledRejectionHandler(func(error) { reported.Add(1) }))
			do(t, l, func() {
				p, res := loop.NewPromise[int](l)
				if tt.catch == nil {
					p.Catch(func(error) (int, error) { return 0, nil })
				}
				res.Reject(errA)
				if tt.catch != nil {
					tt.catch(l, p)
				}
			})
			do(t, l, func() {})
			if n := reported.Load(); n != 0 {
				t.Fatalf("reported %d unhandled rejections, want 0", n)
			}
		})
	}
}

// A rejection reported as unhandled that gets a Catch later is reported to
// the rejection-handled hook, and the Catch still runs.
func TestRejectionHandledLate(t *testing.T) {
	var r recorder
	l := startLoop(t,
		loop.WithUnhandledRejectionHandler(func(err error) { r.add("unhandled " + err.Error()) }),
		loop.WithRejectionHandledHandler(func(err error) { r.add("handled " + err.Error()) }),
	)
	var p *loop.Promise[int]
	do(t, l, func() {
		var res *loop.Resolver[int]
		p, res = loop.NewPromise[int](l)
		res.Reject(errA)
	})
	do(t, l, func() {
		p.Catch(func(err error) (int, error) { r.add("catch " + err.Error()); return 0, nil })
	})
	do(t, l, func() {
		p.Catch(func(error) (int, error) { return 0, nil }) // told once only
	})
	want := []string{"unhandled a", "handled a", "catch a"}
	if got := r.list(); !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

// Shutdown rejects pending promises with ErrLoopClosed and runs their
// reactions; a promise made after close is already rejected.
func TestPromiseRejectedByShutdown(t *testing.T) {
	l := startLoop(t)
	p, _ := loop.NewPromise[int](l)
	var onLoop, called atomic.Bool
	q := p.Catch(func(err error) (int, error) {
		called.Store(true)
		onLoop.Store(l.OnLoop())
		return 0, err
	})
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	for name, pr := range map[string]*loop.Promise[int]{"pending": p, "derived": q} {
		if _, err, ok := pr.Settled(); !ok || !errors.Is(err, loop.ErrLoopClosed) {
			t.Errorf("%s promise: settled=%v err=%v, want ErrLoopClosed", name, ok, err)
		}
	}
	if !called.Load() || !onLoop.Load() {
		t.Errorf("reaction called=%v on loop=%v, want both", called.Load(), onLoop.Load())
	}

	after, r := loop.NewPromise[int](l)
	if _, err, ok := after.Settled(); !ok || !errors.Is(err, loop.ErrLoopClosed) {
		t.Fatalf("NewPromise after close: settled=%v err=%v", ok, err)
	}
	r.Resolve(1) // ignored
	if _, err := after.Wait(context.Background()); !errors.Is(err, loop.ErrLoopClosed) {
		t.Fatalf("Wait after close: %v", err)
	}
	derived := after.Then(func(v int) (int, error) { return v, nil })
	if _, err := derived.Wait(context.Background()); !errors.Is(err, loop.ErrLoopClosed) {
		t.Fatalf("Then after close: %v", err)
	}
}

// A promise made by Rejected on the loop is reported if nothing catches it.
func TestRejectedReportedWhenUncaught(t *testing.T) {
	var reported atomic.Value
	l := startLoop(t, loop.WithUnhandledRejectionHandler(func(err error) { reported.Store(err) }))
	do(t, l, func() { loop.Rejected[int](l, errA) })
	do(t, l, func() {})
	if err, _ := reported.Load().(error); err != errA {
		t.Fatalf("reported %v, want %v", reported.Load(), errA)
	}
}

// Go runs fn off the loop and settles its promise on the loop with fn's
// result; a panic in fn rejects it with a *PanicError.
func TestGoSettlesOnLoop(t *testing.T) {
	tests := []struct {
		name    string
		fn      func(context.Context) (int, error)
		wantV   int
		wantErr error
	}{
		{"value", func(context.Context) (int, error) { return 9, nil }, 9, nil},
		{"error", func(context.Context) (int, error) { return 0, errA }, 0, errA},
		{"panic", func(context.Context) (int, error) { panic("go") }, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := startLoop(t)
			var onLoop, fnOnLoop atomic.Bool
			fnOnLoop.Store(true)
			var p *loop.Promise[int]
			do(t, l, func() {
				p = loop.Go(l, func(ctx context.Context) (int, error) {
					fnOnLoop.Store(l.OnLoop())
					return tt.fn(ctx)
				})
			})
			q := p.Finally(func() { onLoop.Store(l.OnLoop()) })
			v, err := settleOf(t, q)
			if tt.name == "panic" {
				var pe *loop.PanicError
				if !errors.As(err, &pe) || pe.Value != "go" {
					t.Fatalf("got %v, want a *loop.PanicError", err)
				}
			} else if v != tt.wantV || err != tt.wantErr {
				t.Fatalf("got (%v, %v), want (%v, %v)", v, err, tt.wantV, tt.wantErr)
			}
			if fnOnLoop.Load() {
				t.Error("fn ran on the loop")
			}
			if !onLoop.Load() {
				t.Error("reaction ran off the loop")
			}
		})
	}
}

// Until fn returns, Go keeps a run-until-idle loop running.
func TestGoKeepsRunUntilIdleLoopAlive(t *testing.T) {
	l := must[*loop.Loop](t)(loop.New(loop.WithRunUntilIdle()))
	defer l.Close()
	started, release := make(chan struct{}), make(chan struct{})
	var p *loop.Promise[int]
	var reacted atomic.Bool
	l.Submit(func() {
		p = loop.Go(l, func(context.Context) (int, error) {
			close(started)
			<-release
			return 1, nil
		})
		p.Then(func(v int) (int, error) { reacted.Store(true); return v, nil })
	})
	ran := make(chan error, 1)
	go func() { ran <- l.Run(context.Background()) }()
	wait(t, started)
	close(release)
	select {
	case err := <-ran:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(waitLimit):
		t.Fatal("timed out waiting for Run (hang guard)")
	}
	if v, err, ok := p.Settled(); !ok || v != 1 || err != nil {
		t.Fatalf("Run returned before the promise settled: (%v, %v, %v)", v, err, ok)
	}
	if !reacted.Load() {
		t.Fatal("Run returned before the reaction ran")
	}
}

// Shutdown rejects Go's promise with ErrLoopClosed without waiting for fn,
// and cancels fn's context; Go on a closed loop never calls fn.
func TestGoAndShutdown(t *testing.T) {
	l := startLoop(t)
	fnDone := make(chan error, 1)
	p := loop.Go(l, func(ctx context.Context) (int, error) {
		<-ctx.Done()
		fnDone <- ctx.Err()
		return 1, nil
	})
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err, ok := p.Settled(); !ok || !errors.Is(err, loop.ErrLoopClosed) {
		t.Fatalf("after Close: settled=%v err=%v, want ErrLoopClosed", ok, err)
	}
	select {
	case err := <-fnDone:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("fn's ctx ended with %v", err)
		}
	case <-time.After(waitLimit):
		t.Fatal("fn's context not cancelled (hang guard)")
	}
	called := false
	q := loop.Go(l, func(context.Context) (int, error) { called = true; return 0, nil })
	if _, err, ok := q.Settled(); !ok || !errors.Is(err, loop.ErrLoopClosed) || called {
		t.Fatalf("Go after close: settled=%v err=%v called=%v", ok, err, called)
	}
}

// Reject(nil) and ResolvePromise(nil) still reject, with a non-nil error, so
// a rejection is never mistaken for a fulfilment.
func TestPromiseNilRejections(t *testing.T) {
	tests := []struct {
		name   string
		settle func(*loop.Resolver[int])
	}{
		{"Reject(nil)", func(r *loop.Resolver[int]) { r.Reject(nil) }},
		{"ResolvePromise(nil)", func(r *loop.Resolver[int]) { r.ResolvePromise(nil) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := startLoop(t)
			p, r := loop.NewPromise[int](l)
			tt.settle(r)
			if _, err := settleOf(t, p); err == nil {
				t.Fatal("fulfilled, want a rejection")
			}
		})
	}
}

// A Wait blocked on a pending promise returns ErrLoopClosed when the loop
// shuts down.
func TestPromiseWaitEndsOnShutdown(t *testing.T) {
	l := startLoop(t)
	p, _ := loop.NewPromise[int](l)
	waited := make(chan error, 1)
	go func() { _, err := p.Wait(context.Background()); waited <- err }()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-waited:
		if !errors.Is(err, loop.ErrLoopClosed) {
			t.Fatalf("Wait returned %v, want ErrLoopClosed", err)
		}
	case <-time.After(waitLimit):
		t.Fatal("Wait still blocked after shutdown (hang guard)")
	}
}

// Promises of a driven loop run their reactions on that loop, and a
// settlement from another driven loop's callback hops across.
func TestPromiseOnDrivenLoop(t *testing.T) {
	s := must[*loop.Scheduler](t)(loop.NewScheduler(loop.WithWorkers(2)))
	defer s.Shutdown(context.Background())
	a := must[*loop.Loop](t)(loop.New(loop.WithScheduler(s)))
	b := must[*loop.Loop](t)(loop.New(loop.WithScheduler(s)))
	p, r := loop.NewPromise[int](a)
	var onA atomic.Bool
	q := p.Then(func(v int) (int, error) { onA.Store(a.OnLoop() && !b.OnLoop()); return v + 1, nil })
	do(t, b, func() { r.Resolve(1) })
	if v, err := settleOf(t, q); v != 2 || err != nil {
		t.Fatalf("got (%v, %v), want 2", v, err)
	}
	if !onA.Load() {
		t.Fatal("reaction did not run on its own loop")
	}
}

// Under concurrent settlements and attachments from many goroutines, the
// promise settles once and every reaction runs exactly once, on the loop,
// seeing that one outcome.
func TestPromiseConcurrentSettleAndAttach(t *testing.T) {
	l := startLoop(t)
	p, r := loop.NewPromise[int](l)
	const goroutines, perG = 8, 50
	var runs, offLoop atomic.Int32
	seen := make(chan int, goroutines*perG)
	derived := make(chan *loop.Promise[int], goroutines*perG)
	start := make(chan struct{})
	finished := make(chan struct{}, goroutines)
	for g := range goroutines {
		go func() {
			defer func() { finished <- struct{}{} }()
			<-start
			for i := range perG {
				if i == perG/2 {
					if g%2 == 0 {
						r.Resolve(g + 1)
					} else {
						r.Reject(errA)
					}
				}
				derived <- p.Finally(func() {
					runs.Add(1)
					if !l.OnLoop() {
						offLoop.Add(1)
					}
					v, _, _ := p.Settled()
					seen <- v
				})
			}
		}()
	}
	close(start)
	for range goroutines {
		<-finished
	}
	close(derived)
	want, wantErr := settleOf(t, p)
	for q := range derived {
		if v, err := settleOf(t, q); v != want || err != wantErr {
			t.Fatalf("derived promise got (%v, %v), want (%v, %v)", v, err, want, wantErr)
		}
	}
	close(seen)
	for v := range seen {
		if v != want {
			t.Fatalf("a reaction saw %v, want %v", v, want)
		}
	}
	if n := runs.Load(); n != goroutines*perG {
		t.Fatalf("%d reactions ran, want %d", n, goroutines*perG)
	}
	if n := offLoop.Load(); n != 0 {
		t.Fatalf("%d reactions ran off the loop", n)
	}
}

// A promise settled by a timer callback runs its reactions before the next
// timer due in the same round.
func TestPromiseReactionBeforeNextTimer(t *testing.T) {
	l, vc := startVirtual(t)
	var r recorder
	do(t, l, func() {
		p, res := loop.NewPromise[int](l)
		p.Then(record(&r, "reaction"))
		l.ScheduleTimer(time.Second, func() { r.add("timer 1"); res.Resolve(1) })
		l.ScheduleTimer(time.Second, func() { r.add("timer 2") })
	})
	advance(t, l, vc, time.Second)
	want := []string{"timer 1", "reaction", "timer 2"}
	if got := r.list(); !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestShutdownRejectsPromisesMadeDuringShutdown(t *testing.T) {
	l := startLoop(t)
	var inner atomic.Value
	p, _ := loop.NewPromise[int](l)
	p.Catch(func(error) (int, error) {
		q, _ := loop.NewPromise[int](l)
		q.Catch(func(err error) (int, error) { inner.Store(err); return 0, nil })
		return 0, nil
	})
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if err, _ := inner.Load().(error); !errors.Is(err, loop.ErrLoopClosed) {
		t.Fatalf("inner reaction saw %v, want ErrLoopClosed", inner.Load())
	}
}

func TestRejectedOffLoopReported(t *testing.T) {
	var reported atomic.Int32
	l := startLoop(t, loop.WithUnhandledRejectionHandler(func(error) { reported.Add(1) }))
	other := startLoop(t)
	do(t, other, func() { loop.Rejected[int](l, errors.New("off loop")) })
	loop.Rejected[int](l, errors.New("from the test goroutine"))
	do(t, l, func() {})
	if got := reported.Load(); got != 2 {
		t.Fatalf("reported %d, want 2", got)
	}
}

// Once resolved with another promise, a promise is locked to it.
func TestResolvePromiseLocksIn(t *testing.T) {
	l := startLoop(t)
	q, qr := loop.NewPromise[int](l)
	p, r := loop.NewPromise[int](l)
	r.ResolvePromise(q)
	r.Resolve(5)
	r.Reject(errors.New("ignored"))
	qr.Resolve(1)
	v, err := p.Wait(context.Background())
	if v != 1 || err != nil {
		t.Fatalf("got (%v, %v), want 1", v, err)
	}
}
