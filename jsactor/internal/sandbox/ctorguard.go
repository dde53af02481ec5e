package sandbox

import (
	"reflect"
	"unsafe"

	"github.com/dop251/goja"
)

// A guarded constructor (ArrayBuffer, the typed arrays, the collections)
// checks the size asked for before the original allocates. Every way of
// constructing one in goja, new, super(), Reflect.construct, species and
// from/of, goes through the construct function its native function object
// keeps, so that function is wrapped where it is kept: the constructor
// stays goja's own object, with its own prototype chain, statics and
// attributes, and the guard costs one closure. Where goja's layout is not
// the expected one (another goja), the constructor is wrapped in a new
// native constructor instead (guardCtorWrapped), which costs about 1.5 KB
// per constructor and differs from the builtin in its prototype, whose
// constructor property it replaces.

// constructFunc is the type of a native function object's construct
// function, as goja declares it.
type constructFunc = func(args []goja.Value, newTarget *goja.Object) *goja.Object

// constructSlot is where the native constructor o keeps its construct
// function, or nil unless o is laid out as expected.
func constructSlot(o *goja.Object) *constructFunc {
	impl, ok := objectImpl(o)
	if !ok {
		return nil
	}
	f := impl.FieldByName("construct")
	if !f.IsValid() || f.Type() != reflect.TypeFor[constructFunc]() || f.IsNil() {
		return nil
	}
	return (*constructFunc)(unsafe.Pointer(f.UnsafeAddr()))
}

// guardCtor makes the constructor orig check its arguments (check may
// replace them) before it constructs, and returns the constructor to
// define as the global.
func (g *MemGuard) guardCtor(orig *goja.Object, check func([]goja.Value) []goja.Value) goja.Value {
	slot := constructSlot(orig)
	if slot == nil || g.wrapCtors {
		return g.guardCtorWrapped(orig, check)
	}
	construct := *slot
	*slot = func(args []goja.Value, newTarget *goja.Object) *goja.Object {
		return construct(check(args), newTarget)
	}
	return orig
}

// guardCtorWrapped wraps orig in a native constructor that checks the
// size asked for, then constructs with the original (new.target kept, so
// subclasses work). The wrapper inherits the original's static properties
// (from, of, isView, BYTES_PER_ELEMENT) and shares its prototype, whose
// constructor becomes the wrapper: from, of and species construct through
// it. (A Proxy would be shorter, but goja's instanceof rejects a Proxy of
// a constructor.)
func (g *MemGuard) guardCtorWrapped(orig *goja.Object, check func([]goja.Value) []goja.Value) goja.Value {
	rt := g.rt
	ctor, _ := goja.AssertConstructor(orig)
	w := rt.ToValue(func(c goja.ConstructorCall) *goja.Object {
		args := check(c.Arguments)
		o, err := ctor(c.NewTarget, args...)
		if err != nil {
			panic(err)
		}
		return o
	}).(*goja.Object)
	_ = w.SetPrototype(orig)
	proto, _ := orig.Get("prototype").(*goja.Object)
	_ = w.DefineDataProperty("prototype", proto, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE)
	_ = w.DefineDataProperty("name", orig.Get("name"), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	_ = w.DefineDataProperty("length", orig.Get("length"), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	if proto != nil {
		_ = proto.DefineDataProperty("constructor", w, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	}
	return w
}
