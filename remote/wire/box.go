package wire

import (
	"sync/atomic"
	"unsafe"
)

// boxSlabBytes is about how much memory one slab of boxes takes: a
// decoded message its receiver keeps keeps at most that much alive.
const boxSlabBytes = 1024

// boxes hands out interface values holding decoded messages of type T
// from shared slabs: converting a T of more than a word to any allocates
// a copy of it, one allocation per message; a slab makes that one per
// slab. Safe for concurrent use: each slot is claimed by an atomic add,
// written once, then only read through the interface.
type boxes[T any] struct {
	cur  atomic.Pointer[boxSlab[T]]
	typ  unsafe.Pointer // T's type word in an interface
	per  int32          // slots per slab
	used bool           // T is boxed by pointer, so slabs apply
}

type boxSlab[T any] struct {
	next atomic.Int32
	v    []T
}

// eface is the layout of an interface value with no methods.
type eface struct {
	typ, data unsafe.Pointer
}

// newBoxes returns the boxes of T. A T of one word or less (which may be
// stored in the interface itself) or of more than an eighth of a slab is
// boxed the ordinary way.
func newBoxes[T any]() *boxes[T] {
	var zero T
	size := unsafe.Sizeof(zero)
	b := &boxes[T]{}
	if size <= unsafe.Sizeof(uintptr(0)) || size > boxSlabBytes/8 {
		return b
	}
	z := any(zero)
	b.typ, b.per, b.used = (*eface)(unsafe.Pointer(&z)).typ, int32(boxSlabBytes/size), true
	return b
}

// box returns v as an interface value.
func (b *boxes[T]) box(v T) any {
	if !b.used {
		return v
	}
	for {
		s := b.cur.Load()
		if s != nil {
			if i := s.next.Add(1) - 1; i < b.per {
				s.v[i] = v
				var out any
				e := (*eface)(unsafe.Pointer(&out))
				e.typ, e.data = b.typ, unsafe.Pointer(&s.v[i])
				return out
			}
		}
		b.cur.CompareAndSwap(s, &boxSlab[T]{v: make([]T, b.per)})
	}
}
