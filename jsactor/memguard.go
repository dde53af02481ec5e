package jsactor

import (
	"errors"
	"math"

	"github.com/dop251/goja"
)

// goja has no memory limit: a builtin such as String.prototype.repeat
// allocates whatever its arguments ask for in one native call, which the
// watchdog cannot interrupt, and a request beyond the machine's memory
// kills the process (Go's out-of-memory is fatal, not a panic). So the
// builtins that can allocate far more than their input in one call are
// replaced, in each Runtime before the script runs, by guards that work
// out the size asked for and throw a RangeError when it is over the
// actor's memory budget, before the original allocates anything. Builtins
// that recurse in Go over nested data (JSON, Array.prototype.join and
// with it String() of an array) are bounded in depth the same way, since
// a Go stack overflow is fatal too.

// DefaultMemoryBudget is the most one builtin call of a JS actor may
// allocate unless WithMemoryBudget says otherwise.
const DefaultMemoryBudget = 256 << 20

// maxDataNesting bounds the depth of the data JSON.parse, JSON.stringify and
// Array.prototype.join walk: goja recurses in Go for each level.
const maxDataNesting = 1000

// valueBytes is what one array element costs, counted against the budget
// by the guards of array builtins.
const valueBytes = 16

// WithMemoryBudget bounds what one call of a JavaScript builtin may
// allocate: a string built by repeat, padStart, padEnd, concat or join,
// an array filled, sorted or made by Array.from, an ArrayBuffer or typed
// array, the text JSON.stringify makes. A call over the budget throws a
// RangeError the script can catch. Strings count two bytes per UTF-16
// code unit, array elements 16 bytes each. The default is
// DefaultMemoryBudget.
//
// The budget bounds each call, not the actor's total: a script can still
// build up memory a step at a time (the watchdog bounds how long each turn
// may take doing so). See the package doc, "What the sandbox guarantees".
func WithMemoryBudget(bytes int64) Option {
	return func(c *config) error {
		if bytes <= 0 {
			return errors.New("jsactor: WithMemoryBudget needs bytes > 0")
		}
		c.memBudget = bytes
		return nil
	}
}

// native is a builtin's Go implementation, as goja's own function
// objects export it.
type native = func(goja.FunctionCall) goja.Value

// memGuard holds the originals of the guarded builtins of one instance:
// their Go implementations only, not goja's function objects (see
// memguard_lazy.go).
type memGuard struct {
	in       *instance
	budget   float64
	repeat   native
	padS     native
	padE     native
	concat   native
	split    native
	repl     native
	replAll  native
	apply    native
	mapFn    native
	fill     native
	sort     native
	slice    native
	aconcat  native
	flat     native
	flatMap  native
	from     native
	keys     native
	values   native
	entries  native
	ownNames native
	fromEnt  native
	parse    goja.Callable
	strfy    goja.Callable
	rapply   goja.Callable
	rctor    goja.Callable
	rkeys    goja.Callable
	tfrom    goja.Callable
	joining  []*goja.Object // arrays whose join is in progress (cycles, depth)
	lazy     lazyState
}

// installMemGuards takes the allocating builtins away from the prototypes
// literals reach and puts their guards in reach, lazily. On the loop,
// before the script runs, so the script never sees an original.
func (in *instance) installMemGuards() {
	g := &memGuard{in: in, budget: DefaultMemoryBudget}
	if in.cfg.memBudget > 0 {
		g.budget = float64(in.cfg.memBudget)
	}
	in.cached().mem = g
	g.installLazy()
}

