package sandbox

import (
	"reflect"
	"sync"
	"unsafe"

	"github.com/dop251/goja"
)

// goja drops its value stack whenever a top-level call returns (Runtime
// leave sets vm.stack to nil), so every macrotask of a JS actor, a timer
// callback, an immediate, a handler, grows a new stack from nothing: two
// to four allocations, about 190 bytes, a third of a setImmediate step's
// time on this machine (BenchmarkGojaCallFloor against
// BenchmarkGojaCallNestedFloor). A StackKeeper lends goja a stack of its
// own before a top-level call, which goja uses until it needs more, and
// clears it after, so nothing the turn left there outlives it.
//
// goja does not export the field: it is found by reflection, its type
// checked, once per process. With another goja, where the field is not
// found or the stack is not dropped, a StackKeeper does nothing.

// keptSlots is the length of the lent stack: enough for a callback or a
// handler of a few arguments that calls a few functions deep. Each slot
// is 16 bytes of every JS actor, idle or not; a turn that needs more
// grows a stack of its own, as without a StackKeeper. The js benchmarks'
// callbacks and handlers allocate no stack with 8 (go test -bench
// 'SetImmediateChain|SetTimeoutChain|BenchmarkAsk$' -benchmem ./jsactor/).
const keptSlots = 16

// StackKeeper lends a Runtime's VM a value stack between top-level calls.
// Its zero value does nothing; Keep binds it to a Runtime. It is used on
// the Runtime's goroutine only.
type StackKeeper struct {
	slot *[]goja.Value // the VM's stack field, or nil
	buf  [keptSlots]goja.Value
}

// vmStackField says where a Runtime's VM keeps its stack: the offsets of
// Runtime.vm and of vm.stack, found once; ok is false if goja's layout is
// not the expected one.
var vmStackField = sync.OnceValue(func() (f struct {
	vmOff, stackOff uintptr
	ok              bool
}) {
	vmf, ok := reflect.TypeFor[goja.Runtime]().FieldByName("vm")
	if !ok || vmf.Type.Kind() != reflect.Pointer || vmf.Type.Elem().Kind() != reflect.Struct {
		return f
	}
	sf, ok := vmf.Type.Elem().FieldByName("stack")
	if !ok || sf.Type.Kind() != reflect.Slice || sf.Type.Elem() != reflect.TypeFor[goja.Value]() {
		return f
	}
	f.vmOff, f.stackOff, f.ok = vmf.Offset, sf.Offset, true
	return f
})

// Keep binds k to rt's VM. With a goja whose layout is not the expected
// one, k stays inert. k must not be copied afterwards.
func (k *StackKeeper) Keep(rt *goja.Runtime) {
	f := vmStackField()
	if !f.ok {
		return
	}
	vm := *(*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(rt), f.vmOff))
	if vm != nil {
		k.slot = (*[]goja.Value)(unsafe.Add(vm, f.stackOff))
	}
}

// Lend gives the VM the kept stack if it has none, that is, before a
// top-level call.
func (k *StackKeeper) Lend() {
	if k.slot != nil && cap(*k.slot) == 0 {
		*k.slot = k.buf[:0]
	}
}

// Reclaim clears the kept stack after the top-level calls of a turn have
// returned, so the values they left there can be collected.
// A call that goja aborted (an interrupt) leaves the VM its stack: then
// the VM still uses the kept one, and it is left alone.
func (k *StackKeeper) Reclaim() {
	if k.slot == nil {
		return
	}
	if s := *k.slot; cap(s) > 0 && &s[:1][0] == &k.buf[0] {
		return
	}
	clear(k.buf[:])
}
