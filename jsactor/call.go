package jsactor

import (
	"context"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/loop"
)

// Call is the message that invokes a named handler of a JS actor: the
// function module.exports[Method], called with Args (each converted to
// JavaScript, see the package doc). Its return value, or the value its
// promise fulfils with, answers an ask.
//
// Call is also what a JS actor sends with ref.tell(method, ...args) and
// ref.ask(method, ...args), so a Go actor talking with JS actors handles
// Call messages. Typed refs generated for a //troupe:js interface build
// Calls: its method Order(ctx, a, b) becomes Ask[R](ctx, sys, ref, "order",
// a, b), the handler's name being the method's with its first letter
// lowered unless a //troupe:js name=... comment sets it.
//
// Any other message reaches module.exports.receive(msg), converted.
type Call struct {
	// Method names the handler: the property of module.exports to call.
	Method string
	// Args are the handler's arguments, in order; each is converted to
	// JavaScript as the package doc says (a value that cannot cross fails
	// the call with ErrCannotCross).
	Args []any
}

// Tell sends Call{method, args} to the actor named to. Safe from any
// goroutine.
func Tell(sys *actor.System, to actor.Ref, method string, args ...any) error {
	return sys.Tell(to, Call{Method: method, Args: args})
}

// Ask sends Call{method, args} to the actor named to, waits for the reply
// (as [actor.Ask]) and decodes it into R (see [Decode]): a JS number
// answers an Ask[int], an object an Ask of a struct with json tags.
func Ask[R any](ctx context.Context, sys *actor.System, to actor.Ref, method string, args ...any) (R, error) {
	v, err := actor.Ask[any](ctx, sys, to, Call{Method: method, Args: args})
	if err != nil {
		var zero R
		return zero, err
	}
	return decodeAs[R](v)
}

// decodeAs is Decode into a new R. The common replies (a value of type R
// itself, or a JavaScript integer asked as an int) take a path that needs
// neither reflection nor R on the heap.
func decodeAs[R any](v any) (R, error) {
	if r, ok := v.(R); ok {
		return r, nil
	}
	var zero R
	if _, isInt := any(zero).(int); isInt {
		if n, ok := v.(int64); ok && int64(int(n)) == n {
			return any(int(n)).(R), nil
		}
	}
	return decodeSlow[R](v)
}

func decodeSlow[R any](v any) (R, error) {
	var out R
	err := Decode(v, &out)
	return out, err
}

// AskAsync is Ask for handlers: it returns a promise of the decoded reply,
// settled on the asking actor's loop (as [actor.AskAsync]).
func AskAsync[R any](c *actor.Context, to actor.Ref, method string, args ...any) *loop.Promise[R] {
	p := actor.AskAsync[any](c, to, Call{Method: method, Args: args})
	return loop.Then(p, decodeAs[R])
}