// replace puts guard in place of o[name] and returns the original.
func (g *memGuard) replace(o *goja.Object, name string, guard native) goja.Callable {
	orig, _ := goja.AssertFunction(o.Get(name))
	_ = o.DefineDataProperty(name, g.in.rt.ToValue(guard), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	return orig
}

// callFn calls orig, rethrowing what it throws.
func (g *memGuard) callFn(orig goja.Callable, this goja.Value, args ...goja.Value) goja.Value {
	v, err := orig(this, args...)
	if err != nil {
		panic(err)
	}
	return v
}

// call calls orig, a builtin's Go implementation, from within a guard:
// what it throws propagates as if the script had called it.
func (g *memGuard) call(orig native, this goja.Value, args ...goja.Value) goja.Value {
	return orig(goja.FunctionCall{This: this, Arguments: args})
}

// check throws a RangeError when n bytes are over the budget.
func (g *memGuard) check(n float64, what string) {
	if n > g.budget || math.IsNaN(n) {
		g.throwRange(what + " would allocate more than the actor's memory budget (see jsactor.WithMemoryBudget)")
	}
}

// throwRange throws an intrinsic RangeError with msg. It gets one from
// the original repeat (whatever the script did to the RangeError global)
// and rewrites its message.
func (g *memGuard) throwRange(msg string) {
	ex := g.in.rt.Try(func() { g.call(g.repeat, g.in.rt.ToValue(""), g.in.rt.ToValue(-1)) })
	if ex != nil {
		if o, ok := ex.Value().(*goja.Object); ok {
			_ = o.DefineDataProperty("message", g.in.rt.ToValue(msg), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
			panic(ex)
		}
	}
	panic(g.in.rt.NewTypeError(msg))
}

// str converts v to a string once (ToString), so that the original does
// not run a script's toString a second time.
func (g *memGuard) str(v goja.Value) goja.String {
	if s, ok := v.(goja.String); ok {
		return s
	}
	tv := v.ToString()
	if s, ok := tv.(goja.String); ok {
		return s
	}
	s, _ := g.in.rt.ToValue(tv.String()).(goja.String)
	return s
}

func strBytes(s goja.String) float64 {
	if s == nil {
		return 0
	}
	return 2 * float64(s.Length())
}

func nullish(v goja.Value) bool { return v == nil || goja.IsUndefined(v) || goja.IsNull(v) }

func (g *memGuard) guardRepeat(c goja.FunctionCall) goja.Value {
	if nullish(c.This) {
		return g.call(g.repeat, c.This, c.Arguments...) // the original's TypeError
	}
	s := g.str(c.This)
	n := c.Argument(0).ToNumber()
	if f := n.ToFloat(); f > 0 && s.Length() > 0 {
		g.check(strBytes(s)*math.Trunc(f), "String.prototype.repeat")
	}
	return g.call(g.repeat, s, n)
}

func (g *memGuard) guardPad(orig *native) func(goja.FunctionCall) goja.Value {
	return func(c goja.FunctionCall) goja.Value {
		if nullish(c.This) {
			return g.call(*orig, c.This, c.Arguments...)
		}
		s := g.str(c.This)
		n := c.Argument(0).ToNumber()
		fill := c.Argument(1)
		if !goja.IsUndefined(fill) {
			fill = g.str(fill)
		}
		if f := n.ToFloat(); f > float64(s.Length()) {
			g.check(2*math.Trunc(f), "String.prototype.padStart/padEnd")
		}
		return g.call(*orig, s, n, fill)
	}
}

func (g *memGuard) guardConcat(c goja.FunctionCall) goja.Value {
	if nullish(c.This) {
		return g.call(g.concat, c.This, c.Arguments...)
	}
	s := g.str(c.This)
	n := strBytes(s)
	args := make([]goja.Value, len(c.Arguments))
	for i, a := range c.Arguments {
		as := g.str(a)
		n += strBytes(as)
		args[i] = as
	}
	g.check(n, "String.prototype.concat")
	return g.call(g.concat, s, args...)
}

// length is ToLength(o.length) as a float.
func length(o *goja.Object) float64 {
	f := o.Get("length").ToNumber().ToFloat()
	if math.IsNaN(f) || f <= 0 {
		return 0
	}
	return math.Min(math.Trunc(f), 1<<53-1)
}

// relIndex is the spec's relative index clamping (fill's start and end).
func relIndex(v goja.Value, l, def float64) float64 {
	if goja.IsUndefined(v) {
		return def
	}
	f := math.Trunc(v.ToFloat())
	if math.IsNaN(f) {
		f = 0
	}
	if f < 0 {
		return math.Max(l+f, 0)
	}
	return math.Min(f, l)
}

func (g *memGuard) guardFill(c goja.FunctionCall) goja.Value {
	o := c.This.ToObject(g.in.rt)
	l := length(o)
	start, end := c.Argument(1).ToNumber(), c.Argument(2)
	if !goja.IsUndefined(end) {
		end = end.ToNumber()
	}
	if n := relIndex(end, l, l) - relIndex(start, l, 0); n > 0 {
		g.check(n*valueBytes, "Array.prototype.fill")
	}
	return g.call(g.fill, o, c.Argument(0), start, end)
}

// guardLength guards a method that works on all of this.length at once.
func (g *memGuard) guardLength(orig *native) func(goja.FunctionCall) goja.Value {
	return func(c goja.FunctionCall) goja.Value {
		o := c.This.ToObject(g.in.rt)
		g.check(length(o)*valueBytes, "an array method over this length")
		return g.call(*orig, o, c.Arguments...)
	}
}

// guardFrom bounds an array-like by its length and an iterable by what
// it yields (memguard_iter.go).
func (g *memGuard) guardFrom(c goja.FunctionCall) goja.Value {
	src := c.Argument(0)
	if !nullish(src) {
		src = g.boundIterable(src, valueBytes, "Array.from")
	}
	args := append([]goja.Value{src}, c.Arguments[min(1, len(c.Arguments)):]...)
	return g.call(g.from, c.This, args...)
}
