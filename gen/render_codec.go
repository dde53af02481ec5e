package gen

import (
	"fmt"
	"go/types"

	"github.com/dave/jennifer/jen"
)

// codecField is one field of a generated codec: the struct field, its
// wire field number and plan.
type codecField struct {
	name string
	num  int
	wt   *wireType
}

// codecs renders, for an actor whose directive says remote, the binary
// codec of each message struct (field numbers are the parameters'
// positions, from 1), the codecs of the structs it planned, and its
// registration function.
func (r *renderer) codecs() {
	p := r.spec.wire
	if p == nil {
		return
	}
	for i, m := range r.spec.msgs {
		names := r.fieldNames(m)
		fields := make([]codecField, len(names))
		for j, name := range names {
			fields[j] = codecField{name: name, num: j + 1, wt: p.params[i][j]}
		}
		r.codecMethods(m.typeName, fields)
	}
	for _, s := range p.structs {
		fields := make([]codecField, len(s.fields))
		for i, f := range s.fields {
			fields[i] = codecField{name: f.name, num: f.num, wt: f.wt}
		}
		r.codecMethods(s.named.Obj().Name(), fields)
	}
	r.register(p)
}

// codecMethods renders MarshalWire and UnmarshalWire of type typ.
func (r *renderer) codecMethods(typ string, fields []codecField) {
	r.f.Comment("MarshalWire implements wire.Marshaler; zero fields are omitted.")
	r.f.Func().Params(jen.Id("m").Id(typ)).Id("MarshalWire").Params(jen.Id("e").Op("*").Qual(wirePath, "Encoder")).
		BlockFunc(func(g *jen.Group) {
			for _, f := range fields {
				g.Add(r.encode(f.num, jen.Id("m").Dot(f.name), f.wt, false, 0))
			}
		})
	r.f.Comment("UnmarshalWire implements wire.Unmarshaler; unknown fields are skipped.")
	r.f.Func().Params(jen.Id("m").Op("*").Id(typ)).Id("UnmarshalWire").Params(jen.Id("d").Op("*").Qual(wirePath, "Decoder")).
		Error().BlockFunc(func(g *jen.Group) {
		var fs []wireTarget
		owned := 0
		for _, f := range fields {
			fs = append(fs, wireTarget{num: f.num, target: jen.Id("m").Dot(f.name), wt: f.wt})
			if f.wt.kind == wireString || f.wt.kind == wireBytes {
				owned++
			}
		}
		if owned < 2 {
			g.Add(r.decodeFields("d", fs, 0))
			g.Return(jen.Id("d").Dot("Err").Call())
			return
		}
		// Several strings and byte slices: read as views of the input,
		// copied out in one allocation once the whole message is read.
		g.Var().Id("own").Qual(wirePath, "Owned")
		for i := range fs {
			if fs[i].wt.kind == wireString || fs[i].wt.kind == wireBytes {
				fs[i].owned = true
				g.Var().Id(rawName(fs[i].num)).Index().Byte()
			}
		}
		g.Add(r.decodeFields("d", fs, 0))
		g.If(jen.Err().Op(":=").Id("d").Dot("Err").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))
		for _, f := range fs {
			if !f.owned {
				continue
			}
			method, basic := "String", types.Type(types.Typ[types.String])
			if f.wt.kind == wireBytes {
				method, basic = "Bytes", types.NewSlice(types.Typ[types.Byte])
			}
			val := jen.Id("own").Dot(method).Call(jen.Id(rawName(f.num)))
			if !types.Identical(f.wt.typ, basic) {
				val = jen.Add(r.typ(f.wt.typ)).Call(val)
			}
			g.If(jen.Id(rawName(f.num)).Op("!=").Nil()).Block(f.target.Clone().Op("=").Add(val))
		}
		g.Return(jen.Nil())
	})
}

