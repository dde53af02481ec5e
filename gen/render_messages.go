package gen

import (
	"go/types"

	"github.com/dave/jennifer/jen"
)

// messageBuilders renders XMessages, whose methods build the messages
// XRef sends, so that a test giving a stand-in (an actortest.Probe) to
// the code under test in place of an X compares what it received with
// values written like the calls the code makes: the message structs stay
// unexported, and nothing of a test kit is linked.
func (r *renderer) messageBuilders() {
	s, n := r.spec, r.n
	if len(s.msgs) == 0 {
		return
	}
	r.f.Add(doc("%s builds the messages %s sends, one method per message of %s with the message's "+
		"parameters, for tests that put a stand-in in place of %s actor (%s(sys, probe.Ref()) for an "+
		"actortest.Probe) and compare what it received with what the code under test should have sent: "+
		"probe.ExpectMessage(%s{}.%s(…)) for a call ref.%s(…).", n.messages, n.ref, s.name, withArticle(s.name), n.refOf,
		n.messages, s.msgs[0].name, s.msgs[0].name))
	r.f.Type().Id(n.messages).Struct()
	for _, m := range s.msgs {
		names, fieldNames := r.paramNames(m), r.fieldNames(m)
		var params, fields []jen.Code
		for i, p := range m.params {
			typ := r.typ(p.typ)
			if m.variadic && i == len(m.params)-1 {
				typ = jen.Op("...").Add(r.typ(p.typ.(*types.Slice).Elem()))
			}
			params = append(params, jen.Id(names[i]).Add(typ))
			fields = append(fields, jen.Id(fieldNames[i]).Op(":").Id(names[i]))
		}
		r.f.Commentf("%s returns the message of %s.%s (a value of an unexported type).", m.name, r.n.ref, m.name)
		r.f.Func().Params(jen.Id(n.messages)).Id(m.name).Params(params...).Any().
			Block(jen.Return(jen.Id(m.typeName).Values(fields...)))
	}
}
