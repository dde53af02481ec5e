package gen

import (
	"github.com/dave/jennifer/jen"
)

// ref renders the typed ref, its constructor from an untyped ref and its
// message methods.
func (r *renderer) ref() {
	s, n := r.spec, r.n
	r.refBasics(doc("%s is a typed ref to %s actor (kind %q): its methods send %s's messages. "+
		"Like actor.Ref it is a small comparable value, safe to copy and to use from any goroutine. "+
		"The zero %s names no actor: its methods fail with an error wrapping actor.ErrNotFound "+
		"(and Stop does nothing). Get one from %s or %s.",
		n.ref, withArticle(s.name), s.kind, s.name, n.ref, n.spawn, n.refOf),
		doc("%s types ref, which must name %s actor of sys.", n.refOf, withArticle(s.name)))
	for _, m := range s.msgs {
		if m.asks() {
			r.withLocals(m, func() { r.ask(m) })
		} else {
			r.withLocals(m, func() { r.tell(m) })
		}
	}
}

// refBasics renders the typed ref's type with typeDoc, its constructor
// from an untyped ref with refOfDoc, and its built-in methods (Ref,
// String, Stop and Poison) and the check of a ref that names no actor,
// which Go and JavaScript actors' refs share.
func (r *renderer) refBasics(typeDoc, refOfDoc jen.Code) {
	n := r.n
	r.f.Add(typeDoc)
	r.f.Type().Id(n.ref).Struct(
		jen.Id("ref").Qual(actorPath, "Ref"),
		jen.Id("sys").Op("*").Qual(actorPath, "System"),
	)
	r.f.Line()

	r.f.Add(refOfDoc)
	r.f.Func().Id(n.refOf).Params(jen.Id("sys").Op("*").Qual(actorPath, "System"), jen.Id("ref").Qual(actorPath, "Ref")).
		Id(n.ref).Block(jen.Return(jen.Id(n.ref).Values(jen.Id("ref").Op(":").Id("ref"), jen.Id("sys").Op(":").Id("sys"))))

	r.f.Comment("Ref returns the untyped ref.")
	r.f.Func().Params(r.recv()).Id("Ref").Params().Qual(actorPath, "Ref").
		Block(jen.Return(jen.Id("r").Dot("ref")))

	r.f.Add(doc(`String returns the ref's address, "troupe://system/path", the path being kind/id pairs from the top-level actor down to this one; actor.ParseRef reads it back.`))
	r.f.Func().Params(r.recv()).Id("String").Params().String().
		Block(jen.Return(jen.Id("r").Dot("ref").Dot("String").Call()))

	r.f.Add(doc("Stop stops the actor now, as actor.System.Stop does: its children first, then it; " +
		"messages it has not handled yet go to dead letters and their asks fail with actor.ErrStopped. " +
		"It returns at once, before the actor has stopped (watch it for an actor.Terminated). " +
		"Safe from any goroutine, handlers included. On a ref that names no actor it does nothing."))
	r.f.Func().Params(r.recv()).Id("Stop").Params().Block(
		jen.If(jen.Id("r").Dot("check").Call().Op("==").Nil()).Block(
			jen.Id("r").Dot("sys").Dot("Stop").Call(jen.Id("r").Dot("ref"))),
	)

	r.f.Add(doc("Poison stops the actor after the messages already queued for it, as actor.System.Poison does; " +
		"messages sent after Poison go to dead letters. It returns at once, with actor.ErrNotFound " +
		"if no such actor lives. Safe from any goroutine, handlers included."))
	r.f.Func().Params(r.recv()).Id("Poison").Params().Error().Block(
		r.checked(jen.Return(jen.Err())),
		jen.Return(jen.Id("r").Dot("sys").Dot("Poison").Call(jen.Id("r").Dot("ref"))),
	)

	r.f.Add(doc("check returns an error wrapping actor.ErrNotFound if r names no actor (it is the zero %s, "+
		"or was made without a system), and nil otherwise.", n.ref))
	r.f.Func().Params(r.recv()).Id("check").Params().Error().Block(
		jen.If(jen.Id("r").Dot("sys").Op("==").Nil().Op("||").Id("r").Dot("ref").Dot("IsZero").Call()).Block(
			jen.Return(jen.Qual("fmt", "Errorf").Call(jen.Lit("%w: the zero "+n.ref+" names no actor"), jen.Qual(actorPath, "ErrNotFound"))),
		),
		jen.Return(jen.Nil()),
	)
}

