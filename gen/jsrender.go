package gen

import (
	"fmt"
	"go/types"
	"maps"

	"github.com/dave/jennifer/jen"
)

// jsLocals are the identifiers the bodies of a JavaScript actor's ref
// declare, besides locals.
var jsLocals = []string{"args", "v"}

// renderJS returns the gofmt'ed generated file of the //troupe:js
// interface spec: its typed ref.
func renderJS(pkg *types.Package, spec jsSpec, imps importSet, reserved map[string]bool) ([]byte, error) {
	reserved = maps.Clone(reserved)
	for _, name := range jsLocals {
		reserved[name] = true
	}
	r := &renderer{pkg: pkg, spec: actorSpec{name: spec.name, kind: spec.kind}, n: namesOfJS(spec.name), reserved: reserved,
		f: newFile(pkg, imps)}
	r.jsGuards(spec)
	r.jsRef(spec)
	r.jsSpawn()
	return r.format()
}

// jsGuards renders the compile-time guards: the ref implements the
// interface when it can; otherwise each method's signature is pinned, so
// that a changed interface breaks the build until go generate runs.
func (r *renderer) jsGuards(spec jsSpec) {
	if spec.implementable() {
		r.f.Add(doc("Compile-time guard: if it fails to compile, %s changed; run go generate.", spec.name))
		r.f.Var().Id("_").Id(spec.name).Op("=").Id(r.n.ref).Values()
		return
	}
	r.f.Add(doc("Compile-time guards: if one fails to compile, a method of %s changed; run go generate. "+
		"(%s does not implement %s: a tell declared without its error result has one on the ref.)",
		spec.name, r.n.ref, spec.name))
	r.f.Var().DefsFunc(func(g *jen.Group) {
		for _, m := range spec.msgs {
			ps := []jen.Code{jen.Id(spec.name)}
			sig := m.sig
			for i := range sig.Params().Len() {
				t := sig.Params().At(i).Type()
				if sig.Variadic() && i == sig.Params().Len()-1 {
					ps = append(ps, jen.Op("...").Add(r.typ(t.(*types.Slice).Elem())))
					continue
				}
				ps = append(ps, r.typ(t))
			}
			var rs []jen.Code
			for i := range sig.Results().Len() {
				rs = append(rs, r.typ(sig.Results().At(i).Type()))
			}
			g.Id("_").Add(jen.Func().Params(ps...).Params(rs...)).Op("=").Id(spec.name).Dot(m.name)
		}
	})
}

// jsRef renders the typed ref of a JavaScript actor.
func (r *renderer) jsRef(spec jsSpec) {
	n := r.n
	implements := ""
	if spec.implementable() {
		implements = fmt.Sprintf(" %s implements %s.", n.ref, spec.name)
	}
	r.refBasics(doc("%s is a typed ref to a JavaScript actor (kind %q) whose handlers %s describes: "+
		"each method sends a jsactor.Call naming a handler the script exports.%s "+
		"Like actor.Ref it is a small comparable value, safe to copy and to use from any goroutine. "+
		"The zero %s names no actor: its methods fail with an error wrapping actor.ErrNotFound "+
		"(and Stop does nothing). Get one from %s or %s.",
		n.ref, spec.kind, spec.name, implements, n.ref, n.spawn, n.refOf),
		doc("%s types ref, which must name a JavaScript actor of sys whose script exports the handlers of %s.",
			n.refOf, spec.name))
	for _, m := range spec.msgs {
		if m.ask {
			r.jsAsk(spec, m)
		} else {
			r.jsTell(spec, m)
		}
	}
}

// jsArgs returns the statements that build the arguments of m's call
// (none when they fit one call expression) and the arguments themselves.
func (r *renderer) jsArgs(m jsMessage) (stmts []jen.Code, args []jen.Code) {
	names := r.paramNames(m.message)
	arg := func(i int, v jen.Code) jen.Code {
		if m.viaRef[i] {
			return jen.Add(v).Dot("Ref").Call()
		}
		return v
	}
	fixed := len(names)
	if m.variadic {
		fixed--
	}
	for i := range fixed {
		args = append(args, arg(i, jen.Id(names[i])))
	}
	if !m.variadic {
		return nil, args
	}
	last := names[len(names)-1]
	size := jen.Len(jen.Id(last))
	if fixed > 0 {
		size = jen.Lit(fixed).Op("+").Len(jen.Id(last))
	}
	stmts = []jen.Code{jen.Id("args").Op(":=").Make(jen.Index().Any(), jen.Lit(0), size)}
	if fixed > 0 {
		stmts = append(stmts, jen.Id("args").Op("=").Append(append([]jen.Code{jen.Id("args")}, args...)...))
	}
	stmts = append(stmts, jen.For(jen.List(jen.Id("_"), jen.Id("v")).Op(":=").Range().Id(last)).Block(
		jen.Id("args").Op("=").Append(jen.Id("args"), arg(len(names)-1, jen.Id("v"))),
	))
	return stmts, []jen.Code{jen.Id("args").Op("...")}
}

