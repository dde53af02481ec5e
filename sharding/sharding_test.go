package sharding_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/sharding"
)

// TestOneNode: tells and asks by id on one node, activation on first
// message, one activation per entity, per-sender order.
func TestOneNode(t *testing.T) {
	w := newWorld()
	_, nodes := startCluster(t, w, clusterSpec{nodes: 1})
	n := nodes[0]
	allOwned(t, n)
	for i := 0; i < 10; i++ {
		e := n.kind.Get(fmt.Sprint("e", i))
		for j := 1; j <= 100; j++ {
			if err := e.Tell(j); err != nil {
				t.Fatal(err)
			}
		}
		if got := ask[int](t, e, "sum"); got != 5050 {
			t.Fatalf("%s sum = %d, want 5050", e, got)
		}
		if got := w.count(e.ID()); got != 1 {
			t.Fatalf("%s activated %d times", e, got)
		}
	}
	if n.kind.Active() != 10 {
		t.Fatalf("active = %d, want 10", n.kind.Active())
	}
	st := n.c.Stats()
	if st.Activations != 10 || st.Claims != 16 || st.Forwarded != 0 || st.DeadLetters != 0 || st.ClaimLatency.P50 <= 0 {
		t.Fatalf("stats = %+v", st)
	}
}

// TestThreeNodes: shards spread evenly over three nodes; every node reaches
// every entity, each entity lives on the node its shard's owner is, and
// one sender's messages arrive in order across nodes.
func TestThreeNodes(t *testing.T) {
	w := newWorld()
	_, nodes := startCluster(t, w, clusterSpec{nodes: 3, shards: 30})
	allOwned(t, nodes...)
	eventually(t, "10 shards each", func() bool {
		for _, n := range nodes {
			if len(n.kind.Owned()) != 10 {
				return false
			}
		}
		return true
	})
	for i := 0; i < 30; i++ {
		id := fmt.Sprint("e", i)
		from := nodes[i%3]
		e := from.kind.Get(id)
		for j := 1; j <= 50; j++ {
			if err := e.Tell(j); err != nil {
				t.Fatal(err)
			}
		}
		if got := ask[int](t, e, "sum"); got != 1275 {
			t.Fatalf("%s sum = %d, want 1275", e, got)
		}
		where := ask[string](t, nodes[(i+1)%3].kind.Get(id), "where")
		owner, _ := from.kind.Owner(sharding.ShardOf(id, 30))
		if where != owner {
			t.Fatalf("%s runs on %s, its shard's owner is %s", e, where, owner)
		}
		w.mu.Lock()
		seen := w.seen[id]
		w.mu.Unlock()
		for j, v := range seen {
			if v != j+1 {
				t.Fatalf("%s handled %v: out of order", e, seen)
			}
		}
		if c := w.count(id); c != 1 {
			t.Fatalf("%s activated %d times", e, c)
		}
	}
}

