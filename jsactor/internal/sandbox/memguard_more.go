package sandbox

import (
	"strings"

	"github.com/dop251/goja"
)

// guardSplit bounds the pieces split may make: one array element each.
func (g *MemGuard) guardSplit(c goja.FunctionCall) goja.Value {
	if nullish(c.This) {
		return g.call(g.split, c.This, c.Arguments...)
	}
	sep, limit := c.Argument(0), c.Argument(1)
	if _, isObj := sep.(*goja.Object); isObj { // a RegExp's own split: at most one piece per character
		s := g.str(c.This)
		g.check(float64(s.Length()+1)*valueBytes, "String.prototype.split")
		return g.call(g.split, s, sep, limit)
	}
	s := g.str(c.This)
	var n float64
	if !goja.IsUndefined(sep) {
		sep = g.str(sep)
		if t := sep.String(); t == "" {
			n = float64(s.Length())
		} else {
			n = float64(strings.Count(s.String(), t) + 1)
		}
	}
	if !goja.IsUndefined(limit) {
		limit = limit.ToNumber()
		n = min(n, limit.ToFloat())
	}
	g.check(n*valueBytes, "String.prototype.split")
	return g.call(g.split, s, sep, limit)
}

// guardReplace bounds what replace and replaceAll with a replacement
// string may build: every match (at most one per character, or the
// occurrences of a string pattern) gets the replacement, and a
// replacement with $ patterns may insert up to the whole string.
func (g *MemGuard) guardReplace(orig *native, all bool) func(goja.FunctionCall) goja.Value {
	return func(c goja.FunctionCall) goja.Value {
		pat, rep := c.Argument(0), c.Argument(1)
		if nullish(c.This) {
			return g.call(*orig, c.This, c.Arguments...)
		}
		if fn, ok := goja.AssertFunction(rep); ok {
			s := g.str(c.This)
			return g.call(*orig, s, pat, g.countedReplacer(fn, strBytes(s)))
		}
		s := g.str(c.This)
		r := g.str(rep)
		per := strBytes(r)
		if strings.Contains(r.String(), "$") {
			per += strBytes(s)
		}
		matches := float64(s.Length() + 1) // a global RegExp: at most one match per position
		if _, isObj := pat.(*goja.Object); !isObj {
			pat = g.str(pat)
			switch p := pat.String(); {
			case !all:
				matches = 1
			case p != "":
				matches = float64(strings.Count(s.String(), p))
			}
		}
		g.check(strBytes(s)+matches*per, "String.prototype.replace")
		return g.call(*orig, s, pat, r)
	}
}

// countedReplacer calls a replace's function replacer, counting what it
// returns: the result is the string's unmatched text and those returns,
// so once they add up past the budget the call throws (one replace with
// a function built 800 M characters under the default budget). base is
// the string's own size, a bound on the unmatched text.
func (g *MemGuard) countedReplacer(fn goja.Callable, base float64) goja.Value {
	total := base
	return g.rt.ToValue(func(c goja.FunctionCall) goja.Value {
		v, err := fn(c.This, c.Arguments...)
		if err != nil {
			panic(err)
		}
		s := g.str(v)
		total += strBytes(s)
		g.check(total, "String.prototype.replace")
		return s
	})
}

// guardApply bounds the argument list apply builds from an array-like.
func (g *MemGuard) guardApply(c goja.FunctionCall) goja.Value {
	if o, ok := c.Argument(1).(*goja.Object); ok {
		g.check(length(o)*valueBytes, "Function.prototype.apply")
	}
	return g.call(g.apply, c.This, c.Arguments...)
}