// rawName is the local holding the view of the input of owned field num.
func rawName(num int) string { return fmt.Sprintf("raw%d", num) }

// wireTarget is a field to decode: its number, where it goes, its plan.
type wireTarget struct {
	num    int
	target *jen.Statement
	wt     *wireType
	owned  bool // read as a view into raw<num>, copied out at the end
}

// conv renders x converted to basic type to, unless it has that type.
func (r *renderer) conv(to types.BasicKind, t types.Type, x jen.Code) jen.Code {
	if types.Identical(t, types.Typ[to]) {
		return x
	}
	return jen.Id(types.Typ[to].Name()).Call(x)
}

// encode renders the encoding of x, of plan wt, as field num; always
// writes an empty nested message too (a repeated element).
func (r *renderer) encode(num int, x *jen.Statement, wt *wireType, always bool, depth int) jen.Code {
	e := jen.Id("e")
	n := jen.Lit(num)
	switch wt.kind {
	case wireInt:
		return e.Dot("Int").Call(n, r.conv(types.Int64, wt.typ, x))
	case wireUint:
		return e.Dot("Uint").Call(n, r.conv(types.Uint64, wt.typ, x))
	case wireFloat:
		return e.Dot("Float64").Call(n, r.conv(types.Float64, wt.typ, x))
	case wireBool:
		return e.Dot("Bool").Call(n, r.conv(types.Bool, wt.typ, x))
	case wireString:
		return e.Dot("String").Call(n, r.conv(types.String, wt.typ, x))
	case wireBytes:
		if !types.Identical(wt.typ, types.NewSlice(types.Typ[types.Byte])) {
			return e.Dot("BytesField").Call(n, jen.Index().Byte().Call(x))
		}
		return e.Dot("BytesField").Call(n, x)
	case wireRef:
		// wire's own helper carries the parent path, so that a child's
		// ref does not arrive as a top-level ref of its kind and id.
		return e.Dot("ActorRef").Call(n, jen.Lit(always), x)
	case wireCodec:
		return e.Dot("Message").Call(n, jen.Lit(always), x.Dot("MarshalWire"))
	case wireSlice:
		v := jen.Id(fmt.Sprintf("v%d", depth))
		var elem jen.Code
		if wt.val.kind == wireCodec || wt.val.kind == wireRef {
			elem = r.encode(num, v.Clone(), wt.val, true, depth+1)
		} else {
			elem = jen.Id("e").Dot("Message").Call(n, jen.True(), jen.Func().Params(r.encParam()).Block(
				r.encode(1, v.Clone(), wt.val, false, depth+1)))
		}
		return jen.For(jen.List(jen.Id("_"), v.Clone()).Op(":=").Range().Add(x)).Block(elem)
	case wireMap:
		k, v := jen.Id(fmt.Sprintf("k%d", depth)), jen.Id(fmt.Sprintf("v%d", depth))
		return jen.For(jen.List(k.Clone(), v.Clone()).Op(":=").Range().Add(x)).Block(
			jen.Id("e").Dot("Message").Call(n, jen.True(), jen.Func().Params(r.encParam()).Block(
				r.encode(1, k.Clone(), wt.key, false, depth+1),
				r.encode(2, v.Clone(), wt.val, false, depth+1),
			)))
	}
	panic(fmt.Sprintf("troupegen: unexpected wire kind %d", wt.kind))
}

func (r *renderer) encParam() jen.Code { return jen.Id("e").Op("*").Qual(wirePath, "Encoder") }

