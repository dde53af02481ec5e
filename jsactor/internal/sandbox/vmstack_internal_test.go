package sandbox

import (
	"runtime"
	"testing"
	"weak"

	"github.com/dop251/goja"
)

// stepScript is a chain step as the js suite runs it: a counter, and one
// native call per step.
const stepScript = `let i = 0; const step = (x) => { if (++i >= 1e15) i = 0; else next(step, x); return i }; step`

func newStepRuntime(t *testing.T) (*goja.Runtime, goja.Callable) {
	t.Helper()
	rt := goja.New()
	_ = rt.Set("next", func(goja.FunctionCall) goja.Value { return goja.Undefined() })
	v, err := rt.RunString(stepScript)
	if err != nil {
		t.Fatal(err)
	}
	fn, _ := goja.AssertFunction(v)
	return rt, fn
}

// TestStackKeeperBinds pins that the goja in go.mod has the layout
// vmstack.go reads: an upgrade that changes it leaves every turn of a JS
// actor allocating its stack again, and this test says so.
func TestStackKeeperBinds(t *testing.T) {
	var k StackKeeper
	k.Keep(goja.New())
	if k.slot == nil {
		t.Fatal("goja's VM stack was not found: every JS turn allocates its value stack again")
	}
}

// A top-level call with the stack lent allocates less than one without:
// goja's dropping its stack is what the keeper undoes.
func TestStackKeeperSavesAllocations(t *testing.T) {
	rt, step := newStepRuntime(t)
	arg := rt.ToValue(1)
	call := func() {
		if _, err := step(goja.Undefined(), arg); err != nil {
			t.Fatal(err)
		}
	}
	without := testing.AllocsPerRun(100, call)
	var k StackKeeper
	k.Keep(rt)
	with := testing.AllocsPerRun(100, func() { k.Lend(); call(); k.Reclaim() })
	if with > without-2 {
		t.Fatalf("allocations per call: %.1f with the stack kept, %.1f without", with, without)
	}
}

// What a call left on the lent stack can be collected once the turn is
// over: Reclaim clears it.
func TestStackKeeperKeepsNothingAlive(t *testing.T) {
	rt, step := newStepRuntime(t)
	var k StackKeeper
	k.Keep(rt)
	type payload struct{ b [1 << 16]byte }
	p := &payload{}
	wp := weak.Make(p)
	k.Lend()
	if _, err := step(goja.Undefined(), rt.ToValue(p)); err != nil {
		t.Fatal(err)
	}
	k.Reclaim()
	p = nil
	for range 3 {
		runtime.GC()
	}
	if wp.Value() != nil {
		t.Fatal("the argument of a finished call is still reachable")
	}
	runtime.KeepAlive(&k) // the keeper lives as long as its Runtime
	runtime.KeepAlive(rt)
}

// A call that goja aborts keeps the VM's stack (goja does not drop it
// then): the keeper leaves it to the VM, and later calls still work, with
// the stack lent again once goja has dropped it.
func TestStackKeeperAfterInterrupt(t *testing.T) {
	rt, step := newStepRuntime(t)
	var k StackKeeper
	k.Keep(rt)
	spin, err := rt.RunString(`(function () { for (;;) {} })`)
	if err != nil {
		t.Fatal(err)
	}
	spinFn, _ := goja.AssertFunction(spin)
	rt.Interrupt("stop") // taken by the next call, at its first instruction
	k.Lend()
	if _, err := spinFn(goja.Undefined()); err == nil {
		t.Fatal("the spin was not interrupted")
	}
	k.Reclaim()
	for want := int64(1); want <= 3; want++ {
		k.Lend()
		v, err := step(goja.Undefined(), rt.ToValue(want))
		k.Reclaim()
		if err != nil || v.ToInteger() != want {
			t.Fatalf("call %d after the interrupt: %v, %v", want, v, err)
		}
	}
}
