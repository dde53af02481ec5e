package jsactor

import (
	"context"
	"errors"
	"fmt"
	"path"
	"reflect"
	"strings"

	"github.com/dop251/goja"
	"go.uber.org/zap"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/jsactor/internal/convert"
	"github.com/troupe-go/troupe/jsactor/internal/sandbox"
	"github.com/troupe-go/troupe/loop"
)

// instance is one incarnation of a JS actor: a goja Runtime that ran the
// script, and the JavaScript-side state of its event loop. Everything but
// watch's turn counter is touched on the actor's loop only.
type instance struct {
	cfg    *config
	script *Script
	c      *actor.Context
	l      *loop.Loop
	rt     *goja.Runtime
	module *goja.Object

	timers  timerTable
	imms    immQueue
	pool    handlePool    // timers and immediates done, for reuse; see handles.go
	arg1    [1]goja.Value // the argument of a one-argument callback; see callWith
	nesting int           // timer nesting level of the running callback
	asks    map[*loop.Resolver[any]]struct{}
	rej     rejections
	depth   int   // > 0 inside a turn
	failure error // makes the turn in progress fatal to the instance
	dead    bool
	origin  int64               // loop time at start, performance.now's zero
	watch   sandbox.Watch       // the watchdog's hold on the turns
	stack   sandbox.StackKeeper // goja's value stack, kept between turns
	cache   *cache              // lazily built helpers; see globals.go
	conv    *convert.Converter  // see values.go

	asyncCtx    context.Context // cancelled when the instance dies; see async.go
	asyncCancel context.CancelFunc

	fns    callables    // Callables of recent handlers and callbacks
	argBuf []goja.Value // a handler's arguments; see dispatch
}

var (
	_ actor.Actor          = (*instance)(nil)
	_ actor.StartedHook    = (*instance)(nil)
	_ actor.RestartingHook = (*instance)(nil)
	_ actor.StoppingHook   = (*instance)(nil)
	_ actor.StoppedHook    = (*instance)(nil)
)

var typePromise = reflect.TypeFor[*goja.Promise]()

// Started creates the Runtime on the actor's loop and runs the script's
// top level as the instance's first turn.
func (in *instance) Started(c *actor.Context) {
	in.c, in.l = c, c.Loop()
	in.origin = in.l.Now()
	in.rt = goja.New()
	in.rt.SetMaxCallStackSize(in.cfg.maxStack)
	in.stack.Keep(in.rt)
	in.rt.SetPromiseRejectionTracker(in.trackRejection)
	in.installGlobals()
	in.captureBuiltins()
	in.installMemGuards()
	in.watch.Start(in.rt, in.cfg.budget, ErrWatchdog, in.unwatchedTurn)
	in.rt.SetTimeSource(in.wallClock())
	seq := in.begin()
	err := in.runHooks()
	if err == nil {
		err = in.runScript()
	}
	if err == nil {
		err = in.runInit()
	}
	if err != nil && !isUncatchable(err) {
		in.failure = fmt.Errorf("%w: %s: %w", ErrScript, in.script.name, in.jsError(err))
		err = nil
	}
	in.end(seq, err)
}

func (in *instance) runScript() error {
	fnv, err := in.rt.RunProgram(in.script.prog)
	if err != nil {
		return err
	}
	fn, ok := goja.AssertFunction(fnv)
	if !ok {
		return fmt.Errorf("%w: not a module", ErrScript)
	}
	exports := in.rt.NewObject()
	in.module = in.rt.NewObject()
	_ = in.module.Set("exports", exports)
	dir := path.Dir(in.script.name)
	_, err = fn(exports, exports, in.module, in.rt.ToValue(in.require),
		in.rt.ToValue("/"+path.Clean(in.script.name)), in.rt.ToValue("/"+dir))
	return err
}

// runInit calls module.exports.init(...args) (WithArgs), if the script
// exports an init function.
func (in *instance) runInit() error {
	obj, _ := in.module.Get("exports").(*goja.Object)
	if obj == nil {
		return nil
	}
	var fn goja.Callable
	if err := in.guard(func() { fn, _ = goja.AssertFunction(obj.Get("init")) }); err != nil || fn == nil {
		return err
	}
	args, err := in.toJSArgs(make([]goja.Value, 0, len(in.cfg.args)), in.cfg.args)
	if err != nil {
		return fmt.Errorf("init arguments: %w", err)
	}
	_, err = fn(obj, args...)
	return err
}

