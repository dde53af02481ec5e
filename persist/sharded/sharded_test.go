package sharded_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest"
	"github.com/troupe-go/troupe/actortest/remotetest"
	"github.com/troupe-go/troupe/loop"
	"github.com/troupe-go/troupe/persist"
	"github.com/troupe-go/troupe/persist/sharded"
	"github.com/troupe-go/troupe/remote"
	"github.com/troupe-go/troupe/remote/wire"
	"github.com/troupe-go/troupe/sharding"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// waitLimit bounds every real-time wait; the test never sleeps to wait.
const waitLimit = 30 * time.Second

type deposited struct{ Amount int64 }

func schema() *persist.Schema {
	reg := wire.NewRegistry()
	if err := wire.Register[deposited](reg, "acct.deposited"); err != nil {
		panic(err)
	}
	return persist.NewSchema(reg)
}

// acctDef is a sharded, event-sourced account: an int64 deposits, "where"
// answers the node, "token" the entity's fencing token, "balance" the
// balance.
func acctDef(store persist.Store) *persist.EventSourced[int64, any, deposited] {
	return &persist.EventSourced[int64, any, deposited]{
		Store:  store,
		Schema: schema(),
		Entity: sharded.Entity,
		Fence:  sharded.Fence,
		Command: func(c *persist.Command[int64, deposited], cmd any) (any, error) {
			switch m := cmd.(type) {
			case int64:
				return loop.Then(c.Persist(deposited{m}), func(s int64) (int64, error) { return s, nil }), nil
			case string:
				switch m {
				case "where":
					return c.Actor().System().Name(), nil
				case "token":
					t, err := sharding.Token(c.Actor())
					return int64(t), err
				case "balance":
					return c.State(), nil
				}
			}
			return nil, fmt.Errorf("acct: %w: %T", actor.ErrUnhandled, cmd)
		},
		Apply: func(s int64, e deposited) int64 { return s + e.Amount },
	}
}

// heldStore holds the next Append once armed, as a paused process or a
// slow network holds a write that already read its fencing token; the
// write then reaches the store late, whatever became of its writer.
type heldStore struct {
	*persist.MemoryStore
	mu      sync.Mutex
	armed   bool
	held    chan struct{} // closed when an Append is held
	release chan struct{}
	result  chan error // the held Append's outcome
}

func (h *heldStore) arm() {
	h.mu.Lock()
	h.armed, h.held, h.release, h.result = true, make(chan struct{}), make(chan struct{}), make(chan error, 1)
	h.mu.Unlock()
}

func (h *heldStore) Append(ctx context.Context, entity string, after persist.Cursor, events []persist.Event) (persist.Cursor, error) {
	h.mu.Lock()
	armed := h.armed
	h.armed = false
	h.mu.Unlock()
	if !armed {
		return h.MemoryStore.Append(ctx, entity, after, events)
	}
	close(h.held)
	<-h.release
	end, err := h.MemoryStore.Append(context.Background(), entity, after, events)
	h.result <- err
	return end, err
}

type node struct {
	*remotetest.Node
	kind *sharding.Kind
}

func startNode(t *testing.T, rc *remotetest.Cluster, name string, store persist.Store) node {
	t.Helper()
	var ropts []remote.Option
	if len(rc.Nodes()) == 0 {
		ropts = append(ropts, sharding.EmbeddedJetStream(t.TempDir()))
	}
	n := rc.Node(name, remotetest.WithOutsideWait(waitLimit),
		remotetest.WithSystemOptions(actortest.AllowDeadLetters(), actortest.AllowFailures(),
			actortest.WithActorOptions(actor.WithAskTimeout(waitLimit))),
		remotetest.WithRemoteOptions(ropts...))
	c, err := sharding.Start(n.System.System, n.Remote, sharding.WithMemoryStorage(),
		sharding.WithLease(3*time.Second, 300*time.Millisecond, time.Second))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	f, err := acctDef(store).Factory()
	if err != nil {
		t.Fatal(err)
	}
	k, err := sharding.Register(c, "acct", f, sharding.WithShards(4))
	if err != nil {
		t.Fatal(err)
	}
	return node{Node: n, kind: k}
}

func ask[R any](t *testing.T, r sharding.Ref, msg any) R {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	v, err := sharding.Ask[R](ctx, r, msg)
	if err != nil {
		t.Fatalf("ask %s %v: %v", r, msg, err)
	}
	return v
}

func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("still not so after %v: %s", waitLimit, what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// A stale owner after its shard moved: n2's entity read its lease's
// revision and started a write, then n2 was cut off (killed without a
// goodbye) before the write reached the store. n1 claimed the shard once
// the lease ran out, and its entity recovered and wrote. The stale write
// arrives after: the journal refuses it (ErrFenced). The journal holds
// each owner's events with its lease's revision, in order.
func TestStaleOwnerIsFenced(t *testing.T) {
	mem := persist.NewMemoryStore()
	stale := &heldStore{MemoryStore: mem}
	rc := remotetest.NewCluster(t)
	n1 := startNode(t, rc, "n1", mem)
	n2 := startNode(t, rc, "n2", stale)
	eventually(t, "both nodes own shards", func() bool {
		return len(n1.kind.Owned()) > 0 && len(n2.kind.Owned()) > 0 && len(n1.kind.Owned())+len(n2.kind.Owned()) == 4
	})
	id := ""
	for i := 0; id == ""; i++ {
		if ask[string](t, n1.kind.Get(fmt.Sprint("a", i)), "where") == "n2" {
			id = fmt.Sprint("a", i)
		}
	}
	acct := n1.kind.Get(id)
	if b := ask[int64](t, acct, int64(10)); b != 10 {
		t.Fatalf("balance %d", b)
	}
	tokenN2 := ask[int64](t, acct, "token")

	stale.arm()
	if err := acct.Tell(int64(5)); err != nil {
		t.Fatal(err)
	}
	<-stale.held // n2's entity holds its token and a write in flight
	n2.Remote.Kill()
	eventually(t, "n1 owns every shard", func() bool { return len(n1.kind.Owned()) == 4 })
	if b := ask[int64](t, acct, int64(1)); b != 11 {
		t.Fatalf("balance on the new owner %d, want 11 (it recovered 10)", b)
	}
	if where := ask[string](t, acct, "where"); where != "n1" {
		t.Fatalf("served by %s", where)
	}
	tokenN1 := ask[int64](t, acct, "token")
	if tokenN1 <= tokenN2 {
		t.Fatalf("new owner's token %d, not above the old owner's %d", tokenN1, tokenN2)
	}

	close(stale.release)
	if err := <-stale.result; !errors.Is(err, persist.ErrFenced) {
		t.Fatalf("the stale owner's write: %v, want ErrFenced", err)
	}
	var evs []persist.Event
	_, err := mem.Read(context.Background(), "acct/"+id, persist.Cursor{}, func(e persist.Event) error {
		evs = append(evs, e)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 2 || evs[0].Fence != uint64(tokenN2) || evs[1].Fence != uint64(tokenN1) {
		t.Fatalf("journal %+v, want event 1 with fence %d and event 2 with fence %d", evs, tokenN2, tokenN1)
	}
	if err := sharded.CheckFences(context.Background(), mem, "acct/"+id); err != nil {
		t.Fatal(err)
	}
}
