package gen

import (
	"go/types"
	"reflect"
	"strings"
)

// isStdContext reports whether t is context.Context.
func isStdContext(t types.Type) bool { return isNamed(t, "context", "Context") }

// isTypedRef reports whether t is a typed ref: a named type other than
// actor.Ref with a method Ref() actor.Ref, as troupegen generates for Go
// and JavaScript actors. It crosses to JavaScript as its untyped ref.
func isTypedRef(pkg *types.Package, t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || isNamed(n, actorPath, "Ref") {
		return false
	}
	if _, isPtr := n.Underlying().(*types.Pointer); isPtr {
		return false
	}
	obj, _, _ := types.LookupFieldOrMethod(n, false, pkg, "Ref")
	fn, ok := obj.(*types.Func)
	if !ok {
		return false
	}
	sig := fn.Type().(*types.Signature)
	return sig.Params().Len() == 0 && sig.Results().Len() == 1 && isNamed(sig.Results().At(0).Type(), actorPath, "Ref")
}

// jsUnsupported says why t, which unsupported accepts, cannot cross
// between Go and JavaScript, or returns "". Parameters (result false) are
// converted to JavaScript, results (result true) decoded from it with
// jsactor.Decode; both copy by the rules of package jsactor.
func jsUnsupported(pkg *types.Package, t types.Type, result bool) string {
	c := jsChecker{pkg: pkg, result: result, seen: map[types.Type]bool{}}
	if !result && isTypedRef(pkg, t) {
		return "" // sent as its Ref()
	}
	return c.check(t)
}

// jsChecker walks a type for jsUnsupported.
type jsChecker struct {
	pkg    *types.Package
	result bool
	seen   map[types.Type]bool // named types being checked: recursion is fine
}

func (c jsChecker) check(t types.Type) string {
	t = types.Unalias(t)
	switch t := t.(type) {
	case *types.Basic:
		if t.Info()&types.IsComplex != 0 {
			return "complex numbers do not cross to JavaScript"
		}
	case *types.Chan:
		return "channels do not cross to JavaScript"
	case *types.Signature:
		return "functions do not cross to JavaScript"
	case *types.Pointer:
		if isNamed(t.Elem(), "math/big", "Int") {
			if c.result {
				return "a BigInt decodes into int64 or uint64, not *big.Int"
			}
			return ""
		}
		return c.check(t.Elem())
	case *types.Slice:
		return c.check(t.Elem())
	case *types.Array:
		return c.check(t.Elem())
	case *types.Map:
		if b, ok := t.Key().Underlying().(*types.Basic); !ok || b.Info()&types.IsString == 0 {
			return "a map crosses as a JavaScript object, so its keys must be strings"
		}
		return c.check(t.Elem())
	case *types.Interface:
		if !t.Empty() {
			return "only any crosses as an interface (converted at run time); an interface with methods cannot"
		}
	case *types.Struct:
		return c.structFields(t)
	case *types.Named:
		return c.named(t)
	}
	return ""
}

func (c jsChecker) named(t *types.Named) string {
	switch {
	case isNamed(t, "time", "Time"), isNamed(t, actorPath, "Ref"):
		return ""
	case isTypedRef(c.pkg, t) && c.result:
		return "a typed ref cannot be decoded from JavaScript; return actor.Ref and type it with the ref's RefOf function"
	case isTypedRef(c.pkg, t):
		return "a typed ref crosses only as a parameter of its own; use actor.Ref inside other types"
	case c.seen[t]:
		return ""
	}
	if b, ok := t.Underlying().(*types.Basic); ok && c.result && t.Obj().Pkg() != nil &&
		b.Info()&(types.IsString|types.IsBoolean) != 0 {
		return "jsactor.Decode stores JavaScript strings and booleans only into string and bool, not into named types"
	}
	c.seen[t] = true
	return c.check(t.Underlying())
}

// structFields checks the fields of a struct that cross, by the rules of
// encoding/json as package jsactor applies them: exported fields not
// tagged "-", and the fields of untagged embedded structs.
func (c jsChecker) structFields(t *types.Struct) string {
	for i := range t.NumFields() {
		f := t.Field(i)
		name := jsonName(t.Tag(i))
		if name == "-" {
			continue
		}
		if !f.Exported() && !(f.Embedded() && name == "") {
			continue
		}
		if why := c.check(f.Type()); why != "" {
			return "field " + f.Name() + ": " + why
		}
	}
	return ""
}

// jsonName returns the name part of a struct tag's json key.
func jsonName(tag string) string {
	name, _, _ := strings.Cut(reflect.StructTag(tag).Get("json"), ",")
	return name
}
