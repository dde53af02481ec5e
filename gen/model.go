package gen

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"
)

// Import paths of the runtime the generated code targets.
const (
	actorPath    = "github.com/troupe-go/troupe/actor"
	loopPath     = "github.com/troupe-go/troupe/loop"
	netactorPath = "github.com/troupe-go/troupe/netactor"
)

// resultKind is the shape of a message method's results.
type resultKind int

const (
	resultNone       resultKind = iota // no results: a tell
	resultValue                        // R
	resultError                        // error
	resultValueError                   // (R, error)
	resultPromise                      // *loop.Promise[R]
)

// param is a message parameter (after the *actor.Context).
type param struct {
	name string     // as declared; "" when blank or unnamed
	typ  types.Type // for a variadic parameter, its slice type
}

// message is a message method of an actor.
type message struct {
	name     string
	typeName string // of its generated struct; see nameUnexported
	boxes    string // of the pool of its boxes, for a boxed message; see nameUnexported
	pos      token.Pos
	sig      *types.Signature
	params   []param
	variadic bool
	result   resultKind
	reply    types.Type // R, for resultValue, resultValueError and resultPromise
}

// asks reports whether the message has results, and so an ask.
func (m *message) asks() bool { return m.result != resultNone }

// boxed reports whether the ref sends the message in an actor.Box: unless
// its struct fits an interface value as it is (no fields, or a single
// pointer-shaped one), making it an any would allocate on every send.
func (m *message) boxed() bool {
	switch {
	case len(m.params) == 0:
		return false
	case len(m.params) > 1 || m.variadic:
		return true
	}
	switch t := m.params[0].typ.Underlying().(type) {
	case *types.Pointer, *types.Map, *types.Chan, *types.Signature:
		return false
	case *types.Basic:
		return t.Kind() != types.UnsafePointer
	}
	return true
}

// hasTells reports whether spec has a message without results: a tell,
// which typed timers can deliver.
func (spec *actorSpec) hasTells() bool {
	return slices.ContainsFunc(spec.msgs, func(m message) bool { return !m.asks() })
}

// crossesNodes reports whether spec's messages cross nodes, so that it
// gets binary codecs: its directive says remote or sharded.
func (spec *actorSpec) crossesNodes() bool { return spec.remote || spec.sharded }

// actorSpec is an annotated struct and its messages.
type actorSpec struct {
	name    string
	pos     token.Pos
	obj     *types.TypeName
	kind    string
	hooks   []string // lifecycle hooks it implements, sorted
	conn    []string // connection hooks it implements, sorted; see connHooks
	msgs    []message
	signals []signal // sorted by runtime message type
	remote  bool     // the directive says remote: generate codecs
	sharded bool     // the directive says sharded: entity refs, and codecs
	wire    *wirePlan
	n       names // the generated names; see nameUnexported
}

// hookSig is the signature of a hook: the parameters after the
// *actor.Context and the result ("" for none), as type strings.
type hookSig struct {
	params []string
	result string
}

// hookParams lists the lifecycle hooks of package actor by method name.
var hookParams = map[string]hookSig{
	"Restarting": {params: []string{"error"}},
	"Started":    {},
	"Stopped":    {},
	"Stopping":   {},
}

// connType is the connection type the connection hooks get.
const connType = "*" + netactorPath + ".Conn"

// connHooks lists the hooks of netactor.ConnActor and its optional hook
// interfaces. A method with one of these names and exactly its signature is
// forwarded by the adapter, so the actor can serve a connection; a method
// of the same name with another signature is an ordinary message (these
// names are common words, unlike actor's lifecycle hooks).
var connHooks = map[string]hookSig{
	"Closed":     {params: []string{connType, "error"}},
	"Data":       {params: []string{connType, "[]byte"}},
	"Drained":    {params: []string{connType}},
	"Opened":     {params: []string{connType}},
	"PeerClosed": {params: []string{connType}, result: "bool"},
}

// isConnHook reports whether fn has the signature of the connection hook
// of its name.
func isConnHook(fn *types.Func) bool { return hasHookSig(fn, connHooks) }

// analyzer turns annotated type specs into actor specs, reporting what it
// cannot generate code for.
type analyzer struct {
	*reporter
	pkg      *types.Package
	info     *types.Info
	decls    map[*types.Func]*ast.FuncType // of methods and interface methods
	typeErrs Problems                      // type errors outside generated files
	lenient  bool                          // leave out messages whose signature does not type-check
	// sawInvalid records a message signature that did not type-check.
	sawInvalid bool
}

