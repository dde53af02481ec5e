package gen

import (
	"cmp"
	"go/token"
	"go/types"
	"slices"
)

// signalTypes are the messages of package actor that the runtime itself
// delivers to an actor's Receive. A method taking one of them is its
// handler: dispatched when it arrives, but neither told nor asked through
// the typed ref, since nobody else should send it.
var signalTypes = []string{"ReceiveTimeout", "Terminated"}

// signal is a method handling a runtime message.
type signal struct {
	name string    // the method's name
	typ  string    // the runtime message: an element of signalTypes
	pos  token.Pos // the method's position
}

// signalIn returns the runtime message that a parameter after the
// *actor.Context takes (as T, *T, or ...T when variadic), or "".
func signalIn(sig *types.Signature) string {
	ps := sig.Params()
	for i := 1; i < ps.Len(); i++ {
		t := types.Unalias(ps.At(i).Type())
		switch u := t.(type) {
		case *types.Pointer:
			t = u.Elem()
		case *types.Slice:
			if sig.Variadic() && i == ps.Len()-1 {
				t = u.Elem()
			}
		}
		for _, name := range signalTypes {
			if isNamed(t, actorPath, name) {
				return name
			}
		}
	}
	return ""
}

// signal analyzes fn, a method whose parameters mention the runtime
// message typ: it must be exactly func(*actor.Context, actor.typ).
func (a *analyzer) signal(spec actorSpec, fn *types.Func, typ string) (signal, bool) {
	sig := fn.Type().(*types.Signature)
	ps := sig.Params()
	want := "(*actor.Context, actor." + typ + ")"
	switch {
	case ps.Len() != 2 || sig.Variadic():
		a.errorf(a.methodPos(spec, fn), "%s.%s: a handler of actor.%s takes exactly %s; the runtime sends it, so it cannot be part of a message",
			spec.name, fn.Name(), typ, want)
	case !isNamed(ps.At(1).Type(), actorPath, typ):
		a.errorf(ps.At(1).Pos(), "%s.%s: a handler of actor.%s takes it by value: %s",
			spec.name, fn.Name(), typ, want)
	case sig.Results().Len() != 0:
		a.errorf(a.methodPos(spec, fn), "%s.%s: a handler of actor.%s returns nothing: the runtime delivers it as a tell, never an ask",
			spec.name, fn.Name(), typ)
	default:
		return signal{name: fn.Name(), typ: typ, pos: a.methodPos(spec, fn)}, true
	}
	return signal{}, false
}

// sortSignals orders spec's signal handlers by runtime message and
// reports a runtime message handled twice.
func (a *analyzer) sortSignals(spec *actorSpec) {
	slices.SortFunc(spec.signals, func(x, y signal) int {
		return cmp.Or(cmp.Compare(x.typ, y.typ), cmp.Compare(x.pos, y.pos))
	})
	kept := spec.signals[:0]
	for _, s := range spec.signals {
		if n := len(kept); n > 0 && kept[n-1].typ == s.typ {
			a.errorf(s.pos, "%s.%s: actor.%s is already handled by %s.%s; keep one handler",
				spec.name, s.name, s.typ, spec.name, kept[n-1].name)
			continue
		}
		kept = append(kept, s)
	}
	spec.signals = kept
}
