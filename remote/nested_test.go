package remote_test

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest"
	"github.com/troupe-go/troupe/remote"
)

// branch spawns, when asked "open", a child account named account/a1
// and replies with its ref.
type branch struct{}

func (branch) Receive(c *actor.Context, msg any) (any, error) {
	if msg == "open" {
		return c.Spawn("account", "a1", func() actor.Actor { return &account{} })
	}
	return nil, fmt.Errorf("branch: unexpected %v", msg)
}

// A child's ref, received from another node, addresses that child and no
// other actor of its kind and id there: tells, asks and watch cross nodes.
func TestNestedRefAcrossNodes(t *testing.T) {
	ns := cluster(t, 2)
	top := spawnAccount(t, ns[1], "a1") // same kind and id, top level
	b, err := ns[1].sys.Spawn("branch", "b1", func() actor.Actor { return branch{} })
	if err != nil {
		t.Fatal(err)
	}
	child, err := actor.Ask[actor.Ref](waitCtx(t), ns[0].sys, b, "open")
	if err != nil {
		t.Fatalf("ask n2 for a child: %v", err)
	}
	if want := b.Child("account", "a1"); child != want || child.Parent() != b {
		t.Fatalf("child ref %v (parent %v), want %v", child, child.Parent(), want)
	}
	if err := ns[0].sys.Tell(child, deposit{Amount: 7}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		ref  actor.Ref
		want int64
	}{{child, 7}, {top, 0}} {
		if got := actortest.Ask[int64](ns[0].System, tc.ref, "balance"); got != tc.want {
			t.Fatalf("balance of %v = %d; want %d", tc.ref, got, tc.want)
		}
	}
	// In a message body (CBOR, through Ref.MarshalBinary) too.
	if echo := actortest.Ask[refNote](ns[0].System, child, refNote{Ref: child}); echo.Ref != child {
		t.Fatalf("a ref in a message came back as %v; want %v", echo.Ref, child)
	}
	w := watch(ns[0], child)
	ns[1].sys.Stop(child)
	w.ExpectTerminated(child)
	if _, err := actor.Ask[int64](waitCtx(t), ns[0].sys, child, "balance"); !errors.Is(err, actor.ErrNotFound) {
		t.Fatalf("ask the stopped child: %v, want ErrNotFound", err)
	}
	if d := ns[1].ExpectDeadLetter(); d.To != child {
		t.Fatalf("dead letter on n2 = %+v, want the ask of the stopped child", d)
	}
}

// A Node's transport methods are not part of its API.
func TestNodeHasNoTransportMethods(t *testing.T) {
	typ := reflect.TypeFor[*remote.Node]()
	for _, name := range []string{"Send", "Watch", "Unwatch", "Terminated"} {
		if _, ok := typ.MethodByName(name); ok {
			t.Errorf("Node exports %s", name)
		}
	}
}