// jsTell renders the method telling m.
func (r *renderer) jsTell(spec jsSpec, m jsMessage) {
	r.f.Add(doc("%s tells the actor to run its JavaScript handler %s (see [%s.%s]) and returns at once, "+
		"with the reason the message could not be delivered (actor.ErrNotFound, actor.ErrStopped, "+
		"actor.ErrMailboxFull, or jsactor.ErrCannotCross for an argument JavaScript cannot hold), if any. "+
		"Safe from any goroutine.", m.name, m.handler, spec.name, m.name))
	stmts, args := r.jsArgs(m)
	call := jen.Qual(jsactorPath, "Tell").Call(append([]jen.Code{jen.Id("r").Dot("sys"), jen.Id("r").Dot("ref"), jen.Lit(m.handler)}, args...)...)
	r.f.Func().Params(r.recv()).Id(m.name).Params(r.params(m.message)...).Error().
		Block(append([]jen.Code{r.checked(jen.Return(jen.Err()))}, append(stmts, jen.Return(call))...)...)
}

// jsAsk renders the blocking and the asynchronous ask of m.
func (r *renderer) jsAsk(spec jsSpec, m jsMessage) {
	errOnly := m.result == resultError
	what := "the value the handler returns (or its promise fulfils with), decoded with jsactor.Decode"
	if errOnly {
		what = "the handler to finish (its promise, if it returns one, to settle), ignoring the value it returns"
	}
	r.f.Add(doc("%s asks the actor to run its JavaScript handler %s (see [%s.%s]), for callers outside actors, "+
		"and waits for %s. Without a deadline in ctx the system's ask timeout applies; "+
		"from a handler it fails at once with actor.ErrWouldBlock (use %sAsync there). "+
		"A handler that throws or rejects fails the ask with a *jsactor.Error.",
		m.name, m.handler, spec.name, m.name, what, m.name))
	stmts, args := r.jsArgs(m)
	callArgs := func(first ...jen.Code) []jen.Code {
		return append(append(first, jen.Id("r").Dot("ref"), jen.Lit(m.handler)), args...)
	}
	var reply jen.Code = jen.Any()
	if !errOnly {
		reply = r.typ(m.reply)
	}
	ask := jen.Qual(jsactorPath, "Ask").Types(reply).Call(callArgs(jen.Id("ctx"), jen.Id("r").Dot("sys"))...)
	params := append([]jen.Code{jen.Id("ctx").Qual("context", "Context")}, r.params(m.message)...)
	sig := jen.Func().Params(r.recv()).Id(m.name).Params(params...)
	if errOnly {
		r.f.Add(sig).Error().Block(append([]jen.Code{r.checked(jen.Return(jen.Err()))}, append(stmts,
			jen.List(jen.Id("_"), jen.Err()).Op(":=").Add(ask),
			jen.Return(jen.Err()))...)...)
	} else {
		r.f.Add(sig).Params(r.typ(m.reply), jen.Error()).
			Block(append([]jen.Code{r.checkedAsk(r.typ(m.reply))}, append(stmts, jen.Return(ask))...)...)
	}

	r.f.Add(doc("%sAsync asks the actor to run its JavaScript handler %s from a Go actor's handler, whose "+
		"context is c: it never blocks, and the promise settles on c's loop (rejected with actor.ErrTimeout "+
		"after the system's ask timeout). Call it only on c's loop.", m.name, m.handler))
	params = append([]jen.Code{jen.Id("c").Op("*").Qual(actorPath, "Context")}, r.params(m.message)...)
	async := jen.Qual(jsactorPath, "AskAsync").Types(reply).Call(callArgs(jen.Id("c"))...)
	if errOnly {
		// The reply is dropped, so that any value the handler returns
		// fulfils the promise.
		async = jen.Qual(loopPath, "Then").Call(async,
			jen.Func().Params(jen.Any()).Params(jen.Struct(), jen.Error()).Block(jen.Return(jen.Struct().Values(), jen.Nil())))
		reply = jen.Struct()
	}
	r.f.Func().Params(r.recv()).Id(m.name+"Async").Params(params...).
		Op("*").Qual(loopPath, "Promise").Types(reply).
		Block(append([]jen.Code{r.checkedAsync(reply)}, append(stmts, jen.Return(async))...)...)
}

// jsSpawn renders the spawn function.
func (r *renderer) jsSpawn() {
	s, n := r.spec, r.n
	call := func(spawn string) jen.Code {
		return jen.Qual(jsactorPath, spawn).Call(jen.Id("p"), jen.Lit(s.kind), jen.Id("id"), jen.Id("script"), jen.Id("opts").Op("..."))
	}
	r.f.Add(doc("%s starts a JavaScript actor of kind %q named id, running script, under parent: "+
		"a *actor.System for a top-level actor, as jsactor.Spawn does (safe from any goroutine), "+
		"or the *actor.Context of a handler for a child of that handler's actor, as jsactor.SpawnChild does: "+
		"supervised by it and stopped before it (call it then only on that actor's loop). "+
		"opts configure it (jsactor.WithSpawnOptions passes actor spawn options); "+
		"script must export the handlers of %s.", n.spawn, s.kind, s.name))
	tp, constraint := r.parentParam()
	r.f.Func().Id(n.spawn).Types(constraint).
		Params(jen.Id("parent").Id(tp), jen.Id("id").String(), jen.Id("script").Op("*").Qual(jsactorPath, "Script"),
			jen.Id("opts").Op("...").Qual(jsactorPath, "Option")).
		Params(jen.Id(n.ref), jen.Error()).Block(r.spawnBody(call("Spawn"), call("SpawnChild"))...)
}
