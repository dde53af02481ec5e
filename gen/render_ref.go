package gen

import (
	"github.com/dave/jennifer/jen"
)

// ref renders the typed ref, its constructor from an untyped ref and its
// message methods.
func (r *renderer) ref() {
	s, n := r.spec, r.n
	r.refBasics(doc("%s is a typed ref to a %s actor (kind %q): its methods send %s's messages. "+
		"Like actor.Ref it is a small comparable value, safe to copy and to use from any goroutine. "+
		"The zero %s names no actor; get one from %s, %s or %s.",
		n.ref, s.name, s.kind, s.name, n.ref, n.spawn, n.spawnChild, n.refOf),
		doc("%s types ref, which must name a %s actor of sys.", n.refOf, s.name))
	for _, m := range s.msgs {
		if m.asks() {
			r.ask(m)
		} else {
			r.tell(m)
		}
	}
}

// refBasics renders the typed ref's type with typeDoc, its constructor
// from an untyped ref with refOfDoc, and its built-in methods (Ref,
// String, Stop and Poison), which Go and JavaScript actors' refs share.
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

	r.f.Comment(`String returns the ref's address, "troupe://system/kind/id".`)
	r.f.Func().Params(r.recv()).Id("String").Params().String().
		Block(jen.Return(jen.Id("r").Dot("ref").Dot("String").Call()))

	r.f.Add(doc("Stop stops the actor now, as actor.System.Stop does: its children first, then it; " +
		"messages it has not handled yet go to dead letters and their asks fail with actor.ErrStopped. " +
		"It returns at once, before the actor has stopped (watch it for an actor.Terminated). " +
		"Safe from any goroutine, handlers included."))
	r.f.Func().Params(r.recv()).Id("Stop").Params().
		Block(jen.Id("r").Dot("sys").Dot("Stop").Call(jen.Id("r").Dot("ref")))

	r.f.Add(doc("Poison stops the actor after the messages already queued for it, as actor.System.Poison does; " +
		"messages sent after Poison go to dead letters. It returns at once, with actor.ErrNotFound " +
		"if no such actor lives. Safe from any goroutine, handlers included."))
	r.f.Func().Params(r.recv()).Id("Poison").Params().Error().
		Block(jen.Return(jen.Id("r").Dot("sys").Dot("Poison").Call(jen.Id("r").Dot("ref"))))
}

func (r *renderer) recv() jen.Code { return jen.Id("r").Id(r.n.ref) }

// tell renders the method sending m without waiting.
func (r *renderer) tell(m message) {
	r.f.Add(doc("%s tells the actor to run [%s.%s] and returns at once, with the reason the message "+
		"could not be delivered (actor.ErrNotFound, actor.ErrStopped, actor.ErrMailboxFull), if any. "+
		"Safe from any goroutine.", m.name, r.spec.name, m.name))
	r.f.Func().Params(r.recv()).Id(m.name).Params(r.params(m)...).Error().Block(
		jen.Return(jen.Id("r").Dot("sys").Dot("Tell").Call(jen.Id("r").Dot("ref"), r.msgValue(m))),
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
	ask := jen.Qual(actorPath, "Ask").Types(r.replyType(m)).
		Call(jen.Id("ctx"), jen.Id("r").Dot("sys"), jen.Id("r").Dot("ref"), r.msgValue(m))
	params := append([]jen.Code{jen.Id("ctx").Qual("context", "Context")}, r.params(m)...)
	sig := jen.Func().Params(r.recv()).Id(m.name).Params(params...)
	if errOnly {
		r.f.Add(sig).Error().Block(
			jen.List(jen.Id("_"), jen.Err()).Op(":=").Add(ask),
			jen.Return(jen.Err()),
		)
	} else {
		r.f.Add(sig).Params(r.replyType(m), jen.Error()).Block(jen.Return(ask))
	}

	r.f.Add(doc("%sAsync asks the actor to run [%s.%s] from a handler, whose context is c: "+
		"it never blocks, and the promise settles on c's loop (rejected with actor.ErrTimeout after the "+
		"system's ask timeout). Call it only on c's loop.", m.name, s.name, m.name))
	params = append([]jen.Code{jen.Id("c").Op("*").Qual(actorPath, "Context")}, r.params(m)...)
	r.f.Func().Params(r.recv()).Id(m.name+"Async").Params(params...).
		Op("*").Qual(loopPath, "Promise").Types(r.replyType(m)).Block(
		jen.Return(jen.Qual(actorPath, "AskAsync").Types(r.replyType(m)).
			Call(jen.Id("c"), jen.Id("r").Dot("ref"), r.msgValue(m))),
	)
}

// spawn renders the spawn functions.
func (r *renderer) spawn() {
	s, n := r.spec, r.n
	f := jen.Id("f").Func().Params().Op("*").Id(s.name)
	opts := jen.Id("opts").Op("...").Qual(actorPath, "SpawnOption")
	body := func(spawner jen.Code, sys jen.Code) []jen.Code {
		return []jen.Code{
			jen.List(jen.Id("ref"), jen.Err()).Op(":=").Add(spawner).Dot("Spawn").
				Call(jen.Lit(s.kind), jen.Id("id"), jen.Id(n.factory).Call(jen.Id("f")), jen.Id("opts").Op("...")),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Id(n.ref).Values(), jen.Err())),
			jen.Return(jen.Id(n.ref).Values(jen.Id("ref").Op(":").Id("ref"), jen.Id("sys").Op(":").Add(sys)), jen.Nil()),
		}
	}
	r.f.Add(doc("%s starts a top-level %s actor of kind %q named id in sys. "+
		"f makes a fresh %s at spawn and at every restart. Safe from any goroutine.", n.spawn, s.name, s.kind, s.name))
	r.f.Func().Id(n.spawn).Params(jen.Id("sys").Op("*").Qual(actorPath, "System"), jen.Id("id").String(), f, opts).
		Params(jen.Id(n.ref), jen.Error()).Block(body(jen.Id("sys"), jen.Id("sys"))...)

	r.f.Add(doc("%s starts a %s actor of kind %q named id as a child of the actor whose handler has c: "+
		"supervised by it and stopped before it. f makes a fresh %s at spawn and at every restart. "+
		"Call it only on c's loop.", n.spawnChild, s.name, s.kind, s.name))
	r.f.Func().Id(n.spawnChild).Params(jen.Id("c").Op("*").Qual(actorPath, "Context"), jen.Id("id").String(), f, opts).
		Params(jen.Id(n.ref), jen.Error()).Block(body(jen.Id("c"), jen.Id("c").Dot("System").Call())...)
}

