package gen

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"
)

// jsactorPath is the import path of the JavaScript actors' package.
const jsactorPath = "github.com/troupe-go/troupe/jsactor"

// jsMessage is a method of a //troupe:js interface: one exported handler
// of the JavaScript actor. Its embedded message holds the parameters after
// the context.Context of an ask; result is resultNone or resultError for
// a tell, resultError or resultValueError for an ask.
type jsMessage struct {
	message
	handler string // the JavaScript handler's name: module.exports[handler]
	ask     bool   // the first parameter is a context.Context
	viaRef  []bool // per parameter: a typed ref, sent as its Ref()
}

// jsSpec is a //troupe:js interface and its messages.
type jsSpec struct {
	name string
	pos  token.Pos
	kind string
	msgs []jsMessage
}

// implementable reports whether the generated ref has every method of
// the interface with its exact signature, and so implements it: true
// unless a tell is declared without its error result.
func (s jsSpec) implementable() bool {
	for _, m := range s.msgs {
		if !m.ask && m.result == resultNone {
			return false
		}
	}
	return true
}

// js analyzes one //troupe:js spec; ok is false when it has problems.
func (a *analyzer) js(an annotated) (jsSpec, bool) {
	ts := an.spec
	obj, _ := a.info.Defs[ts.Name].(*types.TypeName)
	if obj == nil {
		return jsSpec{}, false // redeclared: the type checker says so
	}
	switch {
	case ts.Name.Name == "_":
		a.errorf(ts.Name.Pos(), "//troupe:js on a blank type name")
		return jsSpec{}, false
	case ts.TypeParams != nil:
		a.errorf(ts.Name.Pos(), "JS actor %s: generic interfaces are not supported", obj.Name())
		return jsSpec{}, false
	case ts.Assign.IsValid():
		a.errorf(ts.Name.Pos(), "JS actor %s: //troupe:js on an alias; annotate the interface type itself", obj.Name())
		return jsSpec{}, false
	}
	named, _ := obj.Type().(*types.Named)
	_, isIface := ts.Type.(*ast.InterfaceType)
	if !isIface || named == nil {
		a.errorf(ts.Name.Pos(), "//troupe:js on %s, which is not an interface type (a Go actor's struct takes //troupe:actor)", obj.Name())
		return jsSpec{}, false
	}
	iface := named.Underlying().(*types.Interface)
	if !iface.IsMethodSet() {
		a.errorf(ts.Name.Pos(), "JS actor %s: a constraint interface (type union, ~T or comparable) describes no messages", obj.Name())
		return jsSpec{}, false
	}
	spec := jsSpec{name: obj.Name(), pos: obj.Pos(), kind: an.dir.kind}
	if spec.kind == "" {
		spec.kind = spec.name
	}
	before := len(a.probs)
	for i := range iface.NumMethods() {
		if m, ok := a.jsMethod(spec, iface.Method(i), an.jsNames); ok {
			spec.msgs = append(spec.msgs, m)
		}
	}
	slices.SortFunc(spec.msgs, func(x, y jsMessage) int { return strings.Compare(x.name, y.name) })
	return spec, len(a.probs) == before
}

// jsMethod analyzes fn, a method of the interface of spec (declared there
// or embedded); ok is false when it has problems (which it reports).
func (a *analyzer) jsMethod(spec jsSpec, fn *types.Func, names map[string]string) (jsMessage, bool) {
	pos := fn.Pos()
	if _, declaredHere := a.decls[fn]; !declaredHere {
		pos = spec.pos // embedded from another package: report on the interface
	}
	bad := func(format string, args ...any) (jsMessage, bool) {
		a.errorf(pos, spec.name+"."+fn.Name()+": "+format, args...)
		return jsMessage{}, false
	}
	if !fn.Exported() {
		return bad("the methods of a JS actor's interface must be exported (each names a handler)")
	}
	if a.invalid(spec.name, fn) {
		return jsMessage{}, false
	}
	sig := fn.Type().(*types.Signature)
	m := jsMessage{
		message: message{name: fn.Name(), pos: pos, sig: sig, variadic: sig.Variadic()},
		handler: names[fn.Name()],
	}
	if m.handler == "" {
		m.handler = lowerFirst(fn.Name())
	}
	ps := sig.Params()
	m.ask = ps.Len() > 0 && isStdContext(ps.At(0).Type())
	first := 0
	if m.ask {
		first = 1
	}
	ok := true
	for i := first; i < ps.Len(); i++ {
		p := ps.At(i)
		ok = a.jsParam(spec, fn, pos, &m, p, i == ps.Len()-1) && ok
	}
	return m, a.jsResults(spec, fn, pos, &m) && ok
}