// decodeFields renders the loop reading the fields of decoder dec into
// fs, skipping unknown ones.
func (r *renderer) decodeFields(dec string, fs []wireTarget, depth int) jen.Code {
	d := jen.Id(dec)
	if len(fs) == 0 {
		return jen.For(d.Clone().Dot("Next").Call()).Block(d.Clone().Dot("Skip").Call())
	}
	return jen.For(d.Clone().Dot("Next").Call()).Block(
		jen.Switch(d.Clone().Dot("Field").Call()).BlockFunc(func(g *jen.Group) {
			for _, f := range fs {
				if f.owned {
					g.Case(jen.Lit(f.num)).Block(jen.Id(rawName(f.num)).Op("=").Id("own").Dot("Add").Call(d.Clone().Dot("Bytes").Call()))
					continue
				}
				g.Case(jen.Lit(f.num)).Block(r.decodeField(dec, f.target, f.wt, depth)...)
			}
			g.Default().Block(d.Clone().Dot("Skip").Call())
		}))
}

// decodeField renders reading the current field of dec, of plan wt,
// into target.
func (r *renderer) decodeField(dec string, target *jen.Statement, wt *wireType, depth int) []jen.Code {
	d := jen.Id(dec)
	set := func(read string, to types.BasicKind) []jen.Code {
		val := d.Clone().Dot(read).Call()
		if !types.Identical(wt.typ, types.Typ[to]) {
			val = jen.Add(r.typ(wt.typ)).Call(val)
		}
		return []jen.Code{target.Clone().Op("=").Add(val)}
	}
	sub := fmt.Sprintf("sub%d", depth)
	open := []jen.Code{
		jen.Var().Id(sub).Qual(wirePath, "Decoder"),
		d.Clone().Dot("Message").Call(jen.Op("&").Id(sub)),
	}
	switch wt.kind {
	case wireInt:
		return set("Int", types.Int64)
	case wireUint:
		return set("Uint", types.Uint64)
	case wireFloat:
		return set("Float64", types.Float64)
	case wireBool:
		return set("Bool", types.Bool)
	case wireString:
		return set("String", types.String)
	case wireBytes:
		val := jen.Append(jen.Index().Byte().Parens(jen.Nil()), d.Clone().Dot("Bytes").Call().Op("..."))
		if !types.Identical(wt.typ, types.NewSlice(types.Typ[types.Byte])) {
			val = jen.Add(r.typ(wt.typ)).Call(val)
		}
		return []jen.Code{target.Clone().Op("=").Add(val)}
	case wireRef:
		return []jen.Code{target.Clone().Op("=").Add(d.Clone().Dot("ActorRef").Call())}
	case wireCodec:
		return append(open, r.decodeMsg(sub, target)...)
	case wireSlice:
		v := fmt.Sprintf("v%d", depth)
		if wt.val.kind == wireRef {
			// An element is the ref message itself, as encode writes it.
			return []jen.Code{target.Clone().Op("=").Append(target.Clone(), d.Clone().Dot("ActorRef").Call())}
		}
		out := append(open, jen.Var().Id(v).Add(r.typ(wt.val.typ)))
		if wt.val.kind == wireCodec {
			out = append(out, r.decodeMsg(sub, jen.Id(v))...)
		} else {
			out = append(out, r.decodeWrapped(sub, []wireTarget{{num: 1, target: jen.Id(v), wt: wt.val}}, depth+1)...)
		}
		return append(out, target.Clone().Op("=").Append(target.Clone(), jen.Id(v)))
	case wireMap:
		k, v := fmt.Sprintf("k%d", depth), fmt.Sprintf("v%d", depth)
		out := append(open, jen.Var().Id(k).Add(r.typ(wt.key.typ)), jen.Var().Id(v).Add(r.typ(wt.val.typ)))
		out = append(out, r.decodeWrapped(sub, []wireTarget{
			{num: 1, target: jen.Id(k), wt: wt.key},
			{num: 2, target: jen.Id(v), wt: wt.val},
		}, depth+1)...)
		return append(out,
			jen.If(target.Clone().Op("==").Nil()).Block(target.Clone().Op("=").Make(r.typ(wt.typ))),
			target.Clone().Index(jen.Id(k)).Op("=").Id(v),
		)
	}
	panic(fmt.Sprintf("troupegen: unexpected wire kind %d", wt.kind))
}

