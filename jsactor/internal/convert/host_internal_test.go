package convert

import (
	"testing"

	"github.com/dop251/goja"

	"github.com/troupe-go/troupe/actor"
)

// testHost is a Host without actors: a bare Runtime, exceptions returned
// as they are, and ref objects that are frozen objects on one prototype,
// recognised by identity as jsactor's are.
type testHost struct {
	rt    *goja.Runtime
	proto *goja.Object
	refs  RefTable
	cv    *Converter
}

func (h *testHost) Aborted(err error) { panic(err) }

func (h *testHost) JSError(err error) error { return err }

func (h *testHost) RefJS(r actor.Ref) goja.Value {
	if r.IsZero() {
		return goja.Null()
	}
	o := h.rt.CreateObject(h.proto)
	_ = o.Set("id", r.ID())
	h.cv.Freeze(o)
	h.refs.Add(o, r)
	return o
}

func (h *testHost) RefOf(o *goja.Object) (actor.Ref, bool) { return h.refs.Lookup(o) }

func (h *testHost) IsRefProto(p *goja.Object) bool { return p == h.proto }

// conv is a Converter on a fresh Runtime, for the tests.
type conv struct {
	*Converter
	rt *goja.Runtime
}

// bare is a Converter with the default budget.
func bare() conv { return bareWith(1<<20, 64<<20) }

// bareWith is a Converter whose conversions visit at most nodes values
// and copy at most bytes bytes.
func bareWith(nodes, bytes int) conv {
	rt := goja.New()
	h := &testHost{rt: rt, proto: rt.NewObject()}
	h.cv = New(rt, h, nodes, bytes)
	return conv{Converter: h.cv, rt: rt}
}

func (c conv) toJS(v any) (goja.Value, error) { return c.ToJS(v) }
func (c conv) toGo(v goja.Value) (any, error) { return c.ToGo(v) }

func (c conv) eval(t testing.TB, src string) goja.Value {
	t.Helper()
	v, err := c.rt.RunString(src)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return v
}
