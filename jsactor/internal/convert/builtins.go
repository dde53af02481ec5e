package convert

import (
	"fmt"

	"github.com/dop251/goja"

	"github.com/troupe-go/troupe/jsactor/internal/sandbox"
)

// builtins are the JavaScript intrinsics the Go side calls.
//
// A script may replace any global before the host uses it, so the host
// never trusts a global it looks up after the script ran:
//
//   - Object.freeze, used to freeze every ref, is goja's own, built for
//     the Runtime when first used (sandbox.IntrinsicFreeze) or, with a
//     goja where that cannot be done, captured when the instance
//     starts, before the script's top level runs.
//   - Promises are followed (async replies) and microtasks queued with
//     compiled async functions that use await, which reaches the
//     intrinsic PerformPromiseThen without looking up Promise or its
//     then (see jsactor's follow.go).
//   - Constructors (Date, Error, typed arrays, Map, Set, RegExp) are
//     looked up on first use, always inside a watched turn, and every
//     value they construct is checked to be genuine (see construct): a
//     script that replaced one gets ErrCannotCross (or, for Error, an
//     intrinsic TypeError), and a replacement that loops is interrupted
//     by the watchdog like any other turn.
//
// Capturing them all up front instead would cost every actor what goja
// saves by building its globals lazily: a trivial JS actor would grow
// from about 6 KB to about 22 KB.
type builtins struct {
	freeze goja.Callable
	lazy   map[string]*goja.Object // constructors looked up on first use
}

// Freeze freezes o with the intrinsic Object.freeze.
func (cv *Converter) Freeze(o *goja.Object) {
	if cv.freeze == nil {
		cv.freeze = sandbox.IntrinsicFreeze(cv.rt)
	}
	_, _ = cv.freeze(goja.Undefined(), o)
}

// lazyCtor returns the global constructor name, looked up on its first
// use (see builtins). Inside a turn: a getter the script put there runs
// watched, and its exception is returned.
func (cv *Converter) lazyCtor(name string) (c *goja.Object, err error) {
	bi := &cv.builtins
	if c = bi.lazy[name]; c != nil {
		return c, nil
	}
	if ex := cv.rt.Try(func() { c, _ = cv.rt.GlobalObject().Get(name).(*goja.Object) }); ex != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrCannotCross, name, cv.host.JSError(ex))
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
func (cv *Converter) construct(name string, ok func(*goja.Object) bool, args ...goja.Value) (*goja.Object, error) {
	c, err := cv.lazyCtor(name)
	if err != nil {
		return nil, err
	}
	var o *goja.Object
	if ex := cv.rt.Try(func() { o, err = cv.rt.New(c, args...) }); ex != nil {
		err = cv.host.JSError(ex)
	}
	if err == nil && (o == nil || !ok(o)) {
		err = fmt.Errorf("the global %s was replaced", name)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: new %s: %w", ErrCannotCross, name, err)
	}
	return o, nil
}