// Receive hands msg to its handler as one turn.
func (in *instance) Receive(c *actor.Context, msg any) (any, error) {
	if in.dead {
		return nil, ErrInstanceLost
	}
	seq := in.begin() // converting the message may run builtins: watched
	fn, this, args, err := in.dispatch(msg)
	if err != nil {
		clear(args)
		in.end(seq, nil)
		if !errors.Is(err, actor.ErrUnhandled) {
			// A message whose arguments cannot cross is not handled
			// either: the runtime dead-letters it with the reason.
			err = fmt.Errorf("%w: %w", actor.ErrUnhandled, err)
		}
		in.logger().Warn("message not handled", zap.Error(err))
		return nil, err
	}
	v, err := fn(this, args...)
	clear(args) // the arguments may be in argBuf: let them go
	var reply any
	var replyErr error
	if err == nil {
		reply, replyErr = in.replyOf(msg, v)
	} else if !isUncatchable(err) {
		replyErr = in.threw(in.jsError(err))
		err = nil
	}
	in.end(seq, err)
	return reply, replyErr
}

// threw deals with the error a handler threw, or its promise rejected
// with: a budget breach, or any throw under WithCrashOnThrow, fails the
// instance; any other is the handler's answer, and the error handler is
// told of it. It returns the error to answer with.
func (in *instance) threw(jerr error) error {
	if in.cfg.crashOnThrow || isBudgetBreach(jerr) {
		in.failure = jerr
		return jerr
	}
	if in.cfg.onError != nil {
		in.cfg.onError(in.c.Self(), jerr)
	}
	return jerr
}

// isBudgetBreach reports whether err is the RangeError of the memory
// budget (internal/sandbox) left uncaught.
func isBudgetBreach(err error) bool {
	je, ok := err.(*Error)
	return ok && strings.Contains(je.Message, "memory budget (see jsactor.WithMemoryBudget)")
}

// dispatch finds the handler of msg and converts its arguments.
// Outside a turn the arguments go in the instance's argBuf, reused from
// one message to the next: goja copies a JavaScript function's arguments
// onto its own stack, and Receive clears them after the call.
func (in *instance) dispatch(msg any) (goja.Callable, goja.Value, []goja.Value, error) {
	exports := in.module.Get("exports")
	obj, _ := exports.(*goja.Object)
	if call, ok := msg.(Call); ok {
		if obj != nil {
			if fn, ok := in.fns.get(obj.Get(call.Method)); ok {
				args, err := in.toJSArgs(in.args(len(call.Args)), call.Args)
				return fn, exports, args, err
			}
		}
		return nil, nil, nil, fmt.Errorf("%w: %q", ErrNoHandler, call.Method)
	}
	if obj != nil {
		fn, ok := in.fns.get(obj.Get("receive"))
		if !ok { // module.exports may itself be the receive function
			fn, ok = in.fns.get(obj)
		}
		if ok {
			v, err := in.toJS(msg)
			args := append(in.args(1), v)
			return fn, exports, args, err
		}
	}
	return nil, nil, nil, fmt.Errorf("%w: no receive for %T", ErrNoHandler, msg)
}

// args returns an empty slice for n arguments: argBuf in a message's own
// turn, a fresh one in a nested turn (the turn around may still use
// argBuf). Receive has begun its turn already: depth is 1 there.
func (in *instance) args(n int) []goja.Value {
	if in.depth > 1 {
		return make([]goja.Value, 0, n)
	}
	if cap(in.argBuf) < n {
		in.argBuf = make([]goja.Value, 0, max(n, 4))
	}
	return in.argBuf[:0]
}

// replyOf turns a handler's return value into the reply: a converted
// value, or for a promise still pending a loop promise it settles.
func (in *instance) replyOf(msg any, v goja.Value) (any, error) {
	if o, ok := v.(*goja.Object); ok && o.ExportType() == typePromise {
		if p, ok := o.Export().(*goja.Promise); ok {
			return in.replyLater(msg, o, p)
		}
	}
	return in.toGo(v)
}

