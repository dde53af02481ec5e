package gen

import (
	"go/types"

	"github.com/dave/jennifer/jen"
)

// guards renders the compile-time guards: a message method whose
// signature changed since generation breaks the build here.
func (r *renderer) guards() {
	if len(r.spec.msgs) == 0 && len(r.spec.signals) == 0 {
		return
	}
	r.f.Add(doc("Compile-time guards: if one fails to compile, a method of %s that Receive calls changed; run go generate.",
		r.spec.name))
	r.f.Var().DefsFunc(func(g *jen.Group) {
		for _, m := range r.spec.msgs {
			g.Id("_").Add(r.methodExprType(m)).Op("=").Parens(jen.Op("*").Id(r.spec.name)).Dot(m.name)
		}
		for _, s := range r.spec.signals {
			typ := jen.Func().Params(jen.Op("*").Id(r.spec.name), jen.Op("*").Qual(actorPath, "Context"), jen.Qual(actorPath, s.typ))
			g.Id("_").Add(typ).Op("=").Parens(jen.Op("*").Id(r.spec.name)).Dot(s.name)
		}
	})
}

// methodExprType renders the type of the method expression (*T).M.
func (r *renderer) methodExprType(m message) jen.Code {
	ps := []jen.Code{jen.Op("*").Id(r.spec.name), jen.Op("*").Qual(actorPath, "Context")}
	for i, p := range m.params {
		if m.variadic && i == len(m.params)-1 {
			ps = append(ps, jen.Op("...").Add(r.typ(p.typ.(*types.Slice).Elem())))
			continue
		}
		ps = append(ps, r.typ(p.typ))
	}
	var rs []jen.Code
	results := m.sig.Results()
	for i := range results.Len() {
		rs = append(rs, r.typ(results.At(i).Type()))
	}
	return jen.Func().Params(ps...).Params(rs...)
}

// messages renders a struct per message, holding its parameters.
func (r *renderer) messages() {
	for _, m := range r.spec.msgs {
		names := r.fieldNames(m)
		r.f.Commentf("%s is the message of [%s.%s].", m.typeName, r.spec.name, m.name)
		r.f.Type().Id(m.typeName).StructFunc(func(g *jen.Group) {
			for i, p := range m.params {
				g.Id(names[i]).Add(r.typ(p.typ))
			}
		})
		if m.boxed() {
			r.f.Add(doc("%s pools the boxes in which %s sends %s, so that a send allocates nothing of its own "+
				"(see actor.Boxes).", m.boxes, r.n.ref, withArticle(m.typeName)))
			r.f.Var().Id(m.boxes).Add(r.boxes(m, "Boxes"))
		}
	}
}

// boxes renders the type actor.<what>[M, *A] of the boxes of message m:
// what is Boxes (their pool) or Box (one of them, a pointer).
func (r *renderer) boxes(m message, what string) jen.Code {
	t := jen.Qual(actorPath, what).Types(jen.Id(m.typeName), jen.Op("*").Id(r.n.adapter))
	if what == "Box" {
		return jen.Op("*").Add(t)
	}
	return t
}

// adapter renders the type implementing actor.Actor for the struct, its
// Receive, the hooks it forwards and the factory wrapper.
func (r *renderer) adapter() {
	s, n := r.spec, r.n
	r.f.Add(doc("%s adapts *%s to actor.Actor: Receive calls the method a message stands for, "+
		"or the handler of a runtime message (actor.Terminated, actor.ReceiveTimeout), "+
		"and the lifecycle hooks of %s pass through.", n.adapter, s.name, s.name))
	r.f.Type().Id(n.adapter).Struct(jen.Id("a").Op("*").Id(s.name))
	r.f.Line()

	r.f.Comment("Receive implements actor.Actor.")
	r.f.Func().Params(jen.Id("x").Op("*").Id(n.adapter)).Id("Receive").
		Params(jen.Id("c").Op("*").Qual(actorPath, "Context"), jen.Id("msg").Any()).
		Params(jen.Any(), jen.Error()).BlockFunc(r.receiveBody)

	r.unhandled()
	if len(s.msgs) > 0 {
		r.callByName()
	}

	for _, h := range s.hooks {
		r.f.Commentf("%s implements actor.%sHook.", h, h)
		ps := []jen.Code{jen.Id("c").Op("*").Qual(actorPath, "Context")}
		args := []jen.Code{jen.Id("c")}
		if h == "Restarting" {
			ps = append(ps, jen.Id("reason").Error())
			args = append(args, jen.Id("reason"))
		}
		r.f.Func().Params(jen.Id("x").Op("*").Id(n.adapter)).Id(h).Params(ps...).
			Block(jen.Id("x").Dot("a").Dot(h).Call(args...))
	}

	r.connHooks()

	r.f.Add(doc("%s wraps f, a factory of %s, into an actor.Factory (nil for a nil f).", n.factory, s.name))
	r.f.Func().Id(n.factory).Params(jen.Id("f").Func().Params().Op("*").Id(s.name)).Qual(actorPath, "Factory").Block(
		jen.If(jen.Id("f").Op("==").Nil()).Block(jen.Return(jen.Nil())),
		jen.Return(jen.Func().Params().Qual(actorPath, "Actor").Block(
			jen.Return(jen.Op("&").Id(n.adapter).Values(jen.Id("a").Op(":").Id("f").Call())),
		)),
	)
}

