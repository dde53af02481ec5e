package remote_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest"
	"github.com/troupe-go/troupe/remote"
)

func TestTellAndAskAcrossNodes(t *testing.T) {
	ns := cluster(t, 3)
	acct := spawnAccount(t, ns[1], "a1")
	for _, from := range []*node{ns[0], ns[2]} {
		for range 50 {
			if err := from.sys.Tell(acct, deposit{Amount: 2, Memo: "x"}); err != nil {
				t.Fatal(err)
			}
		}
	}
	// Tells from one sender arrive in order before its ask.
	if sum := actortest.Ask[int64](ns[2].System, acct, "balance"); sum < 100 || sum > 200 {
		t.Fatalf("balance = %d after n3's 50 deposits of 2 (and n1's, maybe)", sum)
	}
	if sum := actortest.Ask[int64](ns[0].System, acct, "balance"); sum != 200 {
		t.Fatalf("balance = %d; want 200", sum)
	}
	if echo := actortest.Ask[note](ns[0].System, acct, note{Text: "hi"}); echo.Text != "echo hi" {
		t.Fatalf("CBOR ask = %+v", echo)
	}
	st := ns[0].node.Stats()
	if st.Sent < 52 || st.FramesSent == 0 || st.Rejected != 0 {
		t.Fatalf("n1 stats = %+v", st)
	}
}

func TestAskErrors(t *testing.T) {
	ns := cluster(t, 2)
	acct := spawnAccount(t, ns[1], "a1")
	type unregistered struct{}
	tests := []struct {
		name   string
		to     actor.Ref
		msg    any
		want   error // nil: a *remote.Error with no known cause
		deadOn int   // the node whose dead letters get the ask; -1: none
	}{
		{"handler error", acct, "fail", nil, -1},
		{"not hosted", actor.NewRef("n2", "account", "missing"), "balance", actor.ErrNotFound, 1},
		{"no such node", actor.NewRef("nowhere", "account", "a1"), "balance", actor.ErrNotFound, 0},
		{"no such node is unreachable", actor.NewRef("nowhere", "account", "a1"), "balance", remote.ErrUnreachable, 0},
		{"bad ref", actor.NewRef("n2", "", "a1"), "balance", remote.ErrBadRef, 0},
		{"unregistered type", acct, unregistered{}, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := actor.Ask[int64](waitCtx(t), ns[0].sys, tt.to, tt.msg)
			if err == nil {
				t.Fatal("ask succeeded")
			}
			if tt.want != nil && !errors.Is(err, tt.want) {
				t.Fatalf("ask error = %v, want %v", err, tt.want)
			}
			if errors.Is(err, actor.ErrTimeout) {
				t.Fatalf("ask timed out instead of failing: %v", err)
			}
			if tt.deadOn >= 0 {
				if d := ns[tt.deadOn].ExpectDeadLetter(); d.To != tt.to || d.Message != tt.msg {
					t.Fatalf("dead letter on %s = %+v, want the ask", ns[tt.deadOn].Name(), d)
				}
			}
		})
	}
	var re *remote.Error
	_, err := actor.Ask[int64](waitCtx(t), ns[0].sys, acct, "fail")
	if !errors.As(err, &re) || re.Node != "n2" || re.Message != "insufficient funds" {
		t.Fatalf("handler error = %#v, want a remote.Error from n2", err)
	}
}

func TestUndeliverableTellsGoToDeadLetters(t *testing.T) {
	ns := cluster(t, 2)
	missing := actor.NewRef("n2", "account", "missing")
	if err := ns[0].sys.Tell(missing, deposit{Amount: 7}); err != nil {
		t.Fatalf("tell = %v; the sender learns of the failure later", err)
	}
	d := ns[0].ExpectDeadLetter()
	if d.To != missing || !errors.Is(d.Reason, actor.ErrNotFound) || d.Message != (deposit{Amount: 7}) {
		t.Fatalf("dead letter = %+v, want the deposit to %s with ErrNotFound", d, missing)
	}
	// n2, which has no such actor, has it in its dead letters too.
	if d := ns[1].ExpectDeadLetter(); d.To != missing || !errors.Is(d.Reason, actor.ErrNotFound) {
		t.Fatalf("dead letter on n2 = %+v, want the deposit", d)
	}
	type unregistered struct{}
	err := ns[0].sys.Tell(actor.NewRef("n2", "account", "a"), unregistered{})
	if d := ns[0].ExpectDeadLetter(); err == nil || d.Reason != err {
		t.Fatalf("unregistered type: tell = %v, dead letter %+v", err, d)
	}
}

func TestRemoteSpawn(t *testing.T) {
	ns := cluster(t, 2)
	if err := ns[1].node.RegisterKind("account", func() actor.Actor { return &account{} }); err != nil {
		t.Fatal(err)
	}
	ref, err := ns[0].node.Spawn(waitCtx(t), "n2", "account", "spawned")
	if err != nil {
		t.Fatal(err)
	}
	if err := ns[0].sys.Tell(ref, deposit{Amount: 5}); err != nil {
		t.Fatal(err)
	}
	if sum := actortest.Ask[int64](ns[0].System, ref, "balance"); sum != 5 {
		t.Fatalf("spawned actor: balance %d", sum)
	}
	if _, err := ns[0].node.Spawn(waitCtx(t), "n2", "account", "spawned"); !errors.Is(err, actor.ErrNameTaken) {
		t.Fatalf("second spawn = %v, want ErrNameTaken", err)
	}
	if _, err := ns[0].node.Spawn(waitCtx(t), "n2", "unknown", "x"); !errors.Is(err, actor.ErrNotFound) {
		t.Fatalf("spawn of an unregistered kind = %v, want ErrNotFound", err)
	}
}

// An actor asks a remote actor with AskAsync: its handler never blocks,
// and the promise settles on its own loop.
func TestAskAsyncFromAnActor(t *testing.T) {
	ns := cluster(t, 2)
	acct := spawnAccount(t, ns[1], "a")
	if err := ns[0].sys.Tell(acct, deposit{Amount: 9}); err != nil {
		t.Fatal(err)
	}
	asker, err := ns[0].sys.Spawn("asker", "x", func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			return actor.AskAsync[int64](c, acct, msg), nil // the reply waits for the promise
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if sum := actortest.Ask[int64](ns[0].System, asker, "balance"); sum != 9 {
		t.Fatalf("balance through an actor = %d; want 9", sum)
	}
	if _, err := actor.Ask[int64](waitCtx(t), ns[0].sys, asker, "fail"); err == nil || !strings.Contains(err.Error(), "insufficient funds") {
		t.Fatalf("remote error through an actor = %v", err)
	}
}
