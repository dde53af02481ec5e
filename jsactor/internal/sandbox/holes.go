package sandbox

import (
	"reflect"
	"sync"
	"unsafe"

	"github.com/dop251/goja"
	"github.com/dop251/goja/unistring"
)

// goja builds the methods of its prototypes from shared templates, one
// function object (about 700 bytes) the first time each is reached. Its
// API has no way to remove a method without reaching it: Get, Delete and
// DefineProperty all build the original first. Taking the guarded methods
// away that way cost every actor twenty-odd function objects it threw
// away at once, which doubled the time to spawn a JS actor.
//
// So where goja's objects are laid out as this package expects, the
// guarded names are punched out of the object the way goja's own delete
// leaves them (a nil entry in its values, the name gone from its list of
// names) without building anything, and an original is built from its
// template only when its guard is first built. The layout is read by
// reflection, checked field by field and type by type, once per concrete
// type; then the fields are used as the ordinary Go maps and slices they
// are. It is also tried once per process on a scratch Runtime
// (holesWork). Where either check fails (another goja version), the
// guards fall back to the public API: slower, and the same to the script.
// TestHolesWork pins that the fast path is taken with the goja in go.mod.

// Types of the fields read, as goja declares them (the template's
// factories are func(*Runtime) Value under another name).
type (
	propValues = map[unistring.String]goja.Value
	propNames  = []unistring.String
	propMakers = map[unistring.String]func(*goja.Runtime) goja.Value
)

// templated is one of goja's templated objects, seen through its fields.
type templated struct {
	values    *propValues // the object's own properties; nil is deleted
	names     *propNames  // their order; nil until first listed
	tmplNames propNames   // the template's names, shared by every Runtime
	tmplProps propMakers  // the template's properties, built on demand
}

// implLayout is where a concrete type of goja's object implementations
// keeps what templated reads: field index paths, nil if it is not a
// templated object.
type implLayout struct {
	values, names, tmpl, tmplNames, tmplProps []int
}

var (
	selfField   = sync.OnceValue(findSelf)
	implLayouts sync.Map // reflect.Type → *implLayout
)

// findSelf is the index of goja.Object's implementation, an interface.
func findSelf() []int {
	f, ok := reflect.TypeFor[goja.Object]().FieldByName("self")
	if !ok || f.Type.Kind() != reflect.Interface {
		return nil
	}
	return f.Index
}

// fieldOf is the index path of name in t if it has type want.
func fieldOf(t reflect.Type, name string, want reflect.Type) []int {
	f, ok := t.FieldByName(name)
	if !ok || f.Type != want {
		return nil
	}
	return f.Index
}

// layoutOf reads (once per type) where impl, a struct type, keeps the
// fields templated needs.
func layoutOf(impl reflect.Type) *implLayout {
	if l, ok := implLayouts.Load(impl); ok {
		return l.(*implLayout)
	}
	var l *implLayout
	if tf, ok := impl.FieldByName("tmpl"); ok && tf.Type.Kind() == reflect.Pointer && tf.Type.Elem().Kind() == reflect.Struct {
		tt := tf.Type.Elem()
		c := &implLayout{
			values:    fieldOf(impl, "values", reflect.TypeFor[propValues]()),
			names:     fieldOf(impl, "propNames", reflect.TypeFor[propNames]()),
			tmpl:      tf.Index,
			tmplNames: fieldOf(tt, "propNames", reflect.TypeFor[propNames]()),
		}
		if pf, ok := tt.FieldByName("props"); ok && pf.Type.Kind() == reflect.Map &&
			pf.Type.Key() == reflect.TypeFor[unistring.String]() && pf.Type.Elem().ConvertibleTo(reflect.TypeFor[func(*goja.Runtime) goja.Value]()) &&
			pf.Type.Elem().Kind() == reflect.Func {
			c.tmplProps = pf.Index
		}
		if c.values != nil && c.names != nil && c.tmplNames != nil && c.tmplProps != nil {
			l = c
		}
	}
	implLayouts.Store(impl, l)
	return l
}

// addr is the address of the field at index in the addressable struct v.
func addr(v reflect.Value, index []int) unsafe.Pointer {
	return unsafe.Pointer(v.FieldByIndex(index).UnsafeAddr())
}

