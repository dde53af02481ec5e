package sandbox

import (
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

// maxDataNesting bounds the depth of the data JSON.parse, JSON.stringify and
// Array.prototype.join walk: goja recurses in Go for each level.
const maxDataNesting = 1000

// valueBytes is what one array element costs, counted against the budget
// by the guards of array builtins.
const valueBytes = 16

// native is a builtin's Go implementation, as goja's own function
// objects export it.
type native = func(goja.FunctionCall) goja.Value

// MemGuard holds the originals of the guarded builtins of one instance:
// their Go implementations only, not goja's function objects (see
// memguard_lazy.go).
type MemGuard struct {
	rt        *goja.Runtime
	orig      *goja.Object // goja's own global object, which the script never sees
	budget    float64
	repeat    native
	padS      native
	padE      native
	concat    native
	split     native
	repl      native
	replAll   native
	apply     native
	mapFn     native
	fill      native
	sort      native
	slice     native
	aconcat   native
	flat      native
	flatMap   native
	toRev     native
	toSort    native
	toSplice  native
	with      native
	from      native
	keys      native
	values    native
	entries   native
	ownNames  native
	fromEnt   native
	parse     goja.Callable
	strfy     goja.Callable
	rapply    goja.Callable
	rctor     goja.Callable
	rkeys     goja.Callable
	tfrom     goja.Callable
	joining   []*goja.Object // arrays whose join is in progress (cycles, depth)
	array     *goja.Object   // the Array constructor once guarded; see ArrayCtor
	wrapCtors bool           // guard constructors by wrapping them; see guardCtor
	lazy      lazyState
}

// NewMemGuard takes the allocating builtins of rt away from the
// prototypes literals reach and puts their guards in reach, lazily, with
// budget bytes the most one call may allocate. orig is goja's own global
// object, which the script's global object must not expose (the guarded
// globals are built from it by Global). On the loop, before the script
// runs, so the script never sees an original. The guards hold as long as
// the MemGuard is reachable (rt holds it only weakly): keep it as long as
// rt.
func NewMemGuard(rt *goja.Runtime, orig *goja.Object, budget int64) *MemGuard {
	g := &MemGuard{rt: rt, orig: orig, budget: float64(budget)}
	g.installLazy(patched)
	return g
}

// replace puts guard in place of o[name] and returns the original.
func (g *MemGuard) replace(o *goja.Object, name string, guard native) goja.Callable {
	orig, _ := goja.AssertFunction(o.Get(name))
	_ = o.DefineDataProperty(name, g.rt.ToValue(guard), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	return orig
}

// callFn calls orig, rethrowing what it throws.
func (g *MemGuard) callFn(orig goja.Callable, this goja.Value, args ...goja.Value) goja.Value {
	v, err := orig(this, args...)
	if err != nil {
		panic(err)
	}
	return v
}

// call calls orig, a builtin's Go implementation, from within a guard:
// what it throws propagates as if the script had called it.
func (g *MemGuard) call(orig native, this goja.Value, args ...goja.Value) goja.Value {
	return orig(goja.FunctionCall{This: this, Arguments: args})
}

// check throws a RangeError when n bytes are over the budget.
func (g *MemGuard) check(n float64, what string) {
	if n > g.budget || math.IsNaN(n) {
		g.throwRange(what + " would allocate more than the actor's memory budget (see jsactor.WithMemoryBudget)")
	}
}

// throwRange throws an intrinsic RangeError with msg, made by goja's own
// constructor whatever the script did to the RangeError global.
func (g *MemGuard) throwRange(msg string) {
	if ctor, ok := g.orig.Get("RangeError").(*goja.Object); ok {
		if e, err := g.rt.New(ctor, g.rt.ToValue(msg)); err == nil {
			panic(e)
		}
	}
	panic(g.rt.NewTypeError(msg))
}

// str converts v to a string once (ToString), so that the original does
// not run a script's toString a second time.
func (g *MemGuard) str(v goja.Value) goja.String {
	if s, ok := v.(goja.String); ok {
		return s
	}
	tv := v.ToString()
	if s, ok := tv.(goja.String); ok {
		return s
	}
	s, _ := g.rt.ToValue(tv.String()).(goja.String)
	return s
}

func strBytes(s goja.String) float64 {
	if s == nil {
		return 0
	}
	return 2 * float64(s.Length())
}

func nullish(v goja.Value) bool { return v == nil || goja.IsUndefined(v) || goja.IsNull(v) }

func (g *MemGuard) guardRepeat(c goja.FunctionCall) goja.Value {
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

func (g *MemGuard) guardPad(orig *native) func(goja.FunctionCall) goja.Value {
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

func (g *MemGuard) guardConcat(c goja.FunctionCall) goja.Value {
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

func (g *MemGuard) guardFill(c goja.FunctionCall) goja.Value {
	o := c.This.ToObject(g.rt)
	start, end := g.checkSpan(length(o), c.Argument(1), c.Argument(2), "Array.prototype.fill")
	return g.call(g.fill, o, c.Argument(0), start, end)
}

// checkSpan checks the elements [start, end) of an array-like of length
// l select (relative indices, as fill and slice take them) against the
// budget, and returns start and end converted once, for the original to
// take without running a script's valueOf again.
func (g *MemGuard) checkSpan(l float64, start, end goja.Value, what string) (goja.Value, goja.Value) {
	start = start.ToNumber()
	if !goja.IsUndefined(end) {
		end = end.ToNumber()
	}
	if n := relIndex(end, l, l) - relIndex(start, l, 0); n > 0 {
		g.check(n*valueBytes, what)
	}
	return start, end
}

// guardLength guards a method that works on all of this.length at once.
func (g *MemGuard) guardLength(orig *native) func(goja.FunctionCall) goja.Value {
	return func(c goja.FunctionCall) goja.Value {
		o := c.This.ToObject(g.rt)
		g.check(length(o)*valueBytes, "an array method over this length")
		return g.call(*orig, o, c.Arguments...)
	}
}

// guardFrom bounds an array-like by its length and an iterable by what
// it yields (memguard_iter.go).
func (g *MemGuard) guardFrom(c goja.FunctionCall) goja.Value {
	src := c.Argument(0)
	if !nullish(src) {
		src = g.boundIterable(src, valueBytes, "Array.from")
	}
	args := append([]goja.Value{src}, c.Arguments[min(1, len(c.Arguments)):]...)
	return g.call(g.from, c.This, args...)
}