// actor analyzes one annotated spec; ok is false when it has problems.
func (a *analyzer) actor(an annotated) (actorSpec, bool) {
	ts := an.spec
	obj, _ := a.info.Defs[ts.Name].(*types.TypeName)
	if obj == nil {
		return actorSpec{}, false // redeclared: the type checker says so
	}
	switch {
	case ts.Name.Name == "_":
		a.errorf(ts.Name.Pos(), "//troupe:actor on a blank type name")
		return actorSpec{}, false
	case ts.TypeParams != nil:
		a.errorf(ts.Name.Pos(), "actor %s: generic actor structs are not supported", obj.Name())
		return actorSpec{}, false
	case ts.Assign.IsValid():
		a.errorf(ts.Name.Pos(), "actor %s: //troupe:actor on an alias; annotate the struct type itself", obj.Name())
		return actorSpec{}, false
	}
	named, _ := obj.Type().(*types.Named)
	if _, isStruct := ts.Type.(*ast.StructType); !isStruct || named == nil {
		hint := ""
		if _, isIface := ts.Type.(*ast.InterfaceType); isIface {
			hint = " (a JavaScript actor's interface takes //troupe:js)"
		}
		a.errorf(ts.Name.Pos(), "//troupe:actor on %s, which is not a struct type%s", obj.Name(), hint)
		return actorSpec{}, false
	}
	spec := actorSpec{name: obj.Name(), pos: obj.Pos(), obj: obj, kind: an.dir.kind, remote: an.dir.remote, sharded: an.dir.sharded, n: namesOf(obj.Name())}
	if spec.kind == "" {
		spec.kind = spec.name
	}
	before := len(a.probs)
	spec.hooks = a.implemented(named, hookParams)
	spec.conn = a.implemented(named, connHooks)
	if len(spec.conn) > 0 && !slices.Contains(spec.conn, "Data") {
		a.errorf(ts.Name.Pos(), "actor %s: connection hooks (%s) without a Data hook: a connection actor needs "+
			"func (*%s) Data(*actor.Context, *netactor.Conn, []byte)", obj.Name(), strings.Join(spec.conn, ", "), obj.Name())
	}
	if spec.sharded && len(spec.conn) > 0 {
		a.errorf(ts.Name.Pos(), "actor %s: a connection actor cannot be sharded: its connection lives on one node, "+
			"while an entity goes wherever its shard is owned", obj.Name())
	}
	// The method set of *T: declared methods and those promoted from
	// embedded fields, which Go makes methods of T, and so messages.
	mset := types.NewMethodSet(types.NewPointer(named))
	for i := range mset.Len() {
		sel := mset.At(i)
		a.method(&spec, sel.Obj().(*types.Func), len(sel.Index()) > 1)
	}
	slices.SortFunc(spec.msgs, func(x, y message) int { return strings.Compare(x.name, y.name) })
	a.sortSignals(&spec)
	return spec, len(a.probs) == before
}

// implemented returns the hooks of table that *T implements, declared or
// promoted, sorted.
func (a *analyzer) implemented(named *types.Named, table map[string]hookSig) []string {
	var hooks []string
	for name := range table {
		obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(named), false, a.pkg, name)
		if fn, ok := obj.(*types.Func); ok && hasHookSig(fn, table) {
			hooks = append(hooks, name)
		}
	}
	slices.Sort(hooks)
	return hooks
}

// isHook reports whether fn has the signature of the lifecycle hook of
// its name.
func isHook(fn *types.Func) bool { return hasHookSig(fn, hookParams) }

// hasHookSig reports whether fn has the signature table gives its name.
func hasHookSig(fn *types.Func, table map[string]hookSig) bool {
	want, ok := table[fn.Name()]
	sig := fn.Type().(*types.Signature)
	if !ok || sig.Variadic() || sig.Params().Len() != len(want.params)+1 || !isContextPtr(sig.Params().At(0).Type()) {
		return false
	}
	switch {
	case want.result == "" && sig.Results().Len() != 0,
		want.result != "" && (sig.Results().Len() != 1 || types.TypeString(sig.Results().At(0).Type(), nil) != want.result):
		return false
	}
	for i, w := range want.params {
		if types.TypeString(sig.Params().At(i+1).Type(), nil) != w {
			return false
		}
	}
	return true
}