// decodeMsg renders reading the whole of nested decoder sub, holding a
// value with a codec of its own, into target.
func (r *renderer) decodeMsg(sub string, target *jen.Statement) []jen.Code {
	return []jen.Code{jen.If(jen.Err().Op(":=").Add(target.Clone()).Dot("UnmarshalWire").Call(jen.Op("&").Id(sub)),
		jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))}
}

// decodeWrapped renders reading the fields of nested decoder sub into fs
// and checking sub's error.
func (r *renderer) decodeWrapped(sub string, fs []wireTarget, depth int) []jen.Code {
	return []jen.Code{
		r.decodeFields(sub, fs, depth),
		jen.If(jen.Err().Op(":=").Id(sub).Dot("Err").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
	}
}

// register renders the actor's registration function.
func (r *renderer) register(p *wirePlan) {
	s := r.spec
	name := registerFunc(s)
	r.f.Add(doc("%s registers the messages of %s, and the reply types of its asks that a new wire.Registry "+
		"does not hold, with reg under stable names, so that typed refs to %s work across nodes: every node "+
		"sending to or hosting %s actors calls it once on its remote.Node's registry. Messages travel with their "+
		"generated binary codecs.", name, s.name, s.name, s.name))
	reg := jen.Id("reg")
	r.f.Func().Id(name).Params(reg.Clone().Op("*").Qual(wirePath, "Registry")).Error().BlockFunc(func(g *jen.Group) {
		for _, m := range s.msgs {
			g.If(jen.Err().Op(":=").Add(registerCall(jen.Id(m.typeName), registerName(r.pkg, s, m), true)),
				jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))
		}
		for _, rep := range p.replies {
			typ := r.typ(rep.typ)
			g.Comment(fmt.Sprintf("A reply type may be shared with other actors: register %s once.", types.TypeString(rep.typ, types.RelativeTo(r.pkg))))
			g.If(jen.List(jen.Id("_"), jen.Id("ok")).Op(":=").Add(reg.Clone()).Dot("Name").Call(jen.Op("*").New(typ)), jen.Op("!").Id("ok")).Block(
				jen.If(jen.Err().Op(":=").Add(registerCall(r.typ(rep.typ), rep.name, rep.binary)), jen.Err().Op("!=").Nil()).
					Block(jen.Return(jen.Err())),
			)
		}
		g.Return(jen.Nil())
	})
}

// registerCall renders registering typ under name with reg: a type with a
// binary codec through wire.RegisterFuncs, with functions that call its
// codec methods directly, so that its Encoder and Decoder stay on the
// stack; any other type through wire.Register (CBOR).
func registerCall(typ jen.Code, name string, binary bool) jen.Code {
	reg := jen.Id("reg")
	if !binary {
		return jen.Qual(wirePath, "Register").Types(typ).Call(reg, jen.Lit(name))
	}
	marshal := jen.Func().Params(jen.Id("buf").Index().Byte(), jen.Id("m").Add(typ)).Index().Byte().Block(
		jen.Id("e").Op(":=").Qual(wirePath, "NewEncoder").Call(jen.Id("buf")),
		jen.Id("m").Dot("MarshalWire").Call(jen.Id("e")),
		jen.Return(jen.Id("e").Dot("Bytes").Call()),
	)
	unmarshal := jen.Func().Params(jen.Id("data").Index().Byte()).Params(jen.Id("m").Add(typ), jen.Err().Error()).Block(
		jen.Err().Op("=").Id("m").Dot("UnmarshalWire").Call(jen.Qual(wirePath, "NewDecoder").Call(jen.Id("data"))),
		jen.Return(),
	)
	return jen.Qual(wirePath, "RegisterFuncs").Call(reg, jen.Lit(name), jen.Line().Add(marshal), jen.Line().Add(unmarshal), jen.Line())
}
