package gen

import (
	"fmt"
	"go/types"
	"strings"

	"github.com/dave/jennifer/jen"
)

// callPath is the import path of the neutral call by name, which every
// adapter with messages answers (JavaScript actors send it); it imports
// no JavaScript engine.
const callPath = "github.com/troupe-go/troupe/actor/call"

// callName is the name a call by name (call.Call's Method) gives message
// m: its method's, first letter (or leading run of capitals) lowered, as
// //troupe:js names handlers.
func callName(m message) string { return lowerFirst(m.name) }

// checkCallNames reports messages of spec whose call names coincide
// (URL and Url both answer "url"), which a call by name could not tell
// apart.
func checkCallNames(rep *reporter, spec actorSpec) {
	seen := map[string]string{}
	for _, m := range spec.msgs {
		name := callName(m)
		if other, ok := seen[name]; ok {
			rep.errorf(m.pos, "%s.%s: %s.%s answers calls by name %q too; rename one",
				spec.name, m.name, spec.name, other, name)
			continue
		}
		seen[name] = m.name
	}
}

// callByName renders the adapter's method answering a call.Call: the
// message method it names is called with the call's arguments decoded
// into its parameters.
func (r *renderer) callByName() {
	s := r.spec
	r.f.Add(doc("callByName answers a call by name (a call.Call, as JavaScript actors send): it calls the method "+
		"of %s whose name, first letter lowered, is m.Method, with m.Args decoded into its parameters by "+
		"call.Arg; arguments that do not fit fail the call with an error wrapping call.ErrArgument.", s.name))
	r.f.Func().Params(jen.Id("x").Op("*").Id(r.n.adapter)).Id("callByName").
		Params(jen.Id("c").Op("*").Qual(actorPath, "Context"), jen.Id("m").Qual(callPath, "Call")).
		Params(jen.Any(), jen.Error()).Block(
		jen.Switch(jen.Id("m").Dot("Method")).BlockFunc(func(g *jen.Group) {
			for _, m := range s.msgs {
				g.Case(jen.Lit(callName(m))).Block(r.callCase(m)...)
			}
		}),
		jen.Return(jen.Nil(), jen.Qual("fmt", "Errorf").Call(jen.Lit("%w: %T has no method answering calls by name %q"),
			jen.Qual(actorPath, "ErrUnhandled"), jen.Id("x").Dot("a"), jen.Id("m").Dot("Method"))),
	)
}

// callCase renders the statements decoding the arguments of m from call
// m (the generated local) and calling it.
func (r *renderer) callCase(m message) []jen.Code {
	errCheck := jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err()))
	fixed := len(m.params)
	if m.variadic {
		fixed--
	}
	out := []jen.Code{jen.If(jen.Err().Op(":=").Qual(callPath, "Arity").Call(jen.Id("m"), jen.Lit(fixed), jen.Lit(m.variadic)),
		jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err()))}
	args := []jen.Code{jen.Id("c")}
	for i, p := range m.params {
		local := jen.Id(fmt.Sprintf("arg%d", i))
		if m.variadic && i == fixed {
			elem := p.typ.(*types.Slice).Elem()
			out = append(out, jen.List(local.Clone(), jen.Err()).Op(":=").Qual(callPath, "Rest").Types(r.typ(elem)).
				Call(jen.Id("m"), jen.Lit(i), jen.Lit(p.name)), errCheck)
			args = append(args, local.Clone().Op("..."))
			continue
		}
		ctor, typedRef := r.typedRefOf(p.typ)
		want := r.typ(p.typ)
		if typedRef {
			want = jen.Qual(actorPath, "Ref")
		}
		out = append(out, jen.List(local.Clone(), jen.Err()).Op(":=").Qual(callPath, "Arg").Types(want).
			Call(jen.Id("m"), jen.Lit(i), jen.Lit(p.name)), errCheck)
		if typedRef {
			args = append(args, jen.Add(ctor).Call(jen.Id("c").Dot("System").Call(), local))
		} else {
			args = append(args, local)
		}
	}
	invoke := jen.Id("x").Dot("a").Dot(m.name).Call(args...)
	if m.reply != nil && m.result != resultPromise && isTypedRef(r.pkg, m.reply) {
		// A typed ref's fields are unexported: the caller (JavaScript)
		// could not see them, so the reply is its untyped ref.
		if m.result == resultValue {
			return append(out, jen.Return(invoke.Dot("Ref").Call(), jen.Nil()))
		}
		return append(out,
			jen.List(jen.Id("res0"), jen.Err()).Op(":=").Add(invoke), errCheck,
			jen.Return(jen.Id("res0").Dot("Ref").Call(), jen.Nil()))
	}
	switch m.result {
	case resultNone:
		return append(out, invoke, jen.Return(jen.Nil(), jen.Nil()))
	case resultValue, resultPromise:
		return append(out, jen.Return(invoke, jen.Nil()))
	case resultError:
		return append(out, jen.Return(jen.Nil(), invoke))
	default:
		return append(out, jen.Return(invoke))
	}
}

// typedRefOf returns the function that types an actor.Ref as t, when t
// is a typed ref (see isTypedRef) whose package declares one by
// troupegen's convention: XRefOf(*actor.System, actor.Ref) XRef, or t is
// a ref troupegen generates in this package (whose XRefOf is generated
// beside it).
func (r *renderer) typedRefOf(t types.Type) (jen.Code, bool) {
	if !isTypedRef(r.pkg, t) {
		return nil, false
	}
	obj := types.Unalias(t).(*types.Named).Obj()
	name := obj.Name() + "Of"
	if obj.Pkg() == r.pkg && strings.HasSuffix(obj.Name(), "Ref") && r.ownRefs[obj.Name()] {
		return jen.Id(name), true
	}
	fn, ok := obj.Pkg().Scope().Lookup(name).(*types.Func)
	if !ok || !isRefOfSig(fn.Type().(*types.Signature), t) {
		return nil, false
	}
	if obj.Pkg() == r.pkg {
		return jen.Id(name), true
	}
	return jen.Qual(obj.Pkg().Path(), name), true
}

// isRefOfSig reports whether sig is func(*actor.System, actor.Ref) t.
func isRefOfSig(sig *types.Signature, t types.Type) bool {
	ps, rs := sig.Params(), sig.Results()
	if ps.Len() != 2 || rs.Len() != 1 || !types.Identical(rs.At(0).Type(), t) {
		return false
	}
	p0, ok := ps.At(0).Type().(*types.Pointer)
	return ok && isNamed(p0.Elem(), actorPath, "System") && isNamed(ps.At(1).Type(), actorPath, "Ref")
}
