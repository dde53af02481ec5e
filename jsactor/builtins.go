package jsactor

import (
	"fmt"

	"github.com/dop251/goja"
)

// builtins are the JavaScript intrinsics the Go side calls.
//
// Those used on every path (Date, Error, Object.freeze,
// Promise.prototype.then and a resolved promise) are captured when an
// instance starts, before the script's top level runs, so a script that
// replaces one of those globals changes what it sees itself but not what
// the host does.
//
// The others (typed array constructors, Map, Set, RegExp; used only by
// typed-array and structuredClone conversions) would cost every actor
// about 60 KB if built up front, since goja builds its globals lazily.
// They are looked up on first use instead, always inside a watched turn,
// and each value they construct is checked to be the genuine kind (see
// lazyCtor): a script that replaced one gets ErrCannotCross, and one whose
// replacement loops is interrupted by the watchdog like any other turn.
type builtins struct {
	date     *goja.Object
	errCtor  *goja.Object
	freeze   goja.Callable
	then     goja.Callable
	resolved *goja.Object // a promise fulfilled with undefined, for queueMicrotask

	lazy map[string]*goja.Object // constructors looked up on first use
}

// captureBuiltins fills in.bi from the pristine global object. On the
// loop, before the script runs.
func (in *instance) captureBuiltins() {
	rt := in.rt
	get := func(o *goja.Object, name string) *goja.Object { return o.Get(name).ToObject(rt) }
	g := rt.GlobalObject()
	bi := &builtins{date: get(g, "Date"), errCtor: get(g, "Error")}
	bi.freeze, _ = goja.AssertFunction(get(g, "Object").Get("freeze"))
	promise := get(g, "Promise")
	bi.then, _ = goja.AssertFunction(get(promise, "prototype").Get("then"))
	resolve, _ := goja.AssertFunction(promise.Get("resolve"))
	if v, err := resolve(promise); err == nil {
		bi.resolved = v.ToObject(rt)
		// then looks up the species constructor: pin it on this promise,
		// which the script never sees, against a replaced
		// Promise.prototype.constructor.
		_ = bi.resolved.DefineDataProperty("constructor", promise, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE)
	}
	in.cached().bi = bi
}

// intrinsics returns the captured builtins.
func (in *instance) intrinsics() *builtins { return in.cached().bi }

// freezeJS freezes o with the captured Object.freeze.
func (in *instance) freezeJS(o *goja.Object) {
	_, _ = in.intrinsics().freeze(goja.Undefined(), o)
}

// lazyCtor returns the global constructor name, looked up on its first
// use (see builtins). Inside a turn: a getter the script put there runs
// watched, and its exception is returned.
func (in *instance) lazyCtor(name string) (c *goja.Object, err error) {
	bi := in.intrinsics()
	if c = bi.lazy[name]; c != nil {
		return c, nil
	}
	if ex := in.rt.Try(func() { c, _ = in.rt.GlobalObject().Get(name).(*goja.Object) }); ex != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrCannotCross, name, in.jsError(ex))
	}
	if c == nil {
		return nil, fmt.Errorf("%w: %s is not a constructor", ErrCannotCross, name)
	}
	if bi.lazy == nil {
		bi.lazy = map[string]*goja.Object{}
	}
	bi.lazy[name] = c
	return c, nil
}

// construct calls new name(args...) with the lazily captured constructor
// and checks the result is of the wanted kind (ok), so a replaced global
// cannot pass a fake off as a builtin.
func (in *instance) construct(name string, ok func(*goja.Object) bool, args ...goja.Value) (*goja.Object, error) {
	c, err := in.lazyCtor(name)
	if err != nil {
		return nil, err
	}
	var o *goja.Object
	if ex := in.rt.Try(func() { o, err = in.rt.New(c, args...) }); ex != nil {
		err = in.jsError(ex)
	}
	if err == nil && (o == nil || !ok(o)) {
		err = fmt.Errorf("the global %s was replaced", name)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: new %s: %w", ErrCannotCross, name, err)
	}
	return o, nil
}
