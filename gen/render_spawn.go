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
