package goja

// troupe patch: NewDynamicObjectOf makes a dynamic object and its handler
// in one allocation. A host that hands scripts many short-lived dynamic
// objects (troupe's jsactor returns one from every setTimeout, as Node
// does) paid three allocations for each with NewDynamicObject: the
// Object, its dynamicObject and the handler.

// dynamicObjectOf is an Object, its dynamic implementation and its
// handler, allocated together.
type dynamicObjectOf[T any] struct {
	obj Object
	dyn dynamicObject
	v   T
}

// NewDynamicObjectOf returns a new Object backed by a new zero handler T
// (see NewDynamicObject; Export returns the handler) whose prototype is
// proto, and that handler. The Object and the handler are one
// allocation: the handler lives as long as the Object.
func NewDynamicObjectOf[T any, P interface {
	*T
	DynamicObject
}](r *Runtime, proto *Object) (*Object, P) {
	h := &dynamicObjectOf[T]{}
	p := P(&h.v)
	// Field by field, with no call since the allocation: the compiler
	// needs no write barriers for stores into a new object.
	h.obj.runtime = r
	h.obj.self = &h.dyn
	h.dyn.val = &h.obj
	h.dyn.prototype = proto
	h.dyn.d = p
	return &h.obj, p
}
