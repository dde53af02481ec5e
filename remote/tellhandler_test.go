package remote_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/internal/remotehook"
	"github.com/troupe-go/troupe/remote"
)

// handled is what a tell handler saw of one tell.
type handled struct {
	from string
	to   actor.Ref
	msg  any
}

// TestHandleTells: tells to actors of a handled kind go to the handler,
// in the order sent and between the deliveries of tells to other actors;
// what it refuses or panics on comes back to the sender as a dead letter
// with the reason; asks still go to the actor; once removed, tells go to
// the actor's mailbox again.
func TestHandleTells(t *testing.T) {
	ns := cluster(t, 2)
	seen := make(chan handled, 64)
	errRefused := errors.New("refused by the handler")
	err := remotehook.HandleTells(ns[1].node, "routed", func(from string, to actor.Ref, msg any) error {
		switch msg {
		case "refuse":
			return errRefused
		case "panic":
			panic("handler bug")
		}
		seen <- handled{from, to, msg}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	mailbox := make(chan any, 8)
	routed, err := ns[1].sys.Spawn("routed", "r", func() actor.Actor {
		return actor.ActorFunc(func(_ *actor.Context, msg any) (any, error) {
			if msg == "balance" {
				return int64(7), nil
			}
			mailbox <- msg
			return nil, nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	account := spawnAccount(t, ns[1], "acc")
	for i := range 20 {
		if err := ns[0].sys.Tell(routed, deposit{Amount: int64(i)}); err != nil {
			t.Fatal(err)
		}
		if err := ns[0].sys.Tell(account, deposit{Amount: 1}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 20 {
		got := <-seen
		if got.from != "n1" || got.to != routed || got.msg != (deposit{Amount: int64(i)}) {
			t.Fatalf("handler saw %+v, want deposit %d from n1 to %s", got, i, routed)
		}
	}
	if n, err := actor.Ask[int64](waitCtx(t), ns[0].sys, account, "balance"); err != nil || n != 20 {
		t.Fatalf("account balance %d, %v; want 20", n, err)
	}
	if n, err := actor.Ask[int64](waitCtx(t), ns[0].sys, routed, "balance"); err != nil || n != 7 {
		t.Fatalf("ask to the handled kind: %d, %v; want the actor's 7", n, err)
	}

	tests := []struct {
		msg  string
		want error
	}{
		{"refuse", errRefused},
		{"panic", nil},
	}
	for _, tt := range tests {
		if err := ns[0].sys.Tell(routed, tt.msg); err != nil {
			t.Fatal(err)
		}
		d := ns[0].ExpectDeadLetter()
		if d.To != routed || d.Message != tt.msg || d.Reason == nil {
			t.Fatalf("dead letter %+v, want %q to %s with a reason", d, tt.msg, routed)
		}
		if tt.want != nil && !strings.HasSuffix(d.Reason.Error(), tt.want.Error()) {
			t.Fatalf("dead letter's reason %v, want %v", d.Reason, tt.want)
		}
	}

	if err := remotehook.HandleTells(ns[1].node, "routed", func(string, actor.Ref, any) error { return nil }); !errors.Is(err, remote.ErrBadKind) {
		t.Fatalf("a second handler for the kind: %v, want ErrBadKind", err)
	}
	if err := remotehook.HandleTells(ns[1].node, "", func(string, actor.Ref, any) error { return nil }); !errors.Is(err, remote.ErrBadKind) {
		t.Fatalf("a handler for no kind: %v, want ErrBadKind", err)
	}
	if err := remotehook.HandleTells(ns[1].node, "routed", nil); err != nil {
		t.Fatal(err)
	}
	if err := ns[0].sys.Tell(routed, "to the mailbox"); err != nil {
		t.Fatal(err)
	}
	if got := <-mailbox; got != "to the mailbox" {
		t.Fatalf("the actor got %v, want the tell sent after the handler was removed", got)
	}
	select {
	case got := <-seen:
		t.Fatalf("the removed handler saw %+v", got)
	default:
	}
}
