package gen

import (
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"strconv"
)

// wirePath is the import path of the codec runtime that generated codecs
// target, for actors whose directive says remote.
const wirePath = "github.com/troupe-go/troupe/remote/wire"

// wireKind is how a Go type is laid out by a generated codec.
type wireKind int

const (
	wireInt    wireKind = iota // signed integers, time.Duration: zigzag varint
	wireUint                   // unsigned integers: varint
	wireFloat                  // float32, float64: fixed 64 bits
	wireBool                   // varint
	wireString                 // length-delimited
	wireBytes                  // []byte: length-delimited, copied on decode
	wireRef                    // actor.Ref: wire.Encoder.ActorRef, nested {1 system, 2 kind, 3 id, 4 parent path}
	wireCodec                  // a type with MarshalWire/UnmarshalWire: nested
	wireSlice                  // repeated nested {1 element}
	wireMap                    // repeated nested {1 key, 2 value}
)

// wireType is the codec plan of one Go type.
type wireType struct {
	kind     wireKind
	typ      types.Type // the Go type, for conversions
	key, val *wireType  // element (val) of a slice; key and value of a map
}

// wireStruct is a struct of the package whose fields carry wire tags and
// that has no codec: troupegen generates one.
type wireStruct struct {
	named  *types.Named
	fields []wireField
}

// wireField is a field of a wireStruct.
type wireField struct {
	name string
	num  int
	wt   *wireType
}

// wireReply is a reply type an actor's registration function registers.
type wireReply struct {
	typ    types.Type
	name   string // the stable registered name
	binary bool   // it has a binary codec; CBOR otherwise
}

// wirePlan is what the codec of one remote actor needs: the wire type of
// each message's parameters (in spec.msgs order), the structs whose codec
// goes in its file, and its non-builtin reply types.
type wirePlan struct {
	params  [][]*wireType
	structs []wireStruct
	replies []wireReply
}

// codecAnalyzer plans the codecs of a package's remote actors, reporting
// types that cannot cross.
type codecAnalyzer struct {
	*reporter
	pkg     *types.Package
	ours    map[string]bool      // files troupegen did not generate
	structs map[*types.Named]int // planned structs: 1 visiting, 2 done
	claimed map[*types.Named]bool
	pending []wireStruct // structs planned for the actor being analyzed
}

// plan returns the wire plan of spec; ok is false when a type cannot
// cross (reported).
func (c *codecAnalyzer) plan(spec actorSpec) (*wirePlan, bool) {
	before := len(c.probs)
	c.pending = nil
	p := &wirePlan{}
	for _, m := range spec.msgs {
		var wts []*wireType
		for i, prm := range m.params {
			wt, why := c.classify(prm.typ)
			if why != "" {
				c.errorf(c.paramPos(m, i), "%s.%s: parameter %s of type %s cannot cross nodes: %s",
					spec.name, m.name, orUnnamed(prm.name), c.typeString(prm.typ), why)
			}
			wts = append(wts, wt)
		}
		p.params = append(p.params, wts)
		if r, ok := c.reply(spec, m); ok && r != nil {
			p.replies = append(p.replies, *r)
		}
	}
	p.structs = c.pending
	return p, len(c.probs) == before
}

func (c *codecAnalyzer) paramPos(m message, i int) token.Pos {
	if pos := m.sig.Params().At(i + 1).Pos(); pos.IsValid() {
		return pos
	}
	return m.pos
}

// builtinReplies are the reply types wire.NewRegistry holds already.
var builtinReplies = []types.Type{
	types.Typ[types.String], types.Typ[types.Bool], types.Typ[types.Int], types.Typ[types.Int64],
	types.Typ[types.Uint64], types.Typ[types.Float64], types.NewSlice(types.Typ[types.Byte]), types.NewStruct(nil, nil),
}

// reply plans the registration of m's reply type: nil for none or a
// builtin. A struct of the package with wire tags gets a codec; any other
// type travels as CBOR, which sees exported fields only.
func (c *codecAnalyzer) reply(spec actorSpec, m message) (*wireReply, bool) {
	t := m.reply
	if t == nil || slices.ContainsFunc(builtinReplies, func(b types.Type) bool { return types.Identical(b, t) }) {
		return nil, true
	}
	name := types.TypeString(t, nil)
	if types.IsInterface(t) {
		c.errorf(m.pos, "%s.%s: reply type %s cannot cross nodes: an interface has no stable type on the wire; return a concrete type",
			spec.name, m.name, c.typeString(t))
		return nil, false
	}
	if wt, why := c.classify(t); why == "" && wt.kind == wireCodec {
		return &wireReply{typ: t, name: name, binary: true}, true
	}
	if why := cborBlind(t); why != "" {
		c.errorf(m.pos, "%s.%s: reply type %s cannot cross nodes: %s", spec.name, m.name, c.typeString(t), why)
		return nil, false
	}
	return &wireReply{typ: t, name: name}, true
}