// viewTemplated sees o through its fields: ok is false unless o is one of
// goja's templated objects.
func viewTemplated(o *goja.Object) (t templated, ok bool) {
	self := selfField()
	if self == nil || o == nil {
		return t, false
	}
	impl := reflect.ValueOf(o).Elem().FieldByIndex(self)
	if impl.IsNil() || impl.Elem().Kind() != reflect.Pointer || impl.Elem().Elem().Kind() != reflect.Struct {
		return t, false
	}
	s := impl.Elem().Elem()
	l := layoutOf(s.Type())
	if l == nil {
		return t, false
	}
	tmpl := s.FieldByIndex(l.tmpl)
	if tmpl.IsNil() {
		return t, false
	}
	tv := tmpl.Elem()
	return templated{
		values:    (*propValues)(addr(s, l.values)),
		names:     (*propNames)(addr(s, l.names)),
		tmplNames: *(*propNames)(addr(tv, l.tmplNames)),
		tmplProps: *(*propMakers)(addr(tv, l.tmplProps)),
	}, true
}

// punch removes names from the object as goja's delete would, building
// none of them. It changes nothing and reports false unless the object's
// names were not listed yet (as a fresh Runtime's are), and every name is
// in the template and was not built yet.
func (t templated) punch(guards []protoGuard) bool {
	if *t.names != nil || *t.values == nil {
		return false
	}
	for _, pg := range guards {
		if _, built := (*t.values)[unistring.String(pg.name)]; built || t.tmplProps[unistring.String(pg.name)] == nil {
			return false
		}
	}
	kept := make(propNames, 0, len(t.tmplNames))
	for _, n := range t.tmplNames {
		if !guarding(guards, string(n)) {
			kept = append(kept, n)
		}
	}
	*t.names = kept
	for _, pg := range guards {
		(*t.values)[unistring.String(pg.name)] = nil // goja's "white hole": deleted from a template
	}
	return true
}

// guarding reports whether name is one of guards.
func guarding(guards []protoGuard, name string) bool {
	for i := range guards {
		if guards[i].name == name {
			return true
		}
	}
	return false
}

// original builds name's value from the template, as goja would on first
// reaching it, without putting it on the object, and returns the Go
// implementation of the function it is.
func (t templated) original(rt *goja.Runtime, name string) native {
	build := t.tmplProps[unistring.String(name)]
	if build == nil {
		return nil
	}
	v := reflect.ValueOf(build(rt))
	if v.Kind() == reflect.Pointer && v.Elem().Kind() == reflect.Struct { // a property: its value
		f := v.Elem().FieldByName("value")
		if !f.IsValid() || f.Type() != reflect.TypeFor[goja.Value]() {
			return nil
		}
		v = reflect.ValueOf(*(*goja.Value)(unsafe.Pointer(f.UnsafeAddr())))
	}
	if !v.IsValid() || !v.CanInterface() {
		return nil
	}
	o, _ := v.Interface().(*goja.Object)
	if o == nil {
		return nil
	}
	fn, _ := o.Export().(native)
	return fn
}

// holesWork reports whether punch and original work with the goja linked
// in, tried once on a scratch Runtime: what the script then sees of a
// punched name must be what it sees after delete.
var holesWork = sync.OnceValue(func() bool {
	defer func() { _ = recover() }() // a layout misread fails the check, nothing else
	rt := goja.New()
	proto := rt.ToValue("").ToObject(rt).Prototype()
	t, ok := viewTemplated(proto)
	if !ok || !t.punch([]protoGuard{{name: "repeat"}, {name: "padEnd"}}) {
		return false
	}
	repeat := t.original(rt, "repeat")
	if repeat == nil || repeat(goja.FunctionCall{This: rt.ToValue("ab"), Arguments: []goja.Value{rt.ToValue(2)}}).String() != "abab" {
		return false
	}
	v, err := rt.RunString(`(() => {
		const p = String.prototype, names = Object.getOwnPropertyNames(p);
		const gone = (n) => !p.hasOwnProperty(n) && !(n in p) && !names.includes(n) && p[n] === undefined &&
			Object.getOwnPropertyDescriptor(p, n) === undefined && !Object.keys(Object.getOwnPropertyDescriptors(p)).includes(n);
		const ok = gone('repeat') && gone('padEnd') && names.includes('padStart') && 'x'.padStart(2, '-') === '-x';
		p.repeat = 1;
		return ok && Object.getOwnPropertyNames(p).includes('repeat') && ''.repeat === 1 && delete p.repeat && gone('repeat');
	})()`)
	return err == nil && v.ToBoolean()
})
