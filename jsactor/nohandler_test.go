package jsactor_test

import (
	"errors"
	"testing"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/jsactor"
)

// A message no handler takes is dead-lettered with ErrNoHandler (which
// wraps actor.ErrUnhandled) as the reason, and logged once.
func TestNoHandlerDeadLetter(t *testing.T) {
	r := newRig(t)
	dead := make(chan actor.DeadLetter, 4)
	cancel := r.sys.SubscribeDeadLetters(func(d actor.DeadLetter) { dead <- d })
	defer cancel()
	ref := r.spawn("nh", `module.exports = { a() { return 1 } };`)
	if err := jsactor.Tell(r.sys, ref, "missing"); err != nil {
		t.Fatal(err)
	}
	r.call(ref, "a") // the tell was handled before this ask
	select {
	case d := <-dead:
		if d.To != ref || !errors.Is(d.Reason, jsactor.ErrNoHandler) || !errors.Is(d.Reason, actor.ErrUnhandled) {
			t.Fatalf("dead letter %+v", d)
		}
		if c, ok := d.Message.(jsactor.Call); !ok || c.Method != "missing" {
			t.Fatalf("dead letter message %#v", d.Message)
		}
	default:
		t.Fatal("no dead letter for a tell with no handler")
	}
	if _, err := jsactor.Ask[any](r.ctx(), r.sys, ref, "missing"); !errors.Is(err, jsactor.ErrNoHandler) {
		t.Fatalf("ask: %v", err)
	}
	if n := r.logs.FilterMessage("message not handled").Len() + r.logs.FilterMessageSnippet("handler failed").Len(); n != 2 {
		t.Fatalf("%d log lines for 2 unhandled messages", n)
	}
}

// A tell whose arguments cannot cross into JavaScript is not handled
// either: it is dead-lettered with ErrCannotCross as the reason.
func TestUncrossableTellDeadLetter(t *testing.T) {
	r := newRig(t)
	dead := make(chan actor.DeadLetter, 4)
	cancel := r.sys.SubscribeDeadLetters(func(d actor.DeadLetter) { dead <- d })
	defer cancel()
	ref := r.spawn("uc", `module.exports = { take(x) { return 1 } };`)
	if err := r.sys.Tell(ref, jsactor.Call{Method: "take", Args: []any{make(chan int)}}); err != nil {
		t.Fatal(err)
	}
	r.call(ref, "take", 1) // the tell was handled before this ask
	select {
	case d := <-dead:
		if d.To != ref || !errors.Is(d.Reason, jsactor.ErrCannotCross) || !errors.Is(d.Reason, actor.ErrUnhandled) {
			t.Fatalf("dead letter %+v", d)
		}
	default:
		t.Fatal("no dead letter for a tell whose arguments cannot cross")
	}
}
