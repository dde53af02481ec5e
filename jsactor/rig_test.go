package jsactor_test

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/dop251/goja"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/jsactor"
	"github.com/troupe-go/troupe/loop"
)

// waitLimit guards against hangs only; no test asserts a duration.
const waitLimit = 20 * time.Second

// rig is a system on a virtual clock with a probe: scripts call
// require("probe").emit(value) and the test reads the values in order.
type rig struct {
	t      *testing.T
	sys    *actor.System
	vc     *loop.VirtualClock
	probe  chan any
	logs   *observer.ObservedLogs
	mu     sync.Mutex
	errs   []error
	events chan actor.Event
}

func newRig(t *testing.T, opts ...actor.Option) *rig {
	t.Helper()
	core, logs := observer.New(zap.DebugLevel)
	r := &rig{t: t, vc: loop.NewVirtualClock(), probe: make(chan any, 100_000), logs: logs, events: make(chan actor.Event, 1000)}
	opts = append([]actor.Option{actor.WithClock(r.vc), actor.WithLogger(zap.New(core))}, opts...)
	sys, err := actor.NewSystem("test", opts...)
	if err != nil {
		t.Fatal(err)
	}
	r.sys = sys
	cancel := sys.SubscribeEvents(func(e actor.Event) {
		select {
		case r.events <- e:
		default:
		}
	})
	t.Cleanup(func() {
		cancel()
		ctx, stop := context.WithTimeout(context.Background(), waitLimit)
		defer stop()
		if err := sys.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
	})
	return r
}

// options are the jsactor options every rig actor gets: the probe module
// and an error handler recording reported errors.
func (r *rig) options(extra ...jsactor.Option) []jsactor.Option {
	probe := func(rt *goja.Runtime, module *goja.Object) {
		exports := module.Get("exports").ToObject(rt)
		_ = exports.Set("emit", func(call goja.FunctionCall) goja.Value {
			r.probe <- call.Argument(0).Export()
			return goja.Undefined()
		})
	}
	onErr := func(_ actor.Ref, err error) {
		r.mu.Lock()
		r.errs = append(r.errs, err)
		r.mu.Unlock()
	}
	// A generous budget: under -race on a loaded machine an ordinary turn
	// may take long; the watchdog tests set their own.
	base := []jsactor.Option{jsactor.WithModule("probe", probe), jsactor.WithErrorHandler(onErr), jsactor.WithBudget(10 * time.Second)}
	return append(base, extra...)
}

// spawn starts a JS actor running src; the script may use emit().
func (r *rig) spawn(id, src string, extra ...jsactor.Option) actor.Ref {
	r.t.Helper()
	s, err := jsactor.Compile(id+".js", `const emit = require("probe").emit;`+src+
		"\nif (typeof module.exports === 'object' && !module.exports.noop) module.exports.noop = function () {};")
	if err != nil {
		r.t.Fatal(err)
	}
	ref, err := jsactor.Spawn(r.sys, "js", id, s, r.options(extra...)...)
	if err != nil {
		r.t.Fatal(err)
	}
	return ref
}

func (r *rig) ctx() context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	r.t.Cleanup(cancel)
	return ctx
}

// call asks a JS actor's method and fails the test on error.
func (r *rig) call(ref actor.Ref, method string, args ...any) any {
	r.t.Helper()
	v, err := jsactor.Ask[any](r.ctx(), r.sys, ref, method, args...)
	if err != nil {
		r.t.Fatalf("%s: %v", method, err)
	}
	return v
}

// expect reads n probe values. Virtual time does not move, but a loop
// wake-up armed for a time already passed needs another Advance to fire,
// so it nudges the clock while it waits.
func (r *rig) expect(n int) []any {
	r.t.Helper()
	out := make([]any, 0, n)
	deadline := time.Now().Add(waitLimit)
	for len(out) < n {
		select {
		case v := <-r.probe:
			out = append(out, v)
			continue
		default:
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("got %d of %d probe values: %v (hang guard)", len(out), n, out)
		}
		r.vc.Advance(0)
		runtime.Gosched()
	}
	return out
}

// quiet checks that no further probe value is pending after the actor
// handled one more message.
func (r *rig) quiet(ref actor.Ref) {
	r.t.Helper()
	_, _ = jsactor.Ask[any](r.ctx(), r.sys, ref, "noop")
	select {
	case v := <-r.probe:
		r.t.Fatalf("unexpected probe value %v", v)
	default:
	}
}

// advance moves virtual time once the actor's loop has armed its wake-up.
func (r *rig) advance(d time.Duration) {
	r.t.Helper()
	r.advanceOr(d, func() bool { return false })
}

// advanceOr is advance that gives up (without moving time) once stop
// reports true.
func (r *rig) advanceOr(d time.Duration, stop func() bool) {
	r.t.Helper()
	deadline := time.Now().Add(waitLimit)
	for r.vc.Pending() == 0 {
		if stop() {
			return
		}
		if time.Now().After(deadline) {
			r.t.Fatal("no wake-up armed (hang guard)")
		}
		runtime.Gosched()
	}
	r.vc.Advance(d)
}

// reported returns the errors the actors reported so far.
func (r *rig) reported() []error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]error(nil), r.errs...)
}

// waitReported waits until an error matching pred was reported.
func (r *rig) waitReported(pred func(error) bool) error {
	r.t.Helper()
	deadline := time.Now().Add(waitLimit)
	for {
		for _, err := range r.reported() {
			if pred(err) {
				return err
			}
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("no matching error reported; got %v (hang guard)", r.reported())
		}
		r.vc.Advance(0)
		runtime.Gosched()
	}
}

// waitEvent waits for a lifecycle event of kind k for ref.
func (r *rig) waitEvent(ref actor.Ref, k actor.EventKind) actor.Event {
	r.t.Helper()
	timeout := time.After(waitLimit)
	for {
		select {
		case e := <-r.events:
			if e.Actor == ref && e.Kind == k {
				return e
			}
		case <-timeout:
			r.t.Fatalf("no %v event for %v (hang guard)", k, ref)
		}
	}
}

func jsErrorOf(err error) *jsactor.Error {
	var je *jsactor.Error
	if errors.As(err, &je) {
		return je
	}
	return nil
}

// until advances virtual time by step at a time, collecting probe values,
// until the script emits last (not included).
func (r *rig) until(last any, step time.Duration) []any {
	r.t.Helper()
	var got []any
	for {
		select {
		case v := <-r.probe:
			if v == last {
				return got
			}
			got = append(got, v)
			continue
		default:
		}
		r.advanceOr(step, func() bool { return len(r.probe) > 0 })
	}
}

// await waits for a value on ch, nudging the virtual clock: a wake-up armed
// for a time already passed fires on the next Advance.
func (r *rig) await(ch chan any) any {
	r.t.Helper()
	deadline := time.Now().Add(waitLimit)
	for {
		select {
		case v := <-ch:
			return v
		default:
		}
		if time.Now().After(deadline) {
			r.t.Fatal("no value (hang guard)")
		}
		r.vc.Advance(0)
		runtime.Gosched()
	}
}

func zapString(k, v string) zap.Field { return zap.String(k, v) }
