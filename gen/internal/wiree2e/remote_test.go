package wiree2e

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/remote"
)

// waitLimit bounds every wait; the test never sleeps.
const waitLimit = 30 * time.Second

// startNode starts system name with a remote node registering the
// generated messages; it is shut down at the end of the test.
func startNode(t *testing.T, name string, opts ...remote.Option) (*actor.System, *remote.Node) {
	t.Helper()
	sys, err := actor.NewSystem(name, actor.WithAskTimeout(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	n, err := remote.Start(sys, append([]remote.Option{remote.WithRegistry(registry(t))}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		defer cancel()
		if err := n.Close(ctx); err != nil {
			t.Errorf("close %s: %v", name, err)
		}
		if err := sys.Shutdown(ctx); err != nil {
			t.Errorf("shutdown %s: %v", name, err)
		}
	})
	return sys, n
}

// TestTypedRefAcrossNodes: a typed ref on n2 to a Wallet on n1 tells and
// asks through the generated codecs; leaf n2 joins hub n1 over loopback.
func TestTypedRefAcrossNodes(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	sys1, n1 := startNode(t, "n1", remote.WithLeafListen("127.0.0.1:0"))
	sys2, n2 := startNode(t, "n2", remote.WithLeafRemotes(n1.LeafURL()))
	for _, w := range [][2]*remote.Node{{n1, n2}, {n2, n1}} {
		if err := w[0].WaitPeer(ctx, w[1].Name()); err != nil {
			t.Fatal(err)
		}
	}
	local, err := SpawnWallet(sys1, "w1", func() *Wallet { return &Wallet{} })
	if err != nil {
		t.Fatal(err)
	}
	w := WalletRefOf(sys2, local.Ref())

	e1 := fullEntry
	e1.Amount = 100
	e2 := Entry{Amount: 5, Memo: "tip"}
	for _, e := range []Entry{e1, e2} {
		if err := w.Deposit(e, "note"); err != nil {
			t.Fatal(err)
		}
	}
	// Tells from one sender arrive in order before its ask.
	st, err := w.Statement(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := Statement{Balance: e1.Amount + e2.Amount, Entries: []Entry{e1, e2}}
	if !reflect.DeepEqual(st, want) {
		t.Fatalf("statement:\n got %+v\nwant %+v", st, want)
	}
	sum, err := w.Summary(ctx)
	if err != nil || sum != (Summary{Count: 2, Last: "tip"}) {
		t.Fatalf("summary = %+v, %v (CBOR reply)", sum, err)
	}
	if err := w.Withdraw(ctx, 5); err != nil {
		t.Fatalf("withdraw: %v", err)
	}
	var re *remote.Error
	if err := w.Withdraw(ctx, 1<<62); !errors.As(err, &re) || re.Message != ErrOverdrawn.Error() {
		t.Fatalf("overdraw = %v, want a remote.Error saying %v", err, ErrOverdrawn)
	}
	tree := Tree{Name: "root", Kids: []Tree{{Name: "kid"}}}
	refs := []actor.Ref{local.Ref(), {}}
	got, err := w.Echo(ctx, -3, -8, 9, 1.5, true, []byte("raw"), refs, map[int]Cents{1: 2}, [][]byte{{1}}, tree)
	wantEcho := Echoed{I: -3, I8: -8, U: 9, F: 1.5, OK: true, B: []byte("raw"), Refs: refs,
		Counts: map[int]Cents{1: 2}, Blobs: [][]byte{{1}}, Tree: tree}
	if err != nil || !reflect.DeepEqual(got, wantEcho) {
		t.Fatalf("echo:\n got %+v, %v\nwant %+v", got, err, wantEcho)
	}
	if s := n2.Stats(); s.Sent < 7 || s.Rejected != 0 { // 2 tells, 5 asks
		t.Fatalf("n2 stats = %+v", s)
	}
}

// TestChildRefAcrossNodes: a child's ref inside a generated message (a
// parameter, a struct field, a slice element, a reply) crosses nodes as
// itself, parent path included, not as a top-level ref of the same kind
// and id.
func TestChildRefAcrossNodes(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	sys1, n1 := startNode(t, "n1", remote.WithLeafListen("127.0.0.1:0"))
	sys2, n2 := startNode(t, "n2", remote.WithLeafRemotes(n1.LeafURL()))
	for _, w := range [][2]*remote.Node{{n1, n2}, {n2, n1}} {
		if err := w[0].WaitPeer(ctx, w[1].Name()); err != nil {
			t.Fatal(err)
		}
	}
	local, err := SpawnWallet(sys1, "w1", func() *Wallet { return &Wallet{} })
	if err != nil {
		t.Fatal(err)
	}
	w := WalletRefOf(sys2, local.Ref())
	child := actor.NewRef("n2", "team", "t1").Child("worker", "w/1")
	grandchild := child.Child("task", "x")
	if err := w.Deposit(Entry{Amount: 1, By: grandchild}, "by a grandchild"); err != nil {
		t.Fatal(err)
	}
	st, err := w.Statement(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := st.Entries[0].By; got != grandchild {
		t.Fatalf("struct field ref = %v, want %v", got, grandchild)
	}
	refs := []actor.Ref{child, {}, grandchild}
	got, err := w.Echo(ctx, 0, 0, 0, 0, false, nil, refs, nil, nil, Tree{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Refs, refs) {
		t.Fatalf("refs = %v, want %v", got.Refs, refs)
	}
}