// checked renders the guard that opens the methods of the ref: if r
// names no actor, run onErr (which sees the error as err).
func (r *renderer) checked(onErr ...jen.Code) jen.Code {
	return jen.If(jen.Id(r.l("err")).Op(":=").Id(r.l("r")).Dot("check").Call(), jen.Id(r.l("err")).Op("!=").Nil()).Block(onErr...)
}

// checkedAsk is checked for a blocking ask replying an R (reply): it
// returns R's zero value and the error.
func (r *renderer) checkedAsk(reply jen.Code) jen.Code {
	return r.checked(
		jen.Var().Id(r.l("zero")).Add(reply),
		jen.Return(jen.Id(r.l("zero")), jen.Id(r.l("err"))),
	)
}

// checkedAsync is checked for an asynchronous ask replying an R (reply):
// it returns a promise on c's loop rejected with the error.
func (r *renderer) checkedAsync(reply jen.Code) jen.Code {
	return r.checked(jen.Return(jen.Qual(loopPath, "Rejected").Types(reply).Call(jen.Id(r.l("c")).Dot("Loop").Call(), jen.Id(r.l("err")))))
}

func (r *renderer) recv() jen.Code { return jen.Id(r.l("r")).Id(r.n.ref) }

// tell renders the method sending m without waiting.
func (r *renderer) tell(m message) {
	r.f.Add(doc("%s tells the actor to run [%s.%s] and returns at once, with the reason the message "+
		"could not be delivered (actor.ErrNotFound, actor.ErrStopped, actor.ErrMailboxFull), if any. "+
		"Safe from any goroutine.", m.name, r.spec.name, m.name))
	rv := r.l("r")
	r.f.Func().Params(r.recv()).Id(m.name).Params(r.params(m)...).Error().Block(
		r.checked(jen.Return(jen.Id(r.l("err")))),
		jen.Return(jen.Id(rv).Dot("sys").Dot("Tell").Call(jen.Id(rv).Dot("ref"), r.sentValue(m))),
	)
}

// ask renders the blocking and the asynchronous ask of m.
func (r *renderer) ask(m message) {
	s := r.spec
	errOnly := m.result == resultError
	what := "its result"
	if errOnly {
		what = "its error"
	}
	r.f.Add(doc("%s asks the actor to run [%s.%s] and waits for %s, for callers outside actors: "+
		"without a deadline in ctx the system's ask timeout applies, and from a handler it fails at once "+
		"with actor.ErrWouldBlock (use %sAsync there).", m.name, s.name, m.name, what, m.name))
	rv, ctx, err := r.l("r"), r.l("ctx"), r.l("err")
	ask := jen.Qual(actorPath, "Ask").Types(r.replyType(m)).
		Call(jen.Id(ctx), jen.Id(rv).Dot("sys"), jen.Id(rv).Dot("ref"), r.sentValue(m))
	params := append([]jen.Code{jen.Id(ctx).Qual("context", "Context")}, r.params(m)...)
	sig := jen.Func().Params(r.recv()).Id(m.name).Params(params...)
	if errOnly {
		r.f.Add(sig).Error().Block(
			r.checked(jen.Return(jen.Id(err))),
			jen.List(jen.Id("_"), jen.Id(err)).Op(":=").Add(ask),
			jen.Return(jen.Id(err)),
		)
	} else {
		r.f.Add(sig).Params(r.replyType(m), jen.Error()).Block(r.checkedAsk(r.replyType(m)), jen.Return(ask))
	}

	r.f.Add(doc("%sAsync asks the actor to run [%s.%s] from a handler, whose context is c: "+
		"it never blocks, and the promise settles on c's loop (rejected with actor.ErrTimeout after the "+
		"system's ask timeout). Call it only on c's loop.", m.name, s.name, m.name))
	params = append([]jen.Code{jen.Id(r.l("c")).Op("*").Qual(actorPath, "Context")}, r.params(m)...)
	r.f.Func().Params(r.recv()).Id(m.name+"Async").Params(params...).
		Op("*").Qual(loopPath, "Promise").Types(r.replyType(m)).Block(
		r.checkedAsync(r.replyType(m)),
		jen.Return(jen.Qual(actorPath, "AskAsync").Types(r.replyType(m)).
			Call(jen.Id(r.l("c")), jen.Id(rv).Dot("ref"), r.sentValue(m))),
	)
}