// timerKinds are the typed timer methods generated per message: the
// suffix of their name, the actor.Timers method they call, and when they
// deliver.
var timerKinds = []struct{ suffix, start, when string }{
	{"After", "StartSingle", "once, after d (a single-shot timer)"},
	{"FixedDelay", "StartFixedDelay", "every d, measured from the end of the previous delivery's handling " +
		"(fixed delay: a slow handler delays the next delivery), until cancelled"},
	{"FixedRate", "StartFixedRate", "every d, measured from the previous delivery's deadline " +
		"(fixed rate: a slow handler does not shift the schedule), until cancelled"},
}

// timers renders the typed timers.
func (r *renderer) timers() {
	s, n := r.spec, r.n
	r.f.Add(doc("%s schedules %s's messages to the actor itself, by key, as actor.Timers does: "+
		"each message has a single-shot timer (After), a fixed-delay one (FixedDelay) and a fixed-rate one (FixedRate). "+
		"Starting a key replaces its timer, cancelling a key guarantees its message is not handled "+
		"afterwards, even if it was due already, and all timers are cancelled when the actor stops or restarts. "+
		"Use it only in the handlers of the %s actor it was made for.", n.timers, s.name, s.name))
	r.f.Type().Id(n.timers).Struct(jen.Id("t").Qual(actorPath, "Timers"))
	r.f.Line()

	r.f.Add(doc("%s returns the typed timers of the %s actor whose handler has c.", n.timersOf, s.name))
	r.f.Func().Id(n.timersOf).Params(jen.Id("c").Op("*").Qual(actorPath, "Context")).Id(n.timers).
		Block(jen.Return(jen.Id(n.timers).Values(jen.Id("t").Op(":").Id("c").Dot("Timers").Call())))

	recv := jen.Id("t").Id(n.timers)
	r.f.Add(doc("Cancel cancels the timer of key, if any: its message is not handled after Cancel returns."))
	r.f.Func().Params(recv).Id("Cancel").Params(jen.Id("key").Any()).
		Block(jen.Id("t").Dot("t").Dot("Cancel").Call(jen.Id("key")))

	r.f.Add(doc("CancelAll cancels every timer of the actor, typed or not."))
	r.f.Func().Params(recv).Id("CancelAll").Params().
		Block(jen.Id("t").Dot("t").Dot("CancelAll").Call())

	r.f.Add(doc("IsActive reports whether key has a live timer: a periodic one not cancelled, " +
		"or a single-shot one not yet delivered."))
	r.f.Func().Params(recv).Id("IsActive").Params(jen.Id("key").Any()).Bool().
		Block(jen.Return(jen.Id("t").Dot("t").Dot("IsActive").Call(jen.Id("key"))))

	for _, m := range s.msgs {
		for _, k := range timerKinds {
			r.timer(m, k.suffix, k.start, k.when)
		}
	}
}

// timer renders one timer method of m.
func (r *renderer) timer(m message, suffix, start, when string) {
	fails := "It fails with actor.ErrStopped once the actor is stopping."
	if start != "StartSingle" {
		fails = "It fails with actor.ErrStopped once the actor is stopping, and with an error if d is not positive."
	}
	r.f.Add(doc("%s%s delivers the message of [%s.%s] to the actor %s, under key, replacing key's timer. %s",
		m.name, suffix, r.spec.name, m.name, when, fails))
	params := append([]jen.Code{jen.Id("key").Any(), jen.Id("d").Qual("time", "Duration")}, r.params(m)...)
	r.f.Func().Params(jen.Id("t").Id(r.n.timers)).Id(m.name + suffix).Params(params...).Error().Block(
		jen.Return(jen.Id("t").Dot("t").Dot(start).Call(jen.Id("key"), jen.Id("d"), r.msgValue(m))),
	)
}