// jsParam adds parameter p of fn to m, reporting a type that cannot cross
// to JavaScript.
func (a *analyzer) jsParam(spec jsSpec, fn *types.Func, pos token.Pos, m *jsMessage, p *types.Var, last bool) bool {
	ppos := p.Pos()
	if _, declaredHere := a.decls[fn]; !declaredHere || !ppos.IsValid() {
		ppos = pos
	}
	where := spec.name + "." + fn.Name() + ": parameter " + orUnnamed(p.Name())
	t := p.Type()
	switch {
	case isStdContext(t):
		a.errorf(ppos, "%s: context.Context must be the first parameter (of an ask), and only there", where)
		return false
	case isContextPtr(t) || isContextNamed(t):
		a.errorf(ppos, "%s: a JS actor's method takes no *actor.Context (an ask takes ctx context.Context first; its Async variant on the ref takes the handler's *actor.Context)", where)
		return false
	}
	elem := t
	if m.variadic && last {
		elem = t.(*types.Slice).Elem()
	}
	name := p.Name()
	if name == "_" {
		name = ""
	}
	m.params = append(m.params, param{name: name, typ: t})
	m.viaRef = append(m.viaRef, isTypedRef(a.pkg, elem))
	return a.checkJSType(spec, fn, ppos, "parameter "+orUnnamed(p.Name()), elem, false)
}

// jsResults sets m's result shape from fn's results, reporting
// unsupported ones.
func (a *analyzer) jsResults(spec jsSpec, fn *types.Func, pos token.Pos, m *jsMessage) bool {
	rs := m.sig.Results()
	bad := func(format string, args ...any) bool {
		a.errorf(pos, spec.name+"."+fn.Name()+": "+format, args...)
		return false
	}
	switch {
	case m.ask && rs.Len() == 1 && isError(rs.At(0).Type()):
		m.result = resultError
	case m.ask && rs.Len() == 2 && isError(rs.At(1).Type()):
		m.result, m.reply = resultValueError, rs.At(0).Type()
		rpos := rs.At(0).Pos()
		if _, declaredHere := a.decls[fn]; !declaredHere || !rpos.IsValid() {
			rpos = pos
		}
		return a.checkJSType(spec, fn, rpos, "result", m.reply, true)
	case m.ask:
		return bad("an ask (context.Context first) returns error or (R, error)")
	case rs.Len() == 0:
		m.result = resultNone
	case rs.Len() == 1 && isError(rs.At(0).Type()):
		m.result = resultError
	default:
		return bad("a method without context.Context first is a tell, which returns nothing or error; " +
			"to ask, take ctx context.Context first and return (R, error)")
	}
	return true
}

// checkJSType reports a type that cannot cross between Go and JavaScript
// (in the direction the result flag says), or an unexported type in the
// API of an exported interface.
func (a *analyzer) checkJSType(spec jsSpec, fn *types.Func, pos token.Pos, what string, t types.Type, result bool) bool {
	why := unsupported(t)
	if why == "" {
		why = jsUnsupported(a.pkg, t, result)
	}
	if why != "" {
		a.errorf(pos, "%s.%s: %s has unsupported type %s: %s", spec.name, fn.Name(), what, a.typeString(t), why)
		return false
	}
	if token.IsExported(spec.name) {
		if name := unexportedIn(a.pkg, t); name != "" {
			a.errorf(pos, "%s.%s: %s uses unexported type %s in a method of exported interface %s",
				spec.name, fn.Name(), what, name, spec.name)
			return false
		}
	}
	return true
}
