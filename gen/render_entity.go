package gen

import (
	"github.com/dave/jennifer/jen"
)

// shardingPath is the package of sharded entities, which the files of
// actors whose directive says sharded import.
const shardingPath = "github.com/troupe-go/troupe/sharding"

// entity renders, for a sharded actor, its registration as an entity kind
// on a cluster, the kind's typed handle, and the typed entity ref with one
// method per message, which sends through package sharding.
func (r *renderer) entity() {
	s, n := r.spec, r.n
	if !s.sharded {
		return
	}
	r.entityKind()
	r.f.Add(doc("%s is a typed ref to the %s entity of one id (kind %q) on a sharded cluster: its methods "+
		"send %s's messages to wherever the entity lives, activating it on the node that owns its shard "+
		"if it is not active. It is a small comparable value: store it, print it, use it from any goroutine. "+
		"Its untyped sharding.Ref travels in messages and is bound again with %s. The zero %s, or one whose "+
		"ref is unbound, fails with an error wrapping sharding.ErrUnbound.",
		n.entity, s.name, s.kind, s.name, n.entityOf, n.entity))
	r.f.Type().Id(n.entity).Struct(jen.Id("ref").Qual(shardingPath, "Ref"))
	r.f.Line()

	r.f.Add(doc("%s types ref, which must name an entity of kind %q, and binds it to the cluster of sys, "+
		"where the kind must be registered (see %s).", n.entityOf, s.kind, n.regEntities))
	ref := jen.Id("ref")
	r.f.Func().Id(n.entityOf).Params(jen.Id("sys").Op("*").Qual(actorPath, "System"), ref.Clone().Qual(shardingPath, "Ref")).
		Params(jen.Id(n.entity), jen.Error()).Block(
		jen.If(ref.Clone().Dot("Kind").Call().Op("!=").Lit(s.kind)).Block(
			jen.Return(jen.Id(n.entity).Values(), jen.Qual("fmt", "Errorf").Call(
				jen.Lit("%w: %s is no entity of kind "+quoted(s.kind)), jen.Qual(shardingPath, "ErrBadKind"), ref.Clone()))),
		jen.List(ref.Clone(), jen.Err()).Op(":=").Qual(shardingPath, "Bind").Call(jen.Id("sys"), ref.Clone()),
		jen.Return(jen.Id(n.entity).Values(jen.Id("ref").Op(":").Add(ref.Clone())), jen.Err()),
	)

	r.f.Comment("Ref returns the untyped entity ref.")
	r.f.Func().Params(jen.Id("r").Id(n.entity)).Id("Ref").Params().Qual(shardingPath, "Ref").
		Block(jen.Return(jen.Id("r").Dot("ref")))
	r.f.Comment("ID returns the entity's id.")
	r.f.Func().Params(jen.Id("r").Id(n.entity)).Id("ID").Params().String().
		Block(jen.Return(jen.Id("r").Dot("ref").Dot("ID").Call()))
	r.f.Add(doc(`String returns "entity:%s/<id>".`, s.kind))
	r.f.Func().Params(jen.Id("r").Id(n.entity)).Id("String").Params().String().
		Block(jen.Return(jen.Id("r").Dot("ref").Dot("String").Call()))

	for _, m := range s.msgs {
		if m.asks() {
			r.withLocals(m, func() { r.entityAsk(m) })
		} else {
			r.withLocals(m, func() { r.entityTell(m) })
		}
	}
}

