package goja

// troupe patch: interruptible native loops (see README.md in this
// directory).
//
// Runtime.Interrupt is seen by the VM between two instructions, but a
// builtin runs as one instruction: Array.prototype.includes over an
// array-like {length: 2 ** 53 - 1}, lastIndexOf, reverse, splice or shift
// over a sparse array of length 2^32-1, String.raw with a huge
// raw.length, a global replace with thousands of slow matches, each ran
// in Go to the end, for hours, whatever the interrupt said. Every loop of
// a builtin whose count the script controls (every for loop but those
// ranging over a Go slice the Runtime already holds) now looks at the
// interrupt flag on each pass and raises the interrupt from there, as
// the VM would.

import "sync/atomic"

// maxToStringNesting bounds the nesting of arrays that join and
// toLocaleString walk, recursing in Go for each level (upstream: 2e5
// nested arrays took 26 s, each level scanning the stack of those above).
const maxToStringNesting = 1000

// interruptPoint raises the Runtime's interrupt, if there is one, from
// inside a builtin.
func (r *Runtime) interruptPoint() {
	if atomic.LoadUint32(&r.vm.interrupted) != 0 {
		r.vm.raiseInterrupt()
	}
}

// raiseInterrupt panics with the InterruptedError the VM's run loop
// raises when it sees the flag.
func (vm *vm) raiseInterrupt() {
	vm.interruptLock.Lock()
	v := &InterruptedError{iface: vm.interruptVal}
	v.stack = vm.captureStack(nil, 0)
	vm.interruptLock.Unlock()
	panic(v)
}
