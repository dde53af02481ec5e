package gen

import "go/types"

// isContextPtr reports whether t is *actor.Context.
func isContextPtr(t types.Type) bool {
	p, ok := types.Unalias(t).(*types.Pointer)
	return ok && isContextNamed(p.Elem())
}

// isContextNamed reports whether t is actor.Context.
func isContextNamed(t types.Type) bool {
	return isNamed(t, actorPath, "Context")
}

func isNamed(t types.Type, path, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == path && n.Obj().Name() == name
}

// isError reports whether t is the predeclared error.
func isError(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

// isPromise returns R if t is *loop.Promise[R], or nil.
func isPromise(t types.Type) types.Type {
	p, ok := types.Unalias(t).(*types.Pointer)
	if !ok || !isNamed(p.Elem(), loopPath, "Promise") {
		return nil
	}
	args := types.Unalias(p.Elem()).(*types.Named).TypeArgs()
	if args.Len() != 1 {
		return nil
	}
	return args.At(0)
}

// unsupported says why t cannot be a message field or reply, or returns
// "": refs are location-transparent, so messages hold data, not channels
// or functions.
func unsupported(t types.Type) string {
	switch t := t.(type) {
	case *types.Basic:
		switch t.Kind() {
		case types.Invalid:
			return "it does not type-check"
		case types.UnsafePointer:
			return "unsafe.Pointer cannot travel in a message"
		}
		if t.Info()&types.IsUntyped != 0 {
			return "an untyped type"
		}
	case *types.Chan:
		return "channels cannot travel in a message"
	case *types.Signature:
		return "functions cannot travel in a message"
	case *types.TypeParam:
		return "type parameters are not supported"
	case *types.Tuple:
		return "a tuple"
	case *types.Pointer:
		if isNamed(t.Elem(), loopPath, "Promise") {
			return "a promise cannot travel in a message"
		}
		return unsupported(t.Elem())
	case *types.Slice:
		return unsupported(t.Elem())
	case *types.Array:
		return unsupported(t.Elem())
	case *types.Map:
		return firstOf(unsupported(t.Key()), unsupported(t.Elem()))
	case *types.Struct:
		return unsupportedStruct(t)
	case *types.Interface:
		if !t.Empty() {
			return "interface literals with methods are not supported; declare a named interface"
		}
	case *types.Alias:
		return firstOf(unsupported(types.Unalias(t)), unsupportedArgs(t.TypeArgs()))
	case *types.Named:
		return unsupportedNamed(t)
	default:
		return "not supported"
	}
	return ""
}

func unsupportedNamed(t *types.Named) string {
	if t.Obj().Pkg() == nil && t.Obj().Name() != "error" {
		return "not supported"
	}
	if isNamed(t, loopPath, "Promise") {
		return "a promise cannot travel in a message"
	}
	if isNamed(t, "context", "Context") {
		return "a context.Context cannot travel in a message (the handler gets its own *actor.Context)"
	}
	switch t.Underlying().(type) {
	case *types.Chan:
		return "channels cannot travel in a message"
	case *types.Signature:
		return "functions cannot travel in a message"
	}
	return unsupportedArgs(t.TypeArgs())
}

func unsupportedArgs(args *types.TypeList) string {
	for i := range args.Len() {
		if why := unsupported(args.At(i)); why != "" {
			return why
		}
	}
	return ""
}

func unsupportedStruct(t *types.Struct) string {
	for i := range t.NumFields() {
		f := t.Field(i)
		switch {
		case t.Tag(i) != "":
			return "struct literals with tags are not supported; declare a named struct"
		case f.Embedded():
			return "struct literals with embedded fields are not supported; declare a named struct"
		}
		if why := unsupported(f.Type()); why != "" {
			return why
		}
	}
	return ""
}

func firstOf(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// unexportedIn returns the name of an unexported type of pkg that t
// mentions, or "".
func unexportedIn(pkg *types.Package, t types.Type) string {
	var found string
	walkTypes(t, func(obj *types.TypeName) {
		if found == "" && obj.Pkg() == pkg && !obj.Exported() {
			found = obj.Name()
		}
	})
	return found
}

// foreignUnexportedIn returns the qualified name of an unexported type of
// a package other than pkg that t mentions, or "".
func foreignUnexportedIn(pkg *types.Package, t types.Type) string {
	var found string
	walkTypes(t, func(obj *types.TypeName) {
		if found == "" && obj.Pkg() != nil && obj.Pkg() != pkg && !obj.Exported() {
			found = obj.Pkg().Name() + "." + obj.Name()
		}
	})
	return found
}

// walkTypes calls fn for every named type or alias that t mentions.
func walkTypes(t types.Type, fn func(*types.TypeName)) {
	switch t := t.(type) {
	case *types.Pointer:
		walkTypes(t.Elem(), fn)
	case *types.Slice:
		walkTypes(t.Elem(), fn)
	case *types.Array:
		walkTypes(t.Elem(), fn)
	case *types.Map:
		walkTypes(t.Key(), fn)
		walkTypes(t.Elem(), fn)
	case *types.Struct:
		for i := range t.NumFields() {
			walkTypes(t.Field(i).Type(), fn)
		}
	case *types.Alias:
		fn(t.Obj())
		for i := range t.TypeArgs().Len() {
			walkTypes(t.TypeArgs().At(i), fn)
		}
	case *types.Named:
		fn(t.Obj())
		for i := range t.TypeArgs().Len() {
			walkTypes(t.TypeArgs().At(i), fn)
		}
	}
}

// hasInvalid reports whether t mentions an invalid type.
func hasInvalid(t types.Type) bool {
	switch t := t.(type) {
	case *types.Basic:
		return t.Kind() == types.Invalid
	case *types.Pointer:
		return hasInvalid(t.Elem())
	case *types.Slice:
		return hasInvalid(t.Elem())
	case *types.Array:
		return hasInvalid(t.Elem())
	case *types.Map:
		return hasInvalid(t.Key()) || hasInvalid(t.Elem())
	case *types.Chan:
		return hasInvalid(t.Elem())
	case *types.Signature:
		return hasInvalid(t.Params()) || hasInvalid(t.Results())
	case *types.Tuple:
		for i := range t.Len() {
			if hasInvalid(t.At(i).Type()) {
				return true
			}
		}
	case *types.Struct:
		for i := range t.NumFields() {
			if hasInvalid(t.Field(i).Type()) {
				return true
			}
		}
	case *types.Named:
		for i := range t.TypeArgs().Len() {
			if hasInvalid(t.TypeArgs().At(i)) {
				return true
			}
		}
	case *types.Alias:
		return hasInvalid(types.Unalias(t))
	}
	return false
}
