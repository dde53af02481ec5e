package remote_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/remote"
	"github.com/troupe-go/troupe/remote/wire"
)

// errOverdrawn is a handler's sentinel, registered in the tests' registry.
var errOverdrawn = errors.New("account: overdrawn")

// limitError is a handler's typed error, registered (as CBOR) in the
// tests' registry.
type limitError struct{ Limit, Asked int64 }

func (e *limitError) Error() string { return fmt.Sprintf("limit %d, asked %d", e.Limit, e.Asked) }

// errClosed is a handler's sentinel registered nowhere.
var errClosed = errors.New("account: closed")

// spawnTeller spawns an actor that fails each ask with the error named.
func spawnTeller(t *testing.T, n *node) actor.Ref {
	t.Helper()
	ref, err := n.sys.Spawn("teller", "t", func() actor.Actor {
		return actor.ActorFunc(func(_ *actor.Context, msg any) (any, error) {
			switch msg {
			case "sentinel":
				return nil, errOverdrawn
			case "wrapped":
				return nil, fmt.Errorf("withdraw 5: %w", errOverdrawn)
			case "typed":
				return nil, fmt.Errorf("withdraw 12: %w", &limitError{Limit: 10, Asked: 12})
			case "both":
				return nil, fmt.Errorf("%w (%w)", errOverdrawn, &limitError{Limit: 1, Asked: 2})
			case "unregistered":
				return nil, fmt.Errorf("withdraw: %w", errClosed)
			}
			return nil, fmt.Errorf("teller: unexpected %v", msg)
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return ref
}

// TestHandlerErrorsCrossNodes: a handler's own errors, registered on both
// nodes, arrive as themselves (errors.Is, errors.As), also wrapped; an
// unregistered one arrives as its text.
func TestHandlerErrorsCrossNodes(t *testing.T) {
	ns := cluster(t, 2)
	teller := spawnTeller(t, ns[1])
	tests := []struct {
		msg       string
		overdrawn bool
		limit     *limitError
		text      string
	}{
		{"sentinel", true, nil, "account: overdrawn"},
		{"wrapped", true, nil, "withdraw 5: account: overdrawn"},
		{"typed", false, &limitError{Limit: 10, Asked: 12}, "withdraw 12: limit 10, asked 12"},
		{"both", true, &limitError{Limit: 1, Asked: 2}, "account: overdrawn (limit 1, asked 2)"},
		{"unregistered", false, nil, "withdraw: account: closed"},
	}
	for _, tt := range tests {
		t.Run(tt.msg, func(t *testing.T) {
			_, err := actor.Ask[int64](waitCtx(t), ns[0].sys, teller, tt.msg)
			var re *remote.Error
			if !errors.As(err, &re) || re.Node != "n2" || re.Message != tt.text {
				t.Fatalf("ask = %#v, want a remote.Error from n2 saying %q", err, tt.text)
			}
			if errors.Is(err, errOverdrawn) != tt.overdrawn {
				t.Errorf("errors.Is(%v, errOverdrawn) = %v", err, !tt.overdrawn)
			}
			if errors.Is(err, errClosed) {
				t.Errorf("errors.Is(%v, errClosed): an unregistered error matched", err)
			}
			var le *limitError
			if ok := errors.As(err, &le); ok != (tt.limit != nil) || ok && *le != *tt.limit {
				t.Errorf("errors.As(%v, *limitError) = %v, %+v; want %+v", err, ok, le, tt.limit)
			}
		})
	}
}

// TestHandlerErrorsRegisteredOnOneSide: an error the asking node has not
// registered arrives as its text; it is not invented, and the ask settles.
func TestHandlerErrorsRegisteredOnOneSide(t *testing.T) {
	c := cluster(t, 1)
	asker := startNode(t, "bare", remote.WithLeafRemotes(c[0].node.LeafURL()), remote.WithRegistry(wire.NewRegistry()))
	meet(t, c[0], asker)
	teller := spawnTeller(t, c[0])
	for _, msg := range []string{"wrapped", "typed"} {
		_, err := actor.Ask[int64](waitCtx(t), asker.sys, teller, msg)
		var re *remote.Error
		if !errors.As(err, &re) || errors.Is(err, errOverdrawn) || errors.As(err, new(*limitError)) {
			t.Fatalf("%s: ask = %#v, want a remote.Error with no cause", msg, err)
		}
	}
}