// TestPassivation: an idle entity stops after the idle timeout on its
// system's virtual clock, gets Stopping first, and its next message
// activates a fresh instance; an entity can passivate itself.
func TestPassivation(t *testing.T) {
	w := newWorld()
	_, nodes := startCluster(t, w, clusterSpec{nodes: 1, idle: time.Minute})
	n := nodes[0]
	allOwned(t, n)
	e := n.kind.Get("idle")
	if err := e.Tell(5); err != nil {
		t.Fatal(err)
	}
	if got := ask[int](t, e, "sum"); got != 5 {
		t.Fatalf("sum = %d", got)
	}
	n.Advance(time.Minute - time.Millisecond)
	if n.kind.Active() != 1 {
		t.Fatal("passivated before its idle timeout")
	}
	n.Advance(time.Millisecond)
	eventually(t, "the idle entity stopped", func() bool { return n.kind.Active() == 0 })
	if got := w.stopReasons("idle"); !slices.Equal(got, []sharding.StopReason{sharding.Passivated}) {
		t.Fatalf("stop reasons = %v", got)
	}
	if got := ask[int](t, e, "sum"); got != 0 {
		t.Fatalf("sum after passivation = %d, want a fresh 0", got)
	}
	if got := w.count("idle"); got != 2 {
		t.Fatalf("activations = %d, want 2", got)
	}

	// self-passivation: messages sent before it are handled, those sent
	// after it go to a fresh instance, in order
	s := n.kind.Get("self")
	for _, m := range []any{1, 2, "passivate", 3, 4} {
		if m == "passivate" {
			if _, err := sharding.Ask[any](context.Background(), s, m); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := s.Tell(m); err != nil {
			t.Fatal(err)
		}
	}
	if got := ask[int](t, s, "sum"); got != 7 {
		t.Fatalf("sum after self-passivation = %d, want 3+4", got)
	}
	if got := w.count("self"); got != 2 {
		t.Fatalf("activations = %d, want 2", got)
	}
	w.mu.Lock()
	seen := w.seen["self"]
	w.mu.Unlock()
	if !slices.Equal(seen, []int{1, 2, 3, 4}) {
		t.Fatalf("handled %v", seen)
	}
}

// TestMaxActive: past the per-node cap, the least recently used entity is
// passivated.
func TestMaxActive(t *testing.T) {
	w := newWorld()
	_, nodes := startCluster(t, w, clusterSpec{nodes: 1, kindOpts: []sharding.KindOption{sharding.WithMaxActive(3)}})
	n := nodes[0]
	allOwned(t, n)
	for _, id := range []string{"a", "b", "c"} {
		ask[int](t, n.kind.Get(id), "sum")
	}
	ask[int](t, n.kind.Get("a"), "sum") // b is now the least recently used
	ask[int](t, n.kind.Get("d"), "sum")
	eventually(t, "back to the cap", func() bool { return n.kind.Active() == 3 })
	if got := w.stopReasons("b"); len(got) != 1 {
		t.Fatalf("b stopped for %v; a %v, c %v", got, w.stopReasons("a"), w.stopReasons("c"))
	}
}

// TestLeave: a node that leaves hands its shards to the others; its
// entities get Stopping after what was sent to them, messages sent during
// the hand-off reach the next owner, and none is lost or reordered.
func TestLeave(t *testing.T) {
	w := newWorld()
	_, nodes := startCluster(t, w, clusterSpec{nodes: 3, shards: 30})
	allOwned(t, nodes...)
	n1, n3 := nodes[0], nodes[2]
	eventually(t, "n3 owns shards", func() bool { return len(n3.kind.Owned()) == 10 })
	const entities, msgs = 60, 100
	send := func(from, to int) {
		for j := from; j <= to; j++ {
			for i := 0; i < entities; i++ {
				if err := n1.kind.Get(fmt.Sprint("e", i)).Tell(j); err != nil {
					t.Error(err)
				}
			}
		}
	}
	send(1, msgs/2)
	for i := 0; i < entities; i++ { // active where their shards are: n3 hands off live entities
		if got := ask[int](t, n1.kind.Get(fmt.Sprint("e", i)), "sum"); got != (msgs/2)*(msgs/2+1)/2 {
			t.Fatalf("e%d sum %d", i, got)
		}
	}
	done := make(chan struct{})
	go func() { defer close(done); send(msgs/2+1, msgs) }()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if err := n3.c.Leave(ctx); err != nil {
		t.Fatal(err)
	}
	<-done
	if got := n3.kind.Owned(); len(got) != 0 {
		t.Fatalf("n3 still owns %v", got)
	}
	allOwned(t, nodes[:2]...)
	eventually(t, "every message handled", func() bool {
		w.mu.Lock()
		defer w.mu.Unlock()
		for i := 0; i < entities; i++ {
			if len(w.seen[fmt.Sprint("e", i)]) < msgs {
				return false
			}
		}
		return true
	})
	moved := 0
	for i := 0; i < entities; i++ {
		id := fmt.Sprint("e", i)
		w.mu.Lock()
		seen := slices.Clone(w.seen[id])
		w.mu.Unlock()
		for j, v := range seen { // one sender: in the order sent
			if v != j+1 {
				t.Fatalf("%s handled %d messages, not each of 1..%d once in order: %v", id, len(seen), msgs, seen)
			}
		}
		if r := w.stopReasons(id); len(r) > 0 {
			moved++
			if r[0] != sharding.HandedOff {
				t.Fatalf("%s stopped for %v", id, r)
			}
		}
	}
	if moved == 0 {
		t.Fatal("no entity was handed off")
	}
	if st := n3.c.Stats(); st.HandOffs != 10 || st.LeasesLost != 0 {
		t.Fatalf("n3 stats = %+v, want 10 hand-offs, no lease lost", st)
	}
	for _, n := range nodes {
		select {
		case d := <-n.dead:
			t.Fatalf("dead letter on %s: %v %v", n.Name(), d.Entity, d.Reason)
		default:
		}
	}
	if o := w.overlaps(); o != 0 {
		t.Fatalf("%d overlapping activations", o)
	}
}

// TestKill: a node killed without a goodbye loses its leases when they
// run out; the survivors claim its shards and serve its entities, never
// while its activations still run.
func TestKill(t *testing.T) {
	w := newWorld()
	_, nodes := startCluster(t, w, clusterSpec{nodes: 3, shards: 30, opts: []sharding.Option{shortLease}})
	allOwned(t, nodes...)
	n3 := nodes[2]
	eventually(t, "n3 owns shards", func() bool { return len(n3.kind.Owned()) == 10 })
	var onN3 []string
	for i := 0; len(onN3) < 5; i++ {
		id := fmt.Sprint("e", i)
		if ask[string](t, nodes[0].kind.Get(id), "where") == "n3" {
			onN3 = append(onN3, id)
		}
	}
	before := ask[int64](t, nodes[0].kind.Get(onN3[0]), "token")
	n3.Remote.Kill()
	eventually(t, "n3 stopped serving", func() bool { return len(n3.kind.Owned()) == 0 && n3.kind.Active() == 0 })
	// A lease stops being served the moment it runs out by the node's
	// clock (Owned); its revocation, which counts it lost, follows on the
	// expiry timer, so a shard without active entities may still be
	// uncounted here.
	eventually(t, "n3 counted its 10 leases lost", func() bool { return n3.c.Stats().LeasesLost >= 10 })
	allOwned(t, nodes[:2]...)
	for _, id := range onN3 {
		for _, n := range nodes[:2] {
			if where := ask[string](t, n.kind.Get(id), "where"); where == "n3" {
				t.Fatalf("%s still answered from n3", id)
			}
		}
	}
	if after := ask[int64](t, nodes[0].kind.Get(onN3[0]), "token"); after <= before {
		t.Fatalf("fencing token after the move %d, not above %d", after, before)
	}
	if o := w.overlaps(); o != 0 {
		t.Fatalf("%d overlapping activations", o)
	}
}

// TestNotEntity: Passivate and Token refuse actors that are not
// entities.
func TestNotEntity(t *testing.T) {
	w := newWorld()
	_, nodes := startCluster(t, w, clusterSpec{nodes: 1})
	n := nodes[0]
	got := make(chan error, 2)
	ref, err := n.Spawn("plain", "p", func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, _ any) (any, error) {
			_, err := sharding.Token(c)
			got <- err
			got <- sharding.Passivate(c)
			return nil, nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := n.Tell(ref, 1); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := <-got; !errors.Is(err, sharding.ErrNotEntity) {
			t.Fatalf("got %v, want ErrNotEntity", err)
		}
	}
}

// TestRoles: a kind with a role runs only on nodes with it; the others
// route to them.
func TestRoles(t *testing.T) {
	w := newWorld()
	_, nodes := startCluster(t, w, clusterSpec{nodes: 2, kindOpts: []sharding.KindOption{sharding.WithRole("worker")},
		nodeOpts: map[string][]sharding.Option{"n2": {sharding.WithRoles("worker")}}})
	n1, n2 := nodes[0], nodes[1]
	eventually(t, "n2 owns every shard", func() bool { return len(n2.kind.Owned()) == n2.kind.Shards() })
	for i := 0; i < 5; i++ {
		if where := ask[string](t, n1.kind.Get(fmt.Sprint("r", i)), "where"); where != "n2" {
			t.Fatalf("entity runs on %s, the node without the role", where)
		}
	}
	if got := n1.kind.Owned(); len(got) != 0 {
		t.Fatalf("n1, without the role, owns %v", got)
	}
}

// TestBuffer: messages for a shard nobody owns wait, boundedly: past the
// count the send fails with ErrBufferFull, past the time they are dead
// letters with ErrNoOwner, and an ask among them fails with it.
func TestBuffer(t *testing.T) {
	w := newWorld()
	_, nodes := startCluster(t, w, clusterSpec{nodes: 1, kindOpts: []sharding.KindOption{sharding.WithRole("nobody")},
		opts: []sharding.Option{sharding.WithBuffer(3, 100*time.Millisecond)}})
	n := nodes[0]
	e := n.kind.Get("orphan")
	if err := e.Tell(1); err != nil {
		t.Fatal(err)
	}
	if err := e.Tell(2); err != nil {
		t.Fatal(err)
	}
	asked := make(chan error, 1)
	go func() {
		_, err := sharding.Ask[int](context.Background(), e, "sum")
		asked <- err
	}()
	eventually(t, "the ask is buffered", func() bool { return n.kind.Buffered() == 3 })
	if err := e.Tell(4); !errors.Is(err, sharding.ErrBufferFull) {
		t.Fatalf("a fourth message: %v, want ErrBufferFull", err)
	}
	if err := <-asked; !errors.Is(err, sharding.ErrNoOwner) {
		t.Fatalf("buffered ask: %v, want ErrNoOwner", err)
	}
	reasons := map[error]int{}
	for len(reasons) < 2 || reasons[sharding.ErrNoOwner] < 3 {
		select {
		case d := <-n.dead:
			for _, r := range []error{sharding.ErrNoOwner, sharding.ErrBufferFull} {
				if errors.Is(d.Reason, r) {
					reasons[r]++
				}
			}
			if d.Entity.ID() != "orphan" {
				t.Fatalf("dead letter for %v", d.Entity)
			}
		case <-time.After(waitLimit):
			t.Fatalf("dead letters: %v", reasons)
		}
	}
	if w.count("orphan") != 0 {
		t.Fatal("activated with no owner")
	}
}

// TestAcrossNodes: a ref travels in a message and works where it lands;
// errors of an ask come back with their sentinels.
func TestAcrossNodes(t *testing.T) {
	w := newWorld()
	_, nodes := startCluster(t, w, clusterSpec{nodes: 2, shards: 8})
	allOwned(t, nodes...)
	eventually(t, "4 shards each", func() bool { return len(nodes[0].kind.Owned()) == 4 })
	n1 := nodes[0]
	// find an entity on each node
	ids := map[string]string{}
	for i := 0; len(ids) < 2; i++ {
		id := fmt.Sprint("x", i)
		ids[ask[string](t, n1.kind.Get(id), "where")] = id
	}
	from, to := n1.kind.Get(ids["n1"]), n1.kind.Get(ids["n2"])
	if err := from.Tell(relay{To: to, N: 7}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the relayed message handled", func() bool { return ask[int](t, to, "sum") == 7 })

	_, err := sharding.Ask[int](context.Background(), to, "fail")
	if err == nil || err.Error() != "failing on purpose" {
		t.Fatalf("remote handler error = %v", err)
	}
	_, err = sharding.Ask[int](context.Background(), to, 3.5)
	if !errors.Is(err, actor.ErrUnhandled) {
		t.Fatalf("remote unhandled = %v, want ErrUnhandled", err)
	}
	var re *sharding.Error
	if !errors.As(err, &re) {
		t.Fatalf("remote error %T, want *sharding.Error", err)
	}
}

// Token refuses a lease that ran out by the node's clock, even before the
// timer that revokes it has run: an entity of a process paused past its
// lease must not write with a token another node may have superseded.
func TestTokenRefusesALapsedLease(t *testing.T) {
	w := newWorld()
	_, nodes := startCluster(t, w, clusterSpec{nodes: 1, shards: 4})
	allOwned(t, nodes...)
	n := nodes[0]
	if tok := ask[int64](t, n.kind.Get("a"), "token"); tok <= 0 {
		t.Fatalf("token %d", tok)
	}
	sharding.LapseLeases(n.kind)
	// Straight to the activation, as a message already in its mailbox
	// when the process resumes: routing no longer serves the shard.
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	_, err := actor.Ask[int64](ctx, n.System.System, actor.NewRef("n1", "counter", "a"), "token")
	if !errors.Is(err, sharding.ErrNoOwner) {
		t.Fatalf("token after the lease ran out = %v, want ErrNoOwner", err)
	}
}

// TestKilledOwnersMessagesWait: messages for a shard whose owner this
// node counts lost wait in the buffer, as for a shard without an owner,
// and the shard's next owner handles them in order; they are not dead
// letters.
func TestKilledOwnersMessagesWait(t *testing.T) {
	w := newWorld()
	_, nodes := startCluster(t, w, clusterSpec{nodes: 3, shards: 30, opts: []sharding.Option{shortLease}})
	allOwned(t, nodes...)
	n1, n3 := nodes[0], nodes[2]
	eventually(t, "n3 owns shards", func() bool { return len(n3.kind.Owned()) == 10 })
	id := entityOn(t, n1, "n3", "k")
	n3.Remote.Kill()
	eventually(t, "n1 counts n3 lost", func() bool {
		ts, _ := n1.System.TransportStats()
		for _, p := range ts.Peers {
			if p.Node == "n3" {
				return !p.Reachable
			}
		}
		return false
	})
	if o, _ := n1.kind.Owner(sharding.ShardOf(id, 30)); o != "n3" {
		t.Skipf("n3's lease ran out before the test could send (owner %q)", o)
	}
	for i := 1; i <= 5; i++ {
		if err := n1.kind.Get(id).Tell(i); err != nil {
			t.Fatalf("tell %d: %v", i, err)
		}
	}
	eventually(t, "the 5 handled by the next owner", func() bool {
		w.mu.Lock()
		defer w.mu.Unlock()
		return len(w.seen[id]) == 5
	})
	w.mu.Lock()
	got, where := slices.Clone(w.seen[id]), w.where[id]
	w.mu.Unlock()
	if !slices.Equal(got, []int{1, 2, 3, 4, 5}) || where == "n3" {
		t.Fatalf("handled %v on %s, want [1 2 3 4 5] on a survivor", got, where)
	}
	select {
	case d := <-n1.dead:
		t.Fatalf("dead letter on n1: %v %v: %v", d.Entity, d.Message, d.Reason)
	default:
	}
}

// TestLapsedLeaseRefusesQueued: a message that reaches an entity after
// its node's lease ran out by the node's clock, before the keeper stops
// the shard's entities (a process paused or starved past its lease), is
// not handled: another node may serve the entity by then. It is a dead
// letter with ErrNoOwner.
func TestLapsedLeaseRefusesQueued(t *testing.T) {
	w := newWorld()
	_, nodes := startCluster(t, w, clusterSpec{nodes: 1, shards: 4})
	allOwned(t, nodes...)
	n := nodes[0]
	if got := ask[int](t, n.kind.Get("a"), "sum"); got != 0 {
		t.Fatalf("sum %d", got)
	}
	sharding.LapseLeases(n.kind)
	_ = n.kind.Get("a").Tell(7) // the local path: straight to the activation
	select {
	case d := <-n.dead:
		if !errors.Is(d.Reason, sharding.ErrNoOwner) || d.Message != 7 {
			t.Fatalf("dead letter %v: %v, want 7 with ErrNoOwner", d.Message, d.Reason)
		}
	case <-time.After(waitLimit):
		t.Fatal("no dead letter")
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if slices.Contains(w.seen["a"], 7) {
		t.Fatalf("handled %v after the lease ran out", w.seen["a"])
	}
}

// TestRevivedLeaseKeepsOrder: a message that waited while the node's
// lease had run out by its clock goes to its entity once a renewal
// revives the lease (one that was in flight, on a process paused or
// starved past its lease), ahead of what is sent after.
func TestRevivedLeaseKeepsOrder(t *testing.T) {
	w := newWorld()
	_, nodes := startCluster(t, w, clusterSpec{nodes: 1, shards: 4})
	allOwned(t, nodes...)
	n := nodes[0]
	release := sharding.HoldRevoke()
	defer release()
	sharding.StallWatch(n.c) // as in a NATS restart: the table learns nothing
	sharding.LapseLeases(n.kind)
	if err := n.kind.Get("r").Tell(1); err != nil { // waits: no lease served
		t.Fatal(err)
	}
	sharding.RenewNow(n.c)
	release()
	if got := n.kind.Owned(); len(got) != 4 {
		t.Fatalf("the renewal revived %v, want the 4 shards", got)
	}
	if err := n.kind.Get("r").Tell(2); err != nil {
		t.Fatal(err)
	}
	eventually(t, "both handled", func() bool {
		w.mu.Lock()
		defer w.mu.Unlock()
		return len(w.seen["r"]) == 2
	})
	w.mu.Lock()
	defer w.mu.Unlock()
	if got := w.seen["r"]; !slices.Equal(got, []int{1, 2}) {
		t.Fatalf("handled %v, want [1 2]", got)
	}
}

// TestDeadLetterHandlerMaySend: the function of WithDeadLetters may send
// to entities, even for a dead letter that arose while the kind's lock
// was held (a full buffer, refused while routing).
func TestDeadLetterHandlerMaySend(t *testing.T) {
	w := newWorld()
	kinds := make(chan *sharding.Kind, 1)
	passed := make(chan error, 1)
	var once sync.Once
	onDead := sharding.WithDeadLetters(func(d sharding.DeadLetter) {
		once.Do(func() { passed <- (<-kinds).Get("fallback").Tell(1) })
	})
	_, nodes := startCluster(t, w, clusterSpec{nodes: 1, shards: 4,
		opts: []sharding.Option{sharding.WithBuffer(1, waitLimit), onDead}})
	allOwned(t, nodes...)
	n := nodes[0]
	kinds <- n.kind
	release := sharding.HoldRevoke()
	defer release()
	sharding.LapseLeases(n.kind) // what comes now waits: one at most
	_ = n.kind.Get("a").Tell(1)
	if err := n.kind.Get("a").Tell(2); !errors.Is(err, sharding.ErrBufferFull) {
		t.Fatalf("second tell: %v, want ErrBufferFull", err)
	}
	select {
	case <-passed: // sent, or refused: either way it returned
	case <-time.After(waitLimit):
		t.Fatal("the dead-letter function did not return: it waits for the kind's lock")
	}
}