// method sorts method fn of actor spec, declared on it or promoted from
// an embedded field: a message or a handler of a runtime message is added
// to spec; anything else is left out, and problems are reported.
func (a *analyzer) method(spec *actorSpec, fn *types.Func, promoted bool) {
	if !fn.Exported() {
		return
	}
	ps := fn.Type().(*types.Signature).Params()
	if ps.Len() == 0 || !isContextPtr(ps.At(0).Type()) {
		a.misplacedContext(*spec, fn, promoted)
		return
	}
	if isConnHook(fn) {
		return // forwarded by the adapter, not a message
	}
	if _, isHookName := hookParams[fn.Name()]; isHookName {
		if !isHook(fn) {
			a.errorf(a.methodPos(*spec, fn), "%s.%s: a method named like a lifecycle hook must have the hook's signature (see actor.%sHook)",
				spec.name, fn.Name(), fn.Name())
		}
		return
	}
	if a.invalid(spec.name, fn) || !a.pointerReceiver(*spec, fn) {
		return
	}
	if typ := signalIn(fn.Type().(*types.Signature)); typ != "" {
		if s, ok := a.signal(*spec, fn, typ); ok {
			spec.signals = append(spec.signals, s)
		}
		return
	}
	if m, ok := a.message(*spec, fn); ok {
		spec.msgs = append(spec.msgs, m)
	}
}

// methodPos returns where to report a problem with method fn of actor
// spec: at fn, or at the actor when fn is promoted from another package.
func (a *analyzer) methodPos(spec actorSpec, fn *types.Func) token.Pos {
	if fn.Pkg() != a.pkg {
		return spec.pos
	}
	return fn.Pos()
}

// pointerReceiver reports whether message method fn has a pointer
// receiver (or is an interface's), and reports it otherwise: on a value
// receiver a message would change a copy of the actor, and its changes
// to the actor's state would be lost without a word.
func (a *analyzer) pointerReceiver(spec actorSpec, fn *types.Func) bool {
	recv := fn.Type().(*types.Signature).Recv().Type()
	if _, isPtr := types.Unalias(recv).(*types.Pointer); isPtr || types.IsInterface(recv) {
		return true
	}
	a.errorf(a.methodPos(spec, fn), "%s.%s: a message method needs a pointer receiver, func (*%s) %s: on a value receiver it would "+
		"change a copy of the actor and its changes would be lost", spec.name, fn.Name(), a.typeString(recv), fn.Name())
	return false
}

// message analyzes method fn of actor spec, a message; ok is false when
// it has problems (which it reports).
func (a *analyzer) message(spec actorSpec, fn *types.Func) (message, bool) {
	sig := fn.Type().(*types.Signature)
	ps := sig.Params()
	m := message{name: fn.Name(), typeName: msgType(spec.name, fn.Name()), pos: a.methodPos(spec, fn), sig: sig, variadic: sig.Variadic()}
	ok := true
	for i := 1; i < ps.Len(); i++ {
		p := ps.At(i)
		name := p.Name()
		if name == "_" {
			name = ""
		}
		m.params = append(m.params, param{name: name, typ: p.Type()})
		ok = a.checkType(spec, fn, p.Pos(), "parameter "+orUnnamed(p.Name()), p.Type()) && ok
	}
	return m, a.results(spec, fn, &m) && ok
}

func orUnnamed(name string) string {
	if name == "" || name == "_" {
		return "(unnamed)"
	}
	return name
}

// misplacedContext reports an exported method that is no message, as its
// first parameter is not an *actor.Context: an error if it takes an actor
// context anywhere else (it was meant to be a message), and otherwise a
// warning, whether it takes a context.Context first or no context at all,
// for a method declared on the actor itself (not promoted from a field,
// whose type may well have such methods).
func (a *analyzer) misplacedContext(spec actorSpec, fn *types.Func, promoted bool) {
	ps := fn.Type().(*types.Signature).Params()
	for i := range ps.Len() {
		t := ps.At(i).Type()
		switch {
		case i == 0 && isContextNamed(t):
			a.errorf(a.methodPos(spec, fn), "%s.%s: the first parameter of a message method must be *actor.Context, not actor.Context",
				spec.name, fn.Name())
			return
		case i > 0 && isContextPtr(t):
			a.errorf(a.methodPos(spec, fn), "%s.%s: *actor.Context must be the first parameter of a message method",
				spec.name, fn.Name())
			return
		}
	}
	if promoted {
		return // an embedded type's own API: its author decides what it exports
	}
	first := "it takes no *actor.Context first"
	if ps.Len() > 0 && isStdContext(ps.At(0).Type()) {
		first = "its first parameter is a context.Context, not an *actor.Context (which is a context.Context)"
	}
	a.warnf(fn.Pos(), "%s.%s is exported but is no message, as %s: %s has no %s; take *actor.Context first to make it "+
		"a message, or unexport it", spec.name, fn.Name(), first, spec.n.ref, fn.Name())
}

