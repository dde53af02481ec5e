package sandbox

import (
	"fmt"
	"runtime"
	"sync"
	"testing"

	"github.com/dop251/goja"
)

// TestTemplatesPatched pins that the goja in go.mod has the layout
// templates.go reads: a goja upgrade that changes it turns the fast path
// off (still correct, but spawning a JS actor much slower), and this
// test says so.
func TestTemplatesPatched(t *testing.T) {
	if !TemplatesPatched() {
		t.Fatal("goja's templates could not be patched: the guards fall back to building every original at installation")
	}
}

// On the fast path nothing is built at installation: an original is taken
// (and its guard built) when the script first reaches its name, and the
// Array constructor when it is first reached (map looks up the
// constructor for its species).
func TestGuardsBuiltOnFirstReach(t *testing.T) {
	rt := goja.New()
	g := NewMemGuard(rt, rt.GlobalObject(), 1<<20)
	if g.repeat != nil || g.fill != nil || g.keys != nil || g.array != nil || g.from != nil {
		t.Fatal("originals built at installation")
	}
	if _, err := rt.RunString(`'ab'.repeat(2); [1].fill(0); [1].map(x => x)`); err != nil {
		t.Fatal(err)
	}
	if g.repeat == nil || g.fill == nil || g.keys != nil || g.array == nil {
		t.Fatalf("after use: repeat %v fill %v keys %v Array %v", g.repeat != nil, g.fill != nil, g.keys != nil, g.array != nil)
	}
}

// A guard looks to a script like the builtin it replaces, on either path:
// attributes, name and length, prototype chain, deletion, assignment.
func TestGuardsLookLikeBuiltins(t *testing.T) {
	const src = `(() => {
		const checks = {
			attributes: () => { ''.repeat; const d = Object.getOwnPropertyDescriptor(String.prototype, 'repeat'); return d.writable && !d.enumerable && d.configurable },
			nameLength: () => ''.padEnd.name === 'padEnd' && ''.padEnd.length === 1 && [].concat.length === 1 && Function.prototype.apply.length === 2 && Object.keys.name === 'keys',
			chain: () => Object.getPrototypeOf(String.prototype) === Object.prototype && Object.getPrototypeOf(Array.prototype) === Object.prototype,
			ownBeforeUse: () => String.prototype.hasOwnProperty('padStart') && Object.getOwnPropertyNames(Array.prototype).includes('flat'),
			notEnumerable: () => !Object.keys(String.prototype).includes('repeat') && !Object.keys(Object).includes('keys'),
			assign: () => { String.prototype.padStart = function () { return 'mine' }; return 'x'.padStart(3) === 'mine' },
			remove: () => { delete Array.prototype.flat; return [].flat === undefined },
			same: () => 'a'.split === 'b'.split && [].map === [].map,
			constructor: () => [].constructor === Array && Array.prototype.constructor === Array && Object.prototype.constructor === Object,
			ctors: () => Object.getPrototypeOf(Map) === Function.prototype && Map.prototype.constructor === Map && new Map() instanceof Map &&
				Object.getPrototypeOf(Uint8Array) === Object.getPrototypeOf(Int8Array) && Uint8Array.name === 'Uint8Array' && Uint8Array.length === 3,
		};
		const failed = Object.keys(checks).filter((k) => !checks[k]());
		return failed.join();
	})()`
	for _, fast := range []bool{true, false} {
		t.Run(fmt.Sprint("fast=", fast), func(t *testing.T) {
			rt := goja.New()
			g := &MemGuard{rt: rt, orig: rt.GlobalObject(), budget: 1 << 20}
			g.installLazy(fast && TemplatesPatched())
			for _, name := range []string{"Array", "Map", "Uint8Array", "Int8Array"} {
				_ = rt.Set(name, g.Global(name))
			}
			v, err := rt.RunString(src)
			if err != nil {
				t.Fatal(err)
			}
			want := ""
			if !fast {
				want = "chain,ownBeforeUse,remove,ctors" // the fallback's documented differences: not own until looked up, constructors wrapped
			}
			if v.String() != want {
				t.Fatalf("failed checks %q, want %q", v.String(), want)
			}
		})
	}
}

// Runtimes with and without guards, made and used from many goroutines
// at once, each get what they should: the registry and the patched
// templates are safe to share.
func TestTemplatesConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := range 64 {
		wg.Go(func() {
			rt := goja.New()
			guarded := i%2 == 0
			var g *MemGuard
			if guarded {
				g = NewMemGuard(rt, rt.GlobalObject(), 1<<16)
			}
			v, err := rt.RunString(`(() => { try { 'ab'.repeat(1 << 20); return false } catch (e) { return e instanceof RangeError } })()`)
			runtime.KeepAlive(g)
			if err != nil || v.ToBoolean() != guarded {
				errs <- fmt.Errorf("runtime %d (guarded %v): refused %v, err %v", i, guarded, v, err)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestRegistryDropsCollectedGuards: a guard's entry goes with it, and a
// live guard is found by its Runtime only.
func TestRegistryDropsCollectedGuards(t *testing.T) {
	size := func() int {
		registry.RLock()
		defer registry.RUnlock()
		return len(registry.guards)
	}
	base := size()
	live := &MemGuard{rt: goja.New(), budget: 1}
	register(live)
	for range 1000 {
		register(&MemGuard{rt: goja.New(), budget: 1})
	}
	if guardOf(live.rt) != live || guardOf(goja.New()) != nil {
		t.Fatal("guardOf does not find the live guard by its Runtime alone")
	}
	for i := 0; size() > base+1 && i < 500; i++ {
		runtime.GC() // cleanups run after a collection, on their own goroutine
		runtime.Gosched()
	}
	if n := size(); n > base+1 {
		t.Fatalf("%d entries left for one live guard", n-base)
	}
	runtime.KeepAlive(live)
}