// cborBlind says why CBOR would lose part of t, or returns "".
func cborBlind(t types.Type) string {
	seen := map[types.Type]bool{}
	var walk func(t types.Type) string
	walk = func(t types.Type) string {
		if seen[t] {
			return ""
		}
		seen[t] = true
		switch u := types.Unalias(t).Underlying().(type) {
		case *types.Struct:
			for i := range u.NumFields() {
				f := u.Field(i)
				if !f.Exported() && !f.Embedded() {
					return "CBOR cannot see its unexported field " + f.Name() + "; give the struct's fields wire:\"N\" tags"
				}
				if why := walk(f.Type()); why != "" {
					return why
				}
			}
		case *types.Pointer:
			return walk(u.Elem())
		case *types.Slice:
			return walk(u.Elem())
		case *types.Array:
			return walk(u.Elem())
		case *types.Map:
			return firstOf(walk(u.Key()), walk(u.Elem()))
		}
		return ""
	}
	return walk(t)
}

// classify returns the wire plan of t, or why it has none.
func (c *codecAnalyzer) classify(t types.Type) (*wireType, string) {
	t = types.Unalias(t)
	if isNamed(t, "time", "Duration") {
		return &wireType{kind: wireInt, typ: t}, ""
	}
	if isNamed(t, "time", "Time") {
		return nil, "time.Time has no binary codec; pass t.UnixNano() or a struct with wire tags"
	}
	if isNamed(t, actorPath, "Ref") {
		return &wireType{kind: wireRef, typ: t}, ""
	}
	if n, ok := t.(*types.Named); ok {
		if c.hasCodec(n) {
			return &wireType{kind: wireCodec, typ: t}, ""
		}
		if _, isStruct := n.Underlying().(*types.Struct); isStruct {
			return c.planStruct(n)
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return basicWire(t, u)
	case *types.Slice:
		if b, ok := types.Unalias(u.Elem()).(*types.Basic); ok && b.Kind() == types.Byte {
			return &wireType{kind: wireBytes, typ: t}, ""
		}
		elem, why := c.classify(u.Elem())
		if why != "" {
			return nil, why
		}
		if elem.kind == wireSlice || elem.kind == wireMap {
			return nil, "slices of slices or maps are not supported; wrap the inner one in a struct with wire tags"
		}
		return &wireType{kind: wireSlice, typ: t, val: elem}, ""
	case *types.Map:
		key, why := c.classify(u.Key())
		if why != "" {
			return nil, why
		}
		val, why := c.classify(u.Elem())
		if why != "" {
			return nil, why
		}
		if val.kind == wireSlice || val.kind == wireMap {
			return nil, "maps of slices or maps are not supported; wrap the value in a struct with wire tags"
		}
		return &wireType{kind: wireMap, typ: t, key: key, val: val}, ""
	case *types.Pointer:
		return nil, "pointers have no binary codec; pass the value"
	case *types.Interface:
		return nil, "interfaces have no binary codec; use a concrete type"
	case *types.Array:
		return nil, "arrays have no binary codec; use a slice"
	case *types.Struct:
		if _, named := t.(*types.Named); named {
			break
		}
		return nil, "struct literals have no binary codec; declare a named struct with wire tags"
	}
	return nil, "it has no binary codec (implement wire.Marshaler and wire.Unmarshaler)"
}

func basicWire(t types.Type, b *types.Basic) (*wireType, string) {
	info := b.Info()
	switch {
	case info&types.IsInteger != 0 && info&types.IsUnsigned != 0:
		if b.Kind() == types.Uintptr {
			return nil, "uintptr cannot cross nodes"
		}
		return &wireType{kind: wireUint, typ: t}, ""
	case info&types.IsInteger != 0:
		return &wireType{kind: wireInt, typ: t}, ""
	case info&types.IsFloat != 0:
		return &wireType{kind: wireFloat, typ: t}, ""
	case info&types.IsBoolean != 0:
		return &wireType{kind: wireBool, typ: t}, ""
	case info&types.IsString != 0:
		return &wireType{kind: wireString, typ: t}, ""
	}
	return nil, b.Name() + " has no binary codec"
}

// hasCodec reports whether T implements wire.Marshaler and *T
// wire.Unmarshaler with methods troupegen did not generate.
func (c *codecAnalyzer) hasCodec(n *types.Named) bool {
	for _, name := range []string{"MarshalWire", "UnmarshalWire"} {
		obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(n), false, n.Obj().Pkg(), name)
		fn, ok := obj.(*types.Func)
		if !ok || fn.Pkg() == c.pkg && !c.ours[c.fset.Position(fn.Pos()).Filename] {
			return false
		}
	}
	return true
}

