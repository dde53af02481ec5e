package actortest

import (
	"fmt"
	"reflect"
	"unsafe"
)

// Typed answers for probes that stand in for generated actors. A generated
// actor's messages are values of unexported struct types, one field per
// parameter of its handler in order; a test in another package builds them
// with the generated XMessages (AccountMessages{}.Deposit(0)) but cannot
// read their fields. The Answer functions take such a message as the
// pattern, check once, at the call, that its parameters are of the types
// given, and hand them to fn typed; fn's result is the reply, typed as the
// ask expects it (an ask of another type fails with [actor.ErrNoReply]).
//
// Answers are matched by the message's type, whatever its arguments; an
// answer set later for the same type replaces the earlier one, and
// [Probe.Reply]'s function answers the messages no answer matches. fn runs
// on the probe's loop. Set answers before the asks they answer are sent.

// Answer makes p answer the asks of like's message type, which has no
// parameters, with fn's result.
func Answer[R any](p *Probe, like any, fn func() (R, error)) {
	p.s.t.Helper()
	p.answer(like, 0, func([]reflect.Value) (any, error) { return fn() })
}

// Answer1 makes p answer the asks of like's message type, whose one
// parameter is an A, with fn's result for the ask's argument.
func Answer1[A, R any](p *Probe, like any, fn func(A) (R, error)) {
	p.s.t.Helper()
	p.answer(like, 1, func(a []reflect.Value) (any, error) { return fn(arg[A](a[0])) }, typeOf[A]())
}

// Answer2 makes p answer the asks of like's message type, whose
// parameters are an A and a B, with fn's result for the ask's arguments.
func Answer2[A, B, R any](p *Probe, like any, fn func(A, B) (R, error)) {
	p.s.t.Helper()
	p.answer(like, 2, func(a []reflect.Value) (any, error) {
		return fn(arg[A](a[0]), arg[B](a[1]))
	}, typeOf[A](), typeOf[B]())
}

// Answer3 makes p answer the asks of like's message type, whose
// parameters are an A, a B and a C, with fn's result for the ask's
// arguments.
func Answer3[A, B, C, R any](p *Probe, like any, fn func(A, B, C) (R, error)) {
	p.s.t.Helper()
	p.answer(like, 3, func(a []reflect.Value) (any, error) {
		return fn(arg[A](a[0]), arg[B](a[1]), arg[C](a[2]))
	}, typeOf[A](), typeOf[B](), typeOf[C]())
}

// AnswerArgs makes p answer the asks of like's message type with fn's
// result for the ask's arguments, in order, untyped: for messages of more
// than three parameters.
func AnswerArgs[R any](p *Probe, like any, fn func(args []any) (R, error)) {
	p.s.t.Helper()
	n := -1
	if t := reflect.TypeOf(like); t != nil && t.Kind() == reflect.Struct {
		n = t.NumField()
	}
	p.answer(like, n, func(a []reflect.Value) (any, error) {
		args := make([]any, len(a))
		for i, v := range a {
			args[i] = v.Interface()
		}
		return fn(args)
	})
}

// MessageArgs returns the arguments a generated message carries, in the
// order of its handler's parameters; nil if msg is not a struct.
func MessageArgs(msg any) []any {
	fields := fieldsOf(reflect.ValueOf(msg))
	args := make([]any, len(fields))
	for i, f := range fields {
		args[i] = f.Interface()
	}
	return args
}

// answer checks like (a message with n parameters of the types want, if
// given) and records call as the answer to its type.
func (p *Probe) answer(like any, n int, call func([]reflect.Value) (any, error), want ...reflect.Type) {
	p.s.t.Helper()
	t := reflect.TypeOf(like)
	if err := checkPattern(t, n, want); err != nil {
		p.s.t.Fatalf("actortest: probe %s: answer %s: %v", p.ref.ID(), describe(like), err)
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.answers == nil {
		p.answers = map[reflect.Type]func(any) (any, error){}
	}
	p.answers[t] = func(msg any) (any, error) { return call(fieldsOf(reflect.ValueOf(msg))) }
}

// checkPattern says what is wrong with a pattern message of type t for
// an answer of n parameters of the types want (each may be an interface
// the parameter implements).
func checkPattern(t reflect.Type, n int, want []reflect.Type) error {
	if t == nil || t.Kind() != reflect.Struct {
		return fmt.Errorf("want a message built with the generated Messages builder, got %v", t)
	}
	if t.NumField() != n {
		return fmt.Errorf("the message has %d parameter(s), the answer takes %d", t.NumField(), n)
	}
	for i, w := range want {
		if f := t.Field(i); !f.Type.AssignableTo(w) {
			return fmt.Errorf("parameter %d (%s) is a %v, the answer takes a %v", i+1, f.Name, f.Type, w)
		}
	}
	return nil
}

// fieldsOf returns the fields of the struct v, readable whether exported
// or not: a copy is made addressable, and each field read through its
// address (reflect refuses Interface on an unexported field otherwise).
func fieldsOf(v reflect.Value) []reflect.Value {
	if v.Kind() != reflect.Struct {
		return nil
	}
	c := reflect.New(v.Type()).Elem()
	c.Set(v)
	out := make([]reflect.Value, c.NumField())
	for i := range out {
		f := c.Field(i)
		out[i] = reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
	}
	return out
}

// arg returns v as an A (checked by checkPattern); a nil interface stays
// A's zero value.
func arg[A any](v reflect.Value) A {
	var a A
	if x := v.Interface(); x != nil {
		a = x.(A)
	}
	return a
}

func typeOf[T any]() reflect.Type { return reflect.TypeFor[T]() }
