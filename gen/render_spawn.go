package gen

import (
	"github.com/dave/jennifer/jen"
)

// parentParam returns the name of the type parameter of a spawn function
// and renders it: its parent is the system (a top-level actor) or a
// handler's context (a child). It is P, unless the actor's type is.
func (r *renderer) parentParam() (string, jen.Code) {
	name := "P"
	if r.spec.name == name {
		name = "Parent"
	}
	return name, jen.Id(name).Op("*").Qual(actorPath, "System").Op("|").Op("*").Qual(actorPath, "Context")
}

// spawnBody renders the body of a spawn function: a type switch on the
// parent that calls spawnSys with a *actor.System or spawnChild with a
// *actor.Context (each as p), and returns the typed ref.
func (r *renderer) spawnBody(spawnSys, spawnChild jen.Code) []jen.Code {
	n := r.n
	return []jen.Code{
		jen.Var().Id("ref").Id(n.ref),
		jen.Var().Err().Error(),
		jen.Switch(jen.Id("p").Op(":=").Any().Call(jen.Id("parent")).Assert(jen.Type())).Block(
			jen.Case(jen.Op("*").Qual(actorPath, "System")).Block(
				jen.Id("ref").Dot("sys").Op("=").Id("p"),
				jen.List(jen.Id("ref").Dot("ref"), jen.Err()).Op("=").Add(spawnSys),
			),
			jen.Case(jen.Op("*").Qual(actorPath, "Context")).Block(
				jen.Id("ref").Dot("sys").Op("=").Id("p").Dot("System").Call(),
				jen.List(jen.Id("ref").Dot("ref"), jen.Err()).Op("=").Add(spawnChild),
			),
		),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Id(n.ref).Values(), jen.Err())),
		jen.Return(jen.Id("ref"), jen.Nil()),
	}
}

// spawn renders the spawn function of a Go actor.
func (r *renderer) spawn() {
	s, n := r.spec, r.n
	call := jen.Id("p").Dot("Spawn").Call(jen.Lit(s.kind), jen.Id("id"), jen.Id(n.factory).Call(jen.Id("f")), jen.Id("opts").Op("..."))
	r.f.Add(doc("%s starts %s actor of kind %q named id under parent: a *actor.System for a top-level actor "+
		"(safe from any goroutine), or the *actor.Context of a handler for a child of that handler's actor, "+
		"supervised by it and stopped before it (call it then only on that actor's loop). "+
		"f makes a fresh %s at spawn and at every restart.", n.spawn, withArticle(s.name), s.kind, s.name))
	tp, constraint := r.parentParam()
	r.f.Func().Id(n.spawn).Types(constraint).
		Params(jen.Id("parent").Id(tp), jen.Id("id").String(), jen.Id("f").Func().Params().Op("*").Id(s.name),
			jen.Id("opts").Op("...").Qual(actorPath, "SpawnOption")).
		Params(jen.Id(n.ref), jen.Error()).Block(r.spawnBody(call, call)...)
}

// remoteKind renders, for a remote actor, the registration of its kind on
// a node and its spawn on another node with a typed ref back. They take
// the actor package's interfaces that remote.Node implements, so the
// generated file imports no more of remote than remote/wire.
func (r *renderer) remoteKind() {
	s, n := r.spec, r.n
	if !s.remote {
		return
	}
	r.f.Add(doc("%s lets other nodes spawn %s actors (kind %q) on this node with %s: reg is this node's "+
		"*remote.Node (an actor.KindRegistrar), and f makes a fresh %s at each spawn and restart. "+
		"Call it once per node, before other nodes spawn; a kind registered twice is an error.",
		n.regKind, s.name, s.kind, n.spawnOn, s.name))
	r.f.Func().Id(n.regKind).Params(jen.Id("reg").Qual(actorPath, "KindRegistrar"), jen.Id("f").Func().Params().Op("*").Id(s.name)).
		Error().Block(jen.Return(jen.Id("reg").Dot("RegisterKind").Call(jen.Lit(s.kind), jen.Id(n.factory).Call(jen.Id("f")))))

	r.f.Add(doc("%s starts %s actor named id on node, the node of that name, which registered the kind with %s, "+
		"and returns its typed ref, which sends through sys, this node's system. spawner is this node's "+
		"*remote.Node (an actor.RemoteSpawner); it waits for the other node's answer under ctx (the system's "+
		"ask timeout without a deadline). Call it from outside actors.", n.spawnOn, withArticle(s.name), n.regKind))
	r.f.Func().Id(n.spawnOn).Params(
		jen.Id("ctx").Qual("context", "Context"), jen.Id("sys").Op("*").Qual(actorPath, "System"),
		jen.Id("spawner").Qual(actorPath, "RemoteSpawner"), jen.List(jen.Id("node"), jen.Id("id")).String(),
	).Params(jen.Id(n.ref), jen.Error()).Block(
		jen.List(jen.Id("ref"), jen.Err()).Op(":=").Id("spawner").Dot("Spawn").Call(jen.Id("ctx"), jen.Id("node"), jen.Lit(s.kind), jen.Id("id")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Id(n.ref).Values(), jen.Err())),
		jen.Return(jen.Id(n.refOf).Call(jen.Id("sys"), jen.Id("ref")), jen.Nil()),
	)
}