// planStruct plans a struct of the package whose fields all carry wire
// tags; the codec goes in the file of the first actor using it.
func (c *codecAnalyzer) planStruct(n *types.Named) (*wireType, string) {
	wt := &wireType{kind: wireCodec, typ: n}
	if n.Obj().Pkg() != c.pkg {
		return nil, "a struct of another package needs its own codec (implement wire.Marshaler and wire.Unmarshaler)"
	}
	if n.TypeParams().Len() > 0 {
		return nil, "generic structs have no binary codec"
	}
	for _, name := range []string{"MarshalWire", "UnmarshalWire"} {
		if obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(n), false, c.pkg, name); obj != nil &&
			c.ours[c.fset.Position(obj.Pos()).Filename] {
			return nil, n.Obj().Name() + " declares " + name + " but not both codec methods (MarshalWire on the value, UnmarshalWire on the pointer)"
		}
	}
	switch c.structs[n] {
	case 1, 2: // 1: a recursive struct, through a slice or map
		return wt, ""
	}
	c.structs[n] = 1
	ws, why := c.structFields(n)
	if why != "" {
		delete(c.structs, n)
		return nil, why
	}
	c.structs[n] = 2
	if !c.claimed[n] {
		c.claimed[n] = true
		c.pending = append(c.pending, ws)
	}
	return wt, ""
}

// structFields plans the fields of struct n by their wire tags.
func (c *codecAnalyzer) structFields(n *types.Named) (wireStruct, string) {
	st := n.Underlying().(*types.Struct)
	ws := wireStruct{named: n}
	nums := map[int]string{}
	for i := range st.NumFields() {
		f := st.Field(i)
		tag, ok := reflect.StructTag(st.Tag(i)).Lookup("wire")
		if !ok {
			return wireStruct{}, "field " + n.Obj().Name() + "." + f.Name() + " has no wire:\"N\" tag"
		}
		if tag == "-" {
			continue
		}
		num, err := strconv.Atoi(tag)
		switch {
		case err != nil || num < 1 || num > 1<<29-1:
			return wireStruct{}, "field " + n.Obj().Name() + "." + f.Name() + ": bad wire tag " + strconv.Quote(tag) + " (want a number from 1 to 536870911, or -)"
		case nums[num] != "":
			return wireStruct{}, "fields " + n.Obj().Name() + "." + nums[num] + " and " + f.Name() + " share wire field " + tag
		}
		nums[num] = f.Name()
		fw, why := c.classify(f.Type())
		if why != "" {
			return wireStruct{}, "field " + n.Obj().Name() + "." + f.Name() + ": " + why
		}
		ws.fields = append(ws.fields, wireField{name: f.Name(), num: num, wt: fw})
	}
	return ws, ""
}

func (c *codecAnalyzer) typeString(t types.Type) string {
	return types.TypeString(t, func(p *types.Package) string {
		if p == c.pkg {
			return ""
		}
		return p.Name()
	})
}

// registerName returns the name the registration function of actor
// spec gives the message of method m.
func registerName(pkg *types.Package, spec actorSpec, m message) string {
	return pkg.Path() + "." + spec.name + "." + m.name
}

// registerFunc returns the name of spec's registration function.
func registerFunc(spec actorSpec) string {
	name := "Register" + upperFirst(spec.name) + "Messages"
	if !token.IsExported(spec.name) {
		return lowerFirst(name)
	}
	return name
}

// remoteHint names the remote and sharded options in errors about
// //troupe:actor options.
func remoteHint(verb string) string {
	if verb == verbActor {
		return ", remote or sharded"
	}
	return ""
}

// planCodecs plans the codecs of the specs whose directive says remote or
// sharded, reporting types that cannot cross nodes.
func planCodecs(rep *reporter, in input, specs []actorSpec) {
	c := &codecAnalyzer{reporter: rep, pkg: in.pkg, ours: map[string]bool{},
		structs: map[*types.Named]int{}, claimed: map[*types.Named]bool{}}
	for _, f := range in.files {
		c.ours[in.fset.File(f.Pos()).Name()] = true
	}
	for i := range specs {
		if specs[i].crossesNodes() {
			if p, ok := c.plan(specs[i]); ok {
				specs[i].wire = p
			}
		}
	}
}