// invalid reports whether fn's signature holds an invalid type, and
// reports the type errors behind it.
func (a *analyzer) invalid(typeName string, fn *types.Func) bool {
	if !hasInvalid(fn.Type()) {
		return false
	}
	a.sawInvalid = true
	if a.lenient {
		return true
	}
	decl := a.decls[fn]
	found := false
	if decl != nil {
		from, to := a.fset.Position(decl.Pos()), a.fset.Position(decl.End())
		from.Filename, to.Filename = relPath(a.dir, from.Filename), relPath(a.dir, to.Filename)
		for _, e := range a.typeErrs {
			if e.Pos.Filename == from.Filename && !posBefore(e.Pos, from) && posBefore(e.Pos, to) {
				a.probs = append(a.probs, e)
				found = true
			}
		}
	}
	if !found {
		a.errorf(fn.Pos(), "%s.%s: the signature does not type-check", typeName, fn.Name())
	}
	return true
}

func posBefore(p, q token.Position) bool {
	return p.Line < q.Line || p.Line == q.Line && p.Column < q.Column
}

// results sets m's result shape from fn's results, reporting unsupported
// ones.
func (a *analyzer) results(spec actorSpec, fn *types.Func, m *message) bool {
	rs := m.sig.Results()
	bad := func(format string, args ...any) bool {
		a.errorf(a.methodPos(spec, fn), spec.name+"."+fn.Name()+": "+format, args...)
		return false
	}
	switch {
	case rs.Len() == 0:
		m.result = resultNone
		return true
	case rs.Len() > 2:
		return bad("more than two results; want none, R, error, (R, error) or *loop.Promise[R]")
	case rs.Len() == 2 && !isError(rs.At(1).Type()):
		return bad("the second result must be error")
	case rs.Len() == 2 && isPromise(rs.At(0).Type()) != nil:
		return bad("(*loop.Promise[R], error) is not supported; return a rejected promise instead")
	case rs.Len() == 2:
		m.result, m.reply = resultValueError, rs.At(0).Type()
	case isError(rs.At(0).Type()):
		m.result = resultError
		return true
	case isPromise(rs.At(0).Type()) != nil:
		m.result, m.reply = resultPromise, isPromise(rs.At(0).Type())
	default:
		m.result, m.reply = resultValue, rs.At(0).Type()
	}
	return a.checkType(spec, fn, rs.At(0).Pos(), "result", m.reply)
}

// checkType reports a type that cannot travel in a message, or an
// unexported type in the API of an exported actor.
func (a *analyzer) checkType(spec actorSpec, fn *types.Func, pos token.Pos, what string, t types.Type) bool {
	if !pos.IsValid() || fn.Pkg() != a.pkg {
		pos = a.methodPos(spec, fn)
	}
	if why := unsupported(t); why != "" {
		a.errorf(pos, "%s.%s: %s has unsupported type %s: %s", spec.name, fn.Name(), what, a.typeString(t), why)
		return false
	}
	if spec.obj.Exported() {
		if name := unexportedIn(a.pkg, t); name != "" {
			a.errorf(pos, "%s.%s: %s uses unexported type %s in a method of exported actor %s",
				spec.name, fn.Name(), what, name, spec.name)
			return false
		}
	}
	if name := foreignUnexportedIn(a.pkg, t); name != "" {
		a.errorf(pos, "%s.%s: %s uses unexported type %s of another package, which the generated message cannot name",
			spec.name, fn.Name(), what, name)
		return false
	}
	return true
}

func (a *analyzer) typeString(t types.Type) string {
	return types.TypeString(t, func(p *types.Package) string {
		if p == a.pkg {
			return ""
		}
		return p.Name()
	})
}
