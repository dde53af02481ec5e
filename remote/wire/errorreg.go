package wire

import (
	"errors"
	"fmt"
	"reflect"
)

// Errors that cross the wire. A handler's error reaches the other node as
// its text; for it to arrive as itself, so that errors.Is and errors.As
// work on the caller's side as they do locally, register it on every
// node, under the same name:
//
//   - an error value (a sentinel such as io.EOF) with
//     [Registry.RegisterError];
//   - an error type (a struct implementing error, say *LimitError) as a
//     message type, with [Register], [RegisterCBOR] or [RegisterFuncs]:
//     a registered type that implements error travels as itself when it
//     is in an error's chain.
//
// [Registry.ErrorCauses] finds the registered errors in an error's chain,
// also when wrapped with %w (or joined), and [Registry.DecodeCauses]
// turns them back into errors; package remote calls both, so that a
// remote error wraps them.

// sentinel is a registered error value.
type sentinel struct {
	name string
	err  error
}

// RegisterError registers the error value err (a sentinel, compared with
// errors.Is) under name. Names share one space with message types and are
// part of the wire format: keep them stable. Registering a value or a
// name twice fails with [ErrDuplicate]; a value errors.Is cannot match
// (not comparable) with [ErrUnsupported].
func (r *Registry) RegisterError(name string, err error) error {
	if name == "" || err == nil {
		return fmt.Errorf("%w: RegisterError needs a name and an error", ErrUnsupported)
	}
	if !reflect.TypeOf(err).Comparable() {
		return fmt.Errorf("%w: error value %q of type %T is not comparable, so errors.Is never matches it: register its type", ErrUnsupported, err, err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	old := r.load()
	if _, ok := old.byName[name]; ok {
		return fmt.Errorf("%w: name %q already taken", ErrDuplicate, name)
	}
	for _, s := range old.sentinels {
		if s.name == name {
			return fmt.Errorf("%w: name %q already taken", ErrDuplicate, name)
		}
		if s.err == err {
			return fmt.Errorf("%w: error %q already registered as %q", ErrDuplicate, err, s.name)
		}
	}
	next := *old
	next.sentinels = append(append([]sentinel(nil), old.sentinels...), sentinel{name: name, err: err})
	r.tables.Store(&next)
	return nil
}

// sentinelNamed returns the registered error value named name.
func (t *tables) sentinelNamed(name string) error {
	for _, s := range t.sentinels {
		if s.name == name {
			return s.err
		}
	}
	return nil
}

// ErrorCauses returns the registered errors in err's chain: each
// registered error value err matches (errors.Is), then each error of a
// registered type found unwrapping it (Unwrap() error and Unwrap()
// []error, depth first), encoded. An error value of a registered type
// that fails to encode is left out. Nil if there are none.
func (r *Registry) ErrorCauses(err error) []Cause {
	if err == nil {
		return nil
	}
	t := r.load()
	var causes []Cause
	for _, s := range t.sentinels {
		if errors.Is(err, s.err) {
			causes = append(causes, Cause{Name: s.name})
		}
	}
	if len(t.byType) == 0 {
		return causes
	}
	walkErrors(err, func(e error) {
		c := t.byType[reflect.TypeOf(e)]
		if c == nil {
			return
		}
		if body, err := c.safeMarshal(nil, e); err == nil {
			causes = append(causes, Cause{Name: c.name, Body: body})
		}
	})
	return causes
}

// maxErrorDepth bounds how many errors of a chain ErrorCauses visits: a
// chain is short, and a cyclic one must not hang a node.
const maxErrorDepth = 64

// walkErrors calls fn on err and every error it wraps, depth first.
func walkErrors(err error, fn func(error)) {
	stack := []error{err}
	for seen := 0; len(stack) > 0 && seen < maxErrorDepth; seen++ {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if e == nil {
			continue
		}
		fn(e)
		switch u := e.(type) {
		case interface{ Unwrap() error }:
			stack = append(stack, u.Unwrap())
		case interface{ Unwrap() []error }:
			errs := u.Unwrap()
			for i := len(errs) - 1; i >= 0; i-- {
				stack = append(stack, errs[i])
			}
		}
	}
}

// DecodeCauses turns causes back into errors: a registered error value
// as itself, a registered error type decoded. A cause whose name is not
// registered here, which does not decode, or whose type is not an error
// is left out and reported in skipped, so that the caller can say so;
// the error's text still travels.
func (r *Registry) DecodeCauses(causes []Cause) (errs []error, skipped []error) {
	t := r.load()
	for _, c := range causes {
		if s := t.sentinelNamed(c.Name); s != nil {
			errs = append(errs, s)
			continue
		}
		codec := t.byName[c.Name]
		if codec == nil {
			skipped = append(skipped, fmt.Errorf("%w: error %q", ErrUnknownType, c.Name))
			continue
		}
		v, err := codec.decode(c.Body)
		if err != nil {
			skipped = append(skipped, err)
			continue
		}
		e, ok := v.(error)
		if !ok {
			skipped = append(skipped, fmt.Errorf("%w: %q is not an error type", ErrUnsupported, c.Name))
			continue
		}
		errs = append(errs, e)
	}
	return errs, skipped
}
