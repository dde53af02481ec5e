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
		if _, fn := goja.AssertFunction(rep); fn {
			return g.call(*orig, c.This, c.Arguments...) // script code per match: the watchdog bounds it
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

// guardApply bounds the argument list apply builds from an array-like.
func (g *MemGuard) guardApply(c goja.FunctionCall) goja.Value {
	if o, ok := c.Argument(1).(*goja.Object); ok {
		g.check(length(o)*valueBytes, "Function.prototype.apply")
	}
	return g.call(g.apply, c.This, c.Arguments...)
}