// replyLater answers msg with a loop promise settled by the JS promise; a
// rejection is dealt with as a throw (see threw), and one no asker reads
// goes where the runtime sends a tell's error (Context.HandlerFailed).
func (in *instance) replyLater(msg any, o *goja.Object, p *goja.Promise) (any, error) {
	switch p.State() {
	case goja.PromiseStateFulfilled:
		return in.toGo(p.Result())
	case goja.PromiseStateRejected:
		in.rej.handled(p)
		return nil, in.threw(in.errorOf(p.Result()))
	}
	lp, res := loop.NewPromise[any](in.l)
	reply := &pendingReply{Promise: lp}
	if in.asks == nil {
		in.asks = map[*loop.Resolver[any]]struct{}{}
	}
	in.asks[res] = struct{}{}
	onOK := func(call goja.FunctionCall) goja.Value {
		if _, live := in.asks[res]; live {
			delete(in.asks, res)
			if v, err := in.toGo(call.Argument(0)); err != nil {
				res.Reject(err)
			} else {
				res.Resolve(v)
			}
		}
		return goja.Undefined()
	}
	onErr := func(call goja.FunctionCall) goja.Value {
		if _, live := in.asks[res]; live {
			delete(in.asks, res)
			jerr := in.threw(in.errorOf(call.Argument(0)))
			if !reply.asked && in.failure == nil {
				// No one will read the rejection: log and publish
				// it, as the runtime does with a tell handler's error.
				in.c.HandlerFailed(msg, jerr)
			}
			res.Reject(jerr)
		}
		return goja.Undefined()
	}
	if err := in.follow(o, in.rt.ToValue(onOK), in.rt.ToValue(onErr)); err != nil {
		in.replyFailed(res, err)
	}
	return reply, nil
}

// pendingReply is the reply of a handler whose promise is pending. The
// actor runtime reads an ask's reply with WhenSettled and drops a tell's:
// asked says whether anyone will read a rejection.
type pendingReply struct {
	*loop.Promise[any]
	asked bool
}

// WhenSettled implements loop.Untyped.
func (r *pendingReply) WhenSettled(fn func(v any, err error)) {
	r.asked = true
	r.Promise.WhenSettled(fn)
}

// fail makes the instance die and hands err to supervision with
// actor.Context.Fail: an ordinary error, not a panic.
func (in *instance) fail(err error) {
	if in.cfg.onError != nil {
		in.cfg.onError(in.c.Self(), err)
	}
	in.dispose(err)
	in.c.Fail(err)
}

// Restarting drops the failed instance.
func (in *instance) Restarting(_ *actor.Context, reason error) { in.dispose(reason) }

// Stopping drops the instance when the actor stops.
func (in *instance) Stopping(*actor.Context) { in.dispose(actor.ErrStopped) }

// Stopped drops the instance (Stopping does not run for an actor that was
// not running).
func (in *instance) Stopped(*actor.Context) { in.dispose(actor.ErrStopped) }

// dispose cancels the instance's timers and immediates and fails the asks
// it still owed. Idempotent. On the loop.
func (in *instance) dispose(reason error) {
	if in.dead {
		return
	}
	in.dead = true
	if in.rt != nil {
		in.watch.Stop()
	}
	in.timers.cancelAll(in.l)
	in.imms.reset()
	for res := range in.asks {
		res.Reject(fmt.Errorf("%w: %w", ErrInstanceLost, reason))
	}
	in.asks = nil
	if in.asyncCancel != nil {
		in.asyncCancel()
	}
}

func (in *instance) logger() *zap.Logger { return in.c.Logger() }

// unwatchedTurn logs a turn that runs without the watchdog (the 1st,
// 2nd, 4th... of the process; see sandbox.Watch).
func (in *instance) unwatchedTurn(n uint64, slots int) {
	if in.c != nil {
		in.logger().Warn("jsactor: a turn runs unwatched: all watchdog slots are busy",
			zap.Uint64("unwatched turns", n), zap.Int("slots", slots))
	}
}