// connHooks renders the adapter's connection hooks, which make it a
// netactor.ConnActor, and the exported factory of connection actors that
// netactor.Serve and netactor.SpawnDial take.
func (r *renderer) connHooks() {
	s, n := r.spec, r.n
	if len(s.conn) == 0 {
		return
	}
	for _, h := range s.conn {
		ps := []jen.Code{jen.Id("c").Op("*").Qual(actorPath, "Context"), jen.Id("conn").Op("*").Qual(netactorPath, "Conn")}
		args := []jen.Code{jen.Id("c"), jen.Id("conn")}
		switch h {
		case "Data":
			ps, args = append(ps, jen.Id("p").Index().Byte()), append(args, jen.Id("p"))
		case "Closed":
			ps, args = append(ps, jen.Err().Error()), append(args, jen.Err())
		}
		call := jen.Id("x").Dot("a").Dot(h).Call(args...)
		fn := r.f.Commentf("%s forwards netactor's %s hook.", h, h).Line().
			Func().Params(jen.Id("x").Op("*").Id(n.adapter)).Id(h).Params(ps...)
		if connHooks[h].result != "" {
			fn.Bool().Block(jen.Return(call))
		} else {
			fn.Block(call)
		}
	}
	r.f.Line()
	r.f.Add(doc("%s wraps f, a factory of %s, into the factory of connection actors that netactor.Serve and "+
		"netactor.SpawnDial take; a connection actor's typed ref is %s(sys, ref) (nil for a nil f).", n.conn, s.name, n.refOf))
	r.f.Func().Id(n.conn).Params(jen.Id("f").Func().Params().Op("*").Id(s.name)).
		Func().Params().Qual(netactorPath, "ConnActor").Block(
		jen.If(jen.Id("f").Op("==").Nil()).Block(jen.Return(jen.Nil())),
		jen.Return(jen.Func().Params().Qual(netactorPath, "ConnActor").Block(
			jen.Return(jen.Op("&").Id(n.adapter).Values(jen.Id("a").Op(":").Id("f").Call())),
		)),
	)
}

// unhandled renders the adapter's method for a message the actor has no
// method for.
func (r *renderer) unhandled() {
	r.f.Add(doc("unhandled reports msg, which %s has no method for, as an error wrapping actor.ErrUnhandled: "+
		"the runtime sends the message to dead letters with it, and an ask fails with it.", r.spec.name))
	r.f.Func().Params(jen.Id("x").Op("*").Id(r.n.adapter)).Id("unhandled").
		Params(jen.Id("msg").Any()).Error().Block(
		jen.Return(jen.Qual("fmt", "Errorf").Call(
			jen.Lit("%w: %T has no handler for message %T"), jen.Qual(actorPath, "ErrUnhandled"), jen.Id("x").Dot("a"), jen.Id("msg"))),
	)
}

// receiveBody renders the type switch of Receive.
func (r *renderer) receiveBody(g *jen.Group) {
	s := r.spec
	unhandled := jen.Return(jen.Nil(), jen.Id("x").Dot("unhandled").Call(jen.Id("msg")))
	if len(s.msgs) == 0 && len(s.signals) == 0 {
		g.Add(unhandled)
		return
	}
	// With messages, Receive answers calls by name too, and so uses m.
	usesM := len(s.signals) > 0 || len(s.msgs) > 0
	subject := jen.Id("msg").Assert(jen.Type())
	if usesM {
		subject = jen.Id("m").Op(":=").Add(subject)
	}
	g.Switch(subject).BlockFunc(func(g *jen.Group) {
		for _, m := range s.msgs {
			if m.boxed() { // as its ref sends it
				g.Case(r.boxes(m, "Box")).Block(r.dispatch(m, jen.Id("m").Dot("Msg"))...)
			}
			// As timers send it, or anyone with a value from XMessages.
			g.Case(jen.Id(m.typeName)).Block(r.dispatch(m, jen.Id("m"))...)
		}
		if len(s.msgs) > 0 {
			g.Case(jen.Qual(callPath, "Call")).Block(jen.Return(jen.Id("x").Dot("callByName").Call(jen.Id("c"), jen.Id("m"))))
		}
		for _, sig := range s.signals {
			g.Case(jen.Qual(actorPath, sig.typ)).Block(
				jen.Id("x").Dot("a").Dot(sig.name).Call(jen.Id("c"), jen.Id("m")),
				jen.Return(jen.Nil(), jen.Nil()),
			)
		}
	})
	g.Add(unhandled)
}

// dispatch renders the statements that call m's method with the fields
// of msg, its message struct, and return its outcome as Receive's.
func (r *renderer) dispatch(m message, msg *jen.Statement) []jen.Code {
	names := r.fieldNames(m)
	args := []jen.Code{jen.Id("c")}
	for i, name := range names {
		arg := msg.Clone().Dot(name)
		if m.variadic && i == len(names)-1 {
			arg.Op("...")
		}
		args = append(args, arg)
	}
	call := jen.Id("x").Dot("a").Dot(m.name).Call(args...)
	switch m.result {
	case resultNone:
		return []jen.Code{call, jen.Return(jen.Nil(), jen.Nil())}
	case resultValue, resultPromise:
		return []jen.Code{jen.Return(call, jen.Nil())}
	case resultError:
		return []jen.Code{
			jen.If(jen.Err().Op(":=").Add(call), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
			jen.Comment("struct{}{} and not nil: an ask of a method returning only an error wants a reply."),
			jen.Return(jen.Struct().Values(), jen.Nil()),
		}
	default:
		return []jen.Code{jen.Return(call)}
	}
}
