package sandbox

import (
	"testing"

	"github.com/dop251/goja"
)

// TestHolesWork pins that the goja in go.mod has the layout holes.go
// reads: a goja upgrade that changes it turns the guards' fast path off
// (correct, but spawning a JS actor twice as slow), and this test says so.
func TestHolesWork(t *testing.T) {
	if !holesWork() {
		t.Fatal("punching guarded names out of goja's templates does not work with this goja: installLazy falls back to building every original")
	}
}

// A fresh guard punches the templated prototypes (nothing built) and
// builds an original only when its guard is built, and the Array
// constructor only when it is reached (map looks up the constructor for
// its species); objects that are not templated, or whose names were
// listed already, are left alone.
func TestPunchOnlyFreshTemplates(t *testing.T) {
	rt := goja.New()
	g := NewMemGuard(rt, rt.GlobalObject(), 1<<20)
	if g.repeat != nil || g.fill != nil || g.keys != nil {
		t.Fatal("originals built at installation")
	}
	if g.array != nil || g.from != nil {
		t.Fatal("the Array constructor was built at installation")
	}
	if _, err := rt.RunString(`'ab'.repeat(2); [1].fill(0); [1].map(x => x)`); err != nil {
		t.Fatal(err)
	}
	if g.repeat == nil || g.fill == nil || g.keys != nil || g.array == nil {
		t.Fatalf("after use: repeat %v fill %v keys %v Array %v", g.repeat != nil, g.fill != nil, g.keys != nil, g.array != nil)
	}
	proto := rt.ToValue("").ToObject(rt).Prototype()
	v, ok := viewTemplated(proto)
	if !ok || v.punch([]protoGuard{{name: "padStart"}}) {
		t.Fatal("punched an object whose names were listed already")
	}
	if _, ok := viewTemplated(rt.NewObject()); ok {
		t.Fatal("a plain object taken for a templated one")
	}
}

// throwRange needs the original repeat even when no script reached it.
func TestThrowRangeBeforeRepeatBuilt(t *testing.T) {
	rt := goja.New()
	_ = NewMemGuard(rt, rt.GlobalObject(), 1<<20)
	v, err := rt.RunString(`(() => { try { [].fill.call({ length: 1e12 }, 0); return 'no throw' } catch (e) { return e instanceof RangeError ? 'ok' : String(e) } })()`)
	if err != nil || v.String() != "ok" {
		t.Fatalf("%v %v", v, err)
	}
}
