package sandbox

import (
	"reflect"
	"runtime"
	"sync"
	"unsafe"
	"weak"

	"github.com/dop251/goja"
	"github.com/dop251/goja/unistring"
)

// goja builds the methods of its prototypes lazily, from templates shared
// by every Runtime of the process: a template maps each name to a factory
// that builds the property (a function object of about 700 bytes) the
// first time a Runtime reaches it. goja's API has no way to replace a
// method without building it first (Get, Delete and DefineProperty all
// do), and replacing the guarded ones that way cost every JS actor
// twenty-odd function objects at spawn, most of them never used, which
// doubled the time to spawn one.
//
// So, once per process, the factories of the guarded names in goja's
// templates are wrapped: a Runtime that has a MemGuard registered gets the
// guard where goja would build the original (the original's Go
// implementation kept for the guard to call), built when its script
// first reaches it, with the original's attributes; any other Runtime
// gets goja's original, as before. A guard then looks to a script exactly
// like the builtin it replaces, and costs nothing until used.
//
// goja does not export its templates: they are reached by reflection,
// checked field by field and type by type, and tried on scratch Runtimes
// (patchTemplates). Where any check fails (another goja version), nothing
// is patched and the guards fall back to the public API (memguard_lazy.go):
// slower, and the same to the script but for a few documented details
// (TestGuardsLookLikeBuiltins lists them).
// TestTemplatesPatched pins that the goja in go.mod takes the fast path.

// propMakers is the type of a template's factories, as goja declares it
// (func(*Runtime) Value under another name).
type propMakers = map[unistring.String]func(*goja.Runtime) goja.Value

// templateOf is the address of the factory map of o's template, or nil
// unless o is one of goja's templated objects.
func templateOf(o *goja.Object) *propMakers {
	impl, ok := objectImpl(o)
	if !ok {
		return nil
	}
	tmpl := impl.FieldByName("tmpl")
	if !tmpl.IsValid() || tmpl.Kind() != reflect.Pointer || tmpl.IsNil() || tmpl.Elem().Kind() != reflect.Struct {
		return nil
	}
	props := tmpl.Elem().FieldByName("props")
	if !props.IsValid() || props.Kind() != reflect.Map || props.Type().Key() != reflect.TypeFor[unistring.String]() ||
		props.Type().Elem().Kind() != reflect.Func || !props.Type().Elem().ConvertibleTo(reflect.TypeFor[func(*goja.Runtime) goja.Value]()) {
		return nil
	}
	return (*propMakers)(unsafe.Pointer(props.UnsafeAddr()))
}

// objectImpl is the struct behind o (goja's implementation of the
// object, which its self field points to), addressable; ok is false
// unless o is laid out as expected.
func objectImpl(o *goja.Object) (impl reflect.Value, ok bool) {
	self, found := reflect.TypeFor[goja.Object]().FieldByName("self")
	if o == nil || !found || self.Type.Kind() != reflect.Interface {
		return reflect.Value{}, false
	}
	v := reflect.ValueOf(o).Elem().FieldByIndex(self.Index)
	if v.IsNil() || v.Elem().Kind() != reflect.Pointer || v.Elem().Elem().Kind() != reflect.Struct {
		return reflect.Value{}, false
	}
	return v.Elem().Elem(), true
}

// propertySlot is where the property value v (what a template's factory
// returns for a method: goja's property record) holds its value, or nil
// if v is not laid out as expected.
func propertySlot(v goja.Value) *goja.Value {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Elem().Kind() != reflect.Struct {
		return nil
	}
	f := rv.Elem().FieldByName("value")
	if !f.IsValid() || f.Type() != reflect.TypeFor[goja.Value]() {
		return nil
	}
	return (*goja.Value)(unsafe.Pointer(f.UnsafeAddr()))
}

// registry maps a Runtime, by address, to its MemGuard, held weakly: a
// guard holds its Runtime, so the Runtime's address is not reused while
// the guard lives; the guard's cleanup drops the entry unless a Runtime
// at the same address has registered since. (A sync.Map keyed by weak
// pointers cost every spawn two weak handles and a trie node, and every
// lookup a weak handle.)
var registry struct {
	sync.RWMutex
	guards map[uintptr]weak.Pointer[MemGuard]
}

func register(g *MemGuard) {
	at, wg := uintptr(unsafe.Pointer(g.rt)), weak.Make(g)
	registry.Lock()
	if registry.guards == nil {
		registry.guards = map[uintptr]weak.Pointer[MemGuard]{}
	}
	registry.guards[at] = wg
	registry.Unlock()
	runtime.AddCleanup(g, unregister, at)
}

