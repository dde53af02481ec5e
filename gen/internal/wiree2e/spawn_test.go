package wiree2e

import (
	"context"
	"errors"
	"testing"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/remote"
)

// A remote.Node is what the generated RegisterXKind and SpawnXOn take.
var (
	_ actor.KindRegistrar = (*remote.Node)(nil)
	_ actor.RemoteSpawner = (*remote.Node)(nil)
)

// TestSpawnOnAnotherNode: n1 registers the Wallet kind with the generated
// RegisterWalletKind, and n2 spawns a Wallet there with SpawnWalletOn and
// uses the typed ref it gets back. A kind registered twice, an
// unregistered node and a taken name are errors.
func TestSpawnOnAnotherNode(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	sys1, n1 := startNode(t, "n1", remote.WithLeafListen("127.0.0.1:0"))
	sys2, n2 := startNode(t, "n2", remote.WithLeafRemotes(n1.LeafURL()))
	for _, w := range [][2]*remote.Node{{n1, n2}, {n2, n1}} {
		if err := w[0].WaitPeer(ctx, w[1].Name()); err != nil {
			t.Fatal(err)
		}
	}
	newWallet := func() *Wallet { return &Wallet{} }
	if err := RegisterWalletKind(n1, newWallet); err != nil {
		t.Fatal(err)
	}
	if err := RegisterWalletKind(n1, newWallet); !errors.Is(err, remote.ErrBadKind) {
		t.Fatalf("a second RegisterWalletKind: %v, want ErrBadKind", err)
	}
	w, err := SpawnWalletOn(ctx, sys2, n2, "n1", "savings")
	if err != nil {
		t.Fatal(err)
	}
	if want := actor.NewRef("n1", "wallet", "savings"); w.Ref() != want {
		t.Fatalf("SpawnWalletOn returned a ref to %s, want %s", w.Ref(), want)
	}
	if err := w.Deposit(Entry{Amount: 40, Memo: "pay"}, "note"); err != nil {
		t.Fatal(err)
	}
	if err := w.Withdraw(ctx, 15); err != nil {
		t.Fatal(err)
	}
	st, err := w.Statement(ctx)
	if err != nil || st.Balance != 25 {
		t.Fatalf("statement %+v, %v; want a balance of 25", st, err)
	}
	if _, ok := sys1.Actor(w.Ref()); !ok {
		t.Fatalf("no actor %s on n1", w.Ref())
	}
	if _, err := SpawnWalletOn(ctx, sys2, n2, "n1", "savings"); !errors.Is(err, actor.ErrNameTaken) {
		t.Fatalf("a second spawn of the name: %v, want ErrNameTaken", err)
	}
	if _, err := SpawnWalletOn(ctx, sys1, n1, "n2", "x"); !errors.Is(err, actor.ErrNotFound) {
		t.Fatalf("a spawn on a node without the kind: %v, want ErrNotFound", err)
	}
}
