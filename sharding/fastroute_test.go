package sharding_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/sharding"
)

// TestFastRouteOrder: many goroutines of one node send numbered tells to
// entities on another node until it has left and its shards are served
// elsewhere: the shards' routes change under the senders, from the
// lock-free forward to the old owner to the new owners (this node for
// some shards). Every tell is handled once, and each goroutine's tells to
// each entity in the order sent.
func TestFastRouteOrder(t *testing.T) {
	w := newWorld()
	// buffers that hold what the senders send during the hand-off
	big := sharding.WithBuffer(1<<20, waitLimit)
	// where each tell was handled, for the failure's message
	var diagMu sync.Mutex
	diag := map[string][]string{}
	fac := func(w *world) actor.Factory {
		return func() actor.Actor {
			inner := w.factory()
			return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
				if m, ok := msg.(int); ok {
					diagMu.Lock()
					diag[c.Self().ID()] = append(diag[c.Self().ID()], fmt.Sprintf("%d:%d@%s", m/1_000_000, m%1_000_000, c.System().Name()))
					diagMu.Unlock()
				}
				return inner.Receive(c, msg)
			})
		}
	}
	_, nodes := startCluster(t, w, clusterSpec{nodes: 3, shards: 30, opts: []sharding.Option{big}, factory: fac})
	allOwned(t, nodes...)
	n1, n3 := nodes[0], nodes[2]
	eventually(t, "n3 owns shards", func() bool { return len(n3.kind.Owned()) == 10 })
	const senders, entities, msgs = 4, 8, 50
	var ids []string
	for i := 0; len(ids) < entities; i++ {
		if id := fmt.Sprint("f", i); ask[string](t, n1.kind.Get(id), "where") == "n3" {
			ids = append(ids, id)
		}
	}
	handled := func() int {
		w.mu.Lock()
		defer w.mu.Unlock()
		n := 0
		for _, id := range ids {
			n += len(w.seen[id])
		}
		return n
	}
	// Each sender sends rounds of one tell to each entity until the move
	// is over, and at least msgs rounds, while at most window tells of
	// all are unhandled: a flood would starve the leases' renewals.
	moved := make(chan struct{})
	rounds := make([]int, senders)
	var sentAll atomic.Int64
	const window = 2000
	var wg sync.WaitGroup
	for g := range senders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; ; j++ {
				select {
				case <-moved:
					if j >= msgs {
						rounds[g] = j
						return
					}
				default:
				}
				for sentAll.Load()-int64(handled()) > window {
					time.Sleep(time.Millisecond)
				}
				sentAll.Add(entities)
				for _, id := range ids {
					// sender g's j-th tell to id
					if err := n1.kind.Get(id).Tell((g+1)*1_000_000 + j); err != nil {
						t.Error(err)
						rounds[g] = j
						return
					}
				}
			}
		}()
	}
	eventually(t, "some tells handled on n3", func() bool { return handled() > senders*entities })
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if err := n3.c.Leave(ctx); err != nil {
		t.Fatal(err)
	}
	allOwned(t, nodes[:2]...)
	close(moved)
	wg.Wait()
	sent := 0
	for _, r := range rounds {
		sent += r * entities
	}
	eventually(t, "every tell handled", func() bool { return handled() >= sent })
	if n := sharding.FastSends(n1.kind); n == 0 {
		t.Fatal("n1 sent nothing by the fast route: the test did not test it")
	} else {
		t.Logf("%d tells; %d of n1's %d forwards by the fast route", sent, n, n1.kind.Stats().Forwarded)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, id := range ids {
		next := make([]int, senders+1)
		for _, m := range w.seen[id] {
			g, j := m/1_000_000, m%1_000_000
			if j != next[g] {
				diagMu.Lock()
				t.Fatalf("%s: sender %d's tell %d handled after its tell %d (sender:tell@node): %v", id, g, j, next[g]-1, diag[id])
			}
			next[g]++
		}
		for g, r := range rounds {
			if next[g+1] != r {
				t.Fatalf("%s handled %d of sender %d's %d tells", id, next[g+1], g+1, r)
			}
		}
	}
	for _, n := range nodes {
		select {
		case d := <-n.dead:
			t.Fatalf("dead letter on %s: %v %v", n.Name(), d.Entity, d.Reason)
		default:
		}
	}
}