// entityKind renders the kind's registration and its typed handle.
func (r *renderer) entityKind() {
	s, n := r.spec, r.n
	r.f.Add(doc("%s is the entity kind %q as registered on one node: Get hands out typed refs by id.", n.entities, s.kind))
	r.f.Type().Id(n.entities).Struct(jen.Id("kind").Op("*").Qual(shardingPath, "Kind"))
	r.f.Line()

	r.f.Add(doc("%s registers %s as the sharded entity kind %q on c's node, and %s's messages with the "+
		"node's wire registry (as %s does; call one of the two): f makes a fresh %s at each activation and "+
		"restart of an entity, whose id its handlers read as ctx.Self().ID(); a nil f makes this node a proxy "+
		"that only routes the kind's messages. Call it once on every node that sends to the kind or runs it, "+
		"with the same options (sharding.WithShards above all).",
		n.regEntities, s.name, s.kind, s.name, registerFunc(s), s.name))
	c := jen.Id("c")
	r.f.Func().Id(n.regEntities).Params(
		c.Clone().Op("*").Qual(shardingPath, "Cluster"), jen.Id("f").Func().Params().Op("*").Id(s.name),
		jen.Id("opts").Op("...").Qual(shardingPath, "KindOption"),
	).Params(jen.Id(n.entities), jen.Error()).Block(
		jen.If(jen.Err().Op(":=").Id(registerFunc(s)).Call(c.Clone().Dot("Registry").Call()), jen.Err().Op("!=").Nil()).
			Block(jen.Return(jen.Id(n.entities).Values(), jen.Err())),
		jen.List(jen.Id("k"), jen.Err()).Op(":=").Qual(shardingPath, "Register").Call(
			c.Clone(), jen.Lit(s.kind), jen.Id(r.n.factory).Call(jen.Id("f")), jen.Id("opts").Op("...")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Id(n.entities).Values(), jen.Err())),
		jen.Return(jen.Id(n.entities).Values(jen.Id("kind").Op(":").Id("k")), jen.Nil()),
	)

	r.f.Add(doc("Get returns the typed ref to the entity id. It sends nothing: the entity is activated by its first message."))
	r.f.Func().Params(jen.Id("k").Id(n.entities)).Id("Get").Params(jen.Id("id").String()).Id(n.entity).Block(
		jen.If(jen.Id("k").Dot("kind").Op("==").Nil()).Block(jen.Return(jen.Id(n.entity).Values())),
		jen.Return(jen.Id(n.entity).Values(jen.Id("ref").Op(":").Id("k").Dot("kind").Dot("Get").Call(jen.Id("id")))),
	)
	r.f.Comment("Kind returns the untyped kind, for its statistics and owners.")
	r.f.Func().Params(jen.Id("k").Id(n.entities)).Id("Kind").Params().Op("*").Qual(shardingPath, "Kind").
		Block(jen.Return(jen.Id("k").Dot("kind")))
}

// entityRecv renders the entity ref's receiver.
func (r *renderer) entityRecv() jen.Code { return jen.Id(r.l("r")).Id(r.n.entity) }

// entityTell renders the entity ref's method sending m without waiting.
func (r *renderer) entityTell(m message) {
	r.f.Add(doc("%s tells the entity to run [%s.%s] and returns at once, with the reason the message could not "+
		"be delivered when it is known at once (sharding.ErrUnbound, sharding.ErrBufferFull, a message the "+
		"wire cannot carry); later failures go to dead letters with their reason. Safe from any goroutine.",
		m.name, r.spec.name, m.name))
	r.f.Func().Params(r.entityRecv()).Id(m.name).Params(r.params(m)...).Error().Block(
		jen.Return(jen.Id(r.l("r")).Dot("ref").Dot("Tell").Call(r.msgValue(m))),
	)
}

// entityAsk renders the entity ref's blocking and asynchronous ask of m.
func (r *renderer) entityAsk(m message) {
	s := r.spec
	rv, ctx, err := r.l("r"), r.l("ctx"), r.l("err")
	what := "its result"
	if m.result == resultError {
		what = "its error"
	}
	r.f.Add(doc("%s asks the entity to run [%s.%s] and waits for %s, for callers outside actors: without a "+
		"deadline in ctx the system's ask timeout applies, and from a handler it fails at once with "+
		"actor.ErrWouldBlock (use %sAsync there).", m.name, s.name, m.name, what, m.name))
	ask := jen.Qual(shardingPath, "Ask").Types(r.replyType(m)).Call(jen.Id(ctx), jen.Id(rv).Dot("ref"), r.msgValue(m))
	params := append([]jen.Code{jen.Id(ctx).Qual("context", "Context")}, r.params(m)...)
	sig := jen.Func().Params(r.entityRecv()).Id(m.name).Params(params...)
	if m.result == resultError {
		r.f.Add(sig).Error().Block(
			jen.List(jen.Id("_"), jen.Id(err)).Op(":=").Add(ask),
			jen.Return(jen.Id(err)),
		)
	} else {
		r.f.Add(sig).Params(r.replyType(m), jen.Error()).Block(jen.Return(ask))
	}

	r.f.Add(doc("%sAsync asks the entity to run [%s.%s] from a handler, whose context is c: it never blocks, "+
		"and the promise settles on c's loop (rejected with actor.ErrTimeout after the system's ask timeout). "+
		"Call it only on c's loop.", m.name, s.name, m.name))
	params = append([]jen.Code{jen.Id(r.l("c")).Op("*").Qual(actorPath, "Context")}, r.params(m)...)
	r.f.Func().Params(r.entityRecv()).Id(m.name+"Async").Params(params...).
		Op("*").Qual(loopPath, "Promise").Types(r.replyType(m)).Block(
		jen.Return(jen.Qual(shardingPath, "AskAsync").Types(r.replyType(m)).
			Call(jen.Id(r.l("c")), jen.Id(rv).Dot("ref"), r.msgValue(m))),
	)
}

// quoted returns s in double quotes, for a format string's literal text.
func quoted(s string) string { return `"` + s + `"` }