func unregister(at uintptr) {
	registry.Lock()
	if registry.guards[at].Value() == nil {
		delete(registry.guards, at)
	}
	registry.Unlock()
}

// guardOf is r's MemGuard, or nil for a Runtime without one.
func guardOf(r *goja.Runtime) *MemGuard {
	registry.RLock()
	wg := registry.guards[uintptr(unsafe.Pointer(r))]
	registry.RUnlock()
	if g := wg.Value(); g != nil && g.rt == r {
		return g
	}
	return nil
}

// wrapFactory is the factory of pg's name: goja's (orig), then, for a
// Runtime with a guard, the guard put in the original's place.
func wrapFactory(orig func(*goja.Runtime) goja.Value, pg *protoGuard) func(*goja.Runtime) goja.Value {
	return func(r *goja.Runtime) goja.Value {
		v := orig(r)
		g := guardOf(r)
		if g == nil {
			return v
		}
		slot := propertySlot(v)
		if slot == nil { // checked by patchTemplates; never here
			return v
		}
		if pg.value != nil { // a property that is no guard: it guards what it holds
			pg.value(g)
			return v
		}
		o, _ := (*slot).(*goja.Object)
		if o == nil {
			return v
		}
		if pg.orig != nil {
			*pg.orig(g), _ = o.Export().(native)
		}
		*slot = g.guardFunc(pg)
		return v
	}
}

// TemplatesPatched reports whether the guards take the fast path.
func TemplatesPatched() bool { return patched }

// patched is set while the package initialises, before any goroutine of
// the program can be running a Runtime that reads a template as it
// changes. It costs the program a fraction of a millisecond, once.
var patched = patchTemplates()

// patchTemplates wraps the factories of every guarded name, each
// template's map replaced by a patched copy (the original map is never
// written, so a Runtime reading it meanwhile is unaffected), then checks
// the result on scratch Runtimes and undoes it all if anything is off.
func patchTemplates() (ok bool) {
	defer func() {
		if recover() != nil { // a layout misread fails the check, nothing else
			ok = false
		}
	}()
	rt := goja.New()
	type change struct {
		at         *propMakers
		old, fresh propMakers
	}
	var changes []change
	for _, gp := range guardedProtos {
		at := templateOf(gp.target(rt, rt.GlobalObject()))
		if at == nil {
			return false
		}
		fresh := make(propMakers, len(*at))
		for k, f := range *at {
			fresh[k] = f
		}
		for i := range gp.guards {
			pg := &gp.guards[i]
			orig := fresh[unistring.String(pg.name)]
			if orig == nil || propertySlot(orig(rt)) == nil {
				return false
			}
			fresh[unistring.String(pg.name)] = wrapFactory(orig, pg)
		}
		changes = append(changes, change{at, *at, fresh})
	}
	for _, c := range changes {
		*c.at = c.fresh
	}
	if !patchedWorks() {
		for _, c := range changes {
			*c.at = c.old
		}
		return false
	}
	return true
}

// patchedWorks tries the patched templates: a guarded Runtime refuses an
// allocation over its budget with guards that look like the builtins, and
// a Runtime without a guard gets goja's originals.
func patchedWorks() bool {
	check := goja.MustCompile("check", `(() => {
		const d = Object.getOwnPropertyDescriptor(String.prototype, 'repeat');
		const looks = d.writable && !d.enumerable && d.configurable && ''.repeat.name === 'repeat' && ''.repeat.length === 1 &&
			Object.getPrototypeOf(String.prototype) === Object.prototype && !Object.keys(String.prototype).includes('repeat');
		let refused = false;
		try { 'ab'.repeat(2 ** 12) } catch (e) { refused = e instanceof RangeError }
		return looks && 'ab'.repeat(2) === 'abab' && [1, 2].map((x) => x * 2).join() === '2,4' && Object.keys({ a: 1 }).join() === 'a' ? refused : 'broken';
	})()`, true)
	guarded := goja.New()
	g := &MemGuard{rt: guarded, orig: guarded.GlobalObject(), budget: 1024}
	register(g)
	v, err := guarded.RunProgram(check)
	runtime.KeepAlive(g)
	if err != nil || v.Export() != true {
		return false
	}
	plain := goja.New()
	v, err = plain.RunProgram(check)
	return err == nil && v.Export() == false
}
