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

// memGuard holds the originals of the guarded builtins of one instance.
type memGuard struct {
	in      *instance
	budget  float64
	repeat  goja.Callable
	padS    goja.Callable
	padE    goja.Callable
	concat  goja.Callable
	split   goja.Callable
	repl    goja.Callable
	replAll goja.Callable
	apply   goja.Callable
	mapFn   goja.Callable
	fill    goja.Callable
	sort    goja.Callable
	from    goja.Callable
	parse   goja.Callable
	strfy   goja.Callable
	joining []*goja.Object // arrays whose join is in progress (cycles, depth)
}

// installMemGuards replaces the allocating builtins with their guards.
// On the loop, before the script runs, so the script never sees an
// original.
func (in *instance) installMemGuards() {
	g := &memGuard{in: in, budget: DefaultMemoryBudget}
	if in.cfg.memBudget > 0 {
		g.budget = float64(in.cfg.memBudget)
	}
	rt := in.rt
	sp := rt.Get("String").ToObject(rt).Get("prototype").ToObject(rt)
	g.repeat = g.replace(sp, "repeat", g.guardRepeat)
	g.padS = g.replace(sp, "padStart", g.guardPad(&g.padS))
	g.padE = g.replace(sp, "padEnd", g.guardPad(&g.padE))
	g.concat = g.replace(sp, "concat", g.guardConcat)
	g.split = g.replace(sp, "split", g.guardSplit)
	g.repl = g.replace(sp, "replace", g.guardReplace(&g.repl, false))
	g.replAll = g.replace(sp, "replaceAll", g.guardReplace(&g.replAll, true))
	fp := rt.Get("Function").ToObject(rt).Get("prototype").ToObject(rt)
	g.apply = g.replace(fp, "apply", g.guardApply)
	arr := rt.Get("Array").ToObject(rt)
	ap := arr.Get("prototype").ToObject(rt)
	g.fill = g.replace(ap, "fill", g.guardFill)
	g.sort = g.replace(ap, "sort", g.guardLength(&g.sort))
	g.mapFn = g.replace(ap, "map", g.guardLength(&g.mapFn))
	g.replace(ap, "join", g.join)
	g.from = g.replace(arr, "from", g.guardFrom)
	in.cached().mem = g
}

// replace puts guard in place of o[name] and returns the original.
func (g *memGuard) replace(o *goja.Object, name string, guard func(goja.FunctionCall) goja.Value) goja.Callable {
	orig, _ := goja.AssertFunction(o.Get(name))
	_ = o.DefineDataProperty(name, g.in.rt.ToValue(guard), goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE)
	return orig
}

// call calls orig, rethrowing what it throws.
func (g *memGuard) call(orig goja.Callable, this goja.Value, args ...goja.Value) goja.Value {
	v, err := orig(this, args...)
	if err != nil {
		panic(err)
	}
	return v
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
	_, err := g.repeat(g.in.rt.ToValue(""), g.in.rt.ToValue(-1))
	var ex *goja.Exception
	if errors.As(err, &ex) {
		if o, ok := ex.Value().(*goja.Object); ok {
			_ = o.DefineDataProperty("message", g.in.rt.ToValue(msg), goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE)
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

func (g *memGuard) guardPad(orig *goja.Callable) func(goja.FunctionCall) goja.Value {
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
func (g *memGuard) guardLength(orig *goja.Callable) func(goja.FunctionCall) goja.Value {
	return func(c goja.FunctionCall) goja.Value {
		o := c.This.ToObject(g.in.rt)
		g.check(length(o)*valueBytes, "an array method over this length")
		return g.call(*orig, o, c.Arguments...)
	}
}

func (g *memGuard) guardFrom(c goja.FunctionCall) goja.Value {
	if src, ok := c.Argument(0).(*goja.Object); ok {
		g.check(length(src)*valueBytes, "Array.from")
	}
	return g.call(g.from, c.This, c.Arguments...)
}
