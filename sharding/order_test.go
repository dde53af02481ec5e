package sharding_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/troupe-go/troupe/sharding"
)

// TestMoveKeepsOrder: a message a sender sent through the old owner of
// a shard, still in flight when the sender learns of the new owner, is
// not overtaken by the sender's next message, sent to the new owner
// directly: the sender waits until what it sent through the old owner
// has reached the shard's new owner.
func TestMoveKeepsOrder(t *testing.T) {
	w := newWorld()
	_, nodes := startCluster(t, w, clusterSpec{nodes: 3, shards: 30})
	allOwned(t, nodes...)
	n1, n2 := nodes[0], nodes[1]
	eventually(t, "10 shards each", func() bool { return len(n2.kind.Owned()) == 10 })
	id := entityOn(t, n1, "n2", "o")
	s := sharding.ShardOf(id, 30)
	held, release := make(chan struct{}), make(chan struct{})
	remove := sharding.SetInboundHook(func(node, eid string, msg any) {
		if node == "n2" && eid == id && msg == 1 {
			close(held)
			<-release // 1 stays in flight between n1 and n2's routing
		}
	})
	defer remove()
	if err := n1.kind.Get(id).Tell(1); err != nil {
		t.Fatal(err)
	}
	<-held
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if err := n2.c.Leave(ctx); err != nil {
		t.Fatal(err)
	}
	eventually(t, "n1 knows the shard's new owner", func() bool {
		o, ok := n1.kind.Owner(s)
		return ok && o != "n2"
	})
	if err := n1.kind.Get(id).Tell(2); err != nil {
		t.Fatal(err)
	}
	handled := func() []int {
		w.mu.Lock()
		defer w.mu.Unlock()
		return slices.Clone(w.seen[id])
	}
	eventually(t, "2 handled, or held back until 1 arrives", func() bool {
		return slices.Contains(handled(), 2) || n1.kind.Stats().Flushes > 0
	})
	close(release)
	eventually(t, "both handled", func() bool { return len(handled()) == 2 })
	if got := handled(); !slices.Equal(got, []int{1, 2}) {
		t.Fatalf("handled %v, want [1 2]", got)
	}
}

// TestNewOwnerKeepsOrder: a node that becomes the owner of a shard it
// used to forward to another node does not let its next message overtake
// the ones it forwarded there before, even once one of them, back from
// the old owner, has activated the entity locally.
func TestNewOwnerKeepsOrder(t *testing.T) {
	w := newWorld()
	_, nodes := startCluster(t, w, clusterSpec{nodes: 2, shards: 16})
	allOwned(t, nodes...)
	n1, n2 := nodes[0], nodes[1]
	id := entityOn(t, n1, "n2", "o")
	s := sharding.ShardOf(id, 16)
	held := make(chan int, 2)
	release := map[int]chan struct{}{1: make(chan struct{}), 2: make(chan struct{})}
	remove := sharding.SetInboundHook(func(node, eid string, msg any) {
		if n, ok := msg.(int); ok && node == "n2" && eid == id {
			held <- n
			<-release[n]
		}
	})
	defer remove()
	for _, m := range []int{1, 2} {
		if err := n1.kind.Get(id).Tell(m); err != nil {
			t.Fatal(err)
		}
	}
	if n := <-held; n != 1 {
		t.Fatalf("held %d first", n)
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if err := n2.c.Leave(ctx); err != nil {
		t.Fatal(err)
	}
	eventually(t, "n1 serves the shard and n2 knows it", func() bool {
		o, ok := n2.kind.Owner(s)
		return ok && o == "n1" && slices.Contains(n1.kind.Owned(), s)
	})
	handled := func() []int {
		w.mu.Lock()
		defer w.mu.Unlock()
		return slices.Clone(w.seen[id])
	}
	close(release[1]) // 1 goes back to n1 and activates the entity there
	if n := <-held; n != 2 {
		t.Fatalf("held %d second", n)
	}
	eventually(t, "1 handled on n1", func() bool { return len(handled()) == 1 })
	if err := n1.kind.Get(id).Tell(3); err != nil {
		t.Fatal(err)
	}
	eventually(t, "3 handled, or held back until 2 arrives", func() bool {
		return slices.Contains(handled(), 3) || n1.kind.Stats().Flushes > 0
	})
	close(release[2])
	eventually(t, "all handled", func() bool { return len(handled()) == 3 })
	if got := handled(); !slices.Equal(got, []int{1, 2, 3}) {
		t.Fatalf("handled %v, want [1 2 3]", got)
	}
}

// TestGivenUpRouteIsRefused: a node that gives up a route for a shard
// without flushing it (the node it forwarded to counts as lost) sends its
// next messages by the new route at once; what it sent by the old one and
// arrives later (that node was only paused) is a dead letter with
// ErrOvertaken if the sender's later message to the same entity has gone
// ahead (never handled after it), and is handled if none has: on the
// sender's own node when it became the owner, and on a third node.
func TestGivenUpRouteIsRefused(t *testing.T) {
	w := newWorld()
	_, nodes := startCluster(t, w, clusterSpec{nodes: 3, shards: 12, opts: []sharding.Option{sharding.WithStrategy(modulo{})}})
	allOwned(t, nodes...)
	n1, n2, n3 := nodes[0], nodes[1], nodes[2]
	eventually(t, "4 shards each", func() bool { return len(n2.kind.Owned()) == 4 })
	// n2 owns 1, 4, 7 and 10; once it leaves, n1 takes 4 and 10, n3 1 and 7.
	// In each, entity a gets 1 by n2 then 2 by the new route; b gets 1 only.
	var as, bs []string
	for _, s := range n2.kind.Owned() {
		var found []string
		for i := 0; len(found) < 2; i++ {
			if id := fmt.Sprint("g", i); sharding.ShardOf(id, 12) == s {
				found = append(found, id)
			}
		}
		as, bs = append(as, found[0]), append(bs, found[1])
	}
	held, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	remove := sharding.SetInboundHook(func(node, _ string, msg any) {
		if node == "n2" && msg == 1 {
			once.Do(func() { close(held) })
			<-release // the 1s queue behind this one, in n2's region
		}
	})
	defer remove()
	var released sync.Once
	defer released.Do(func() { close(release) })
	for _, id := range append(slices.Clone(as), bs...) {
		if err := n1.kind.Get(id).Tell(1); err != nil {
			t.Fatal(err)
		}
	}
	<-held
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if err := n2.c.Leave(ctx); err != nil {
		t.Fatal(err)
	}
	owners := map[string]string{}
	eventually(t, "n2's shards served elsewhere, as every table says", func() bool {
		for _, id := range as {
			s := sharding.ShardOf(id, 12)
			o1, _ := n1.kind.Owner(s)
			o2, _ := n2.kind.Owner(s)
			if o1 == "" || o1 == "n2" || o2 != o1 {
				return false
			}
			owners[id] = o1
		}
		return true
	})
	restore := sharding.SetReachable(func(self, node string) bool { return !(self == "n1" && node == "n2") })
	defer restore()
	for _, id := range as {
		if err := n1.kind.Get(id).Tell(2); err != nil {
			t.Fatal(err)
		}
	}
	handled := func(id string) []int {
		w.mu.Lock()
		defer w.mu.Unlock()
		return slices.Clone(w.seen[id])
	}
	for _, id := range as {
		eventually(t, "2 handled by "+id, func() bool { return len(handled(id)) > 0 })
	}
	released.Do(func() { close(release) })
	refused := 0
	eventually(t, "each late 1 refused or handled", func() bool {
		for more := true; more; {
			select {
			case d := <-n1.dead:
				refused += isOvertaken(t, d)
			case d := <-n3.dead:
				refused += isOvertaken(t, d)
			default:
				more = false
			}
		}
		n := refused
		for _, id := range as {
			n += len(handled(id)) - 1
		}
		for _, id := range bs {
			n += len(handled(id))
		}
		return n >= len(as)+len(bs)
	})
	on := map[string]int{}
	for i, a := range as {
		on[owners[a]]++
		if got := handled(a); !slices.Equal(got, []int{2}) {
			t.Errorf("%s (on %s) handled %v, want [2]", a, owners[a], got)
		}
		if got := handled(bs[i]); !slices.Equal(got, []int{1}) {
			t.Errorf("%s (on %s) handled %v, want [1]", bs[i], owners[a], got)
		}
	}
	if on["n1"] == 0 || on["n3"] == 0 {
		t.Fatalf("new owners %v: want both the sender's node and a third", on)
	}
}

func isOvertaken(t *testing.T, d sharding.DeadLetter) int {
	t.Helper()
	if !errors.Is(d.Reason, sharding.ErrOvertaken) || d.Message != 1 {
		t.Fatalf("dead letter %v %v: %v, want a 1 refused with ErrOvertaken", d.Entity, d.Message, d.Reason)
	}
	return 1
}

// modulo places shard s on the (s mod n)th of the n nodes that run the
// kind, by name, and moves it there when nodes come or go: tests know
// where a shard goes.
type modulo struct{}

func (modulo) String() string { return "modulo" }

func (modulo) Claim(v sharding.View) []int {
	var out []int
	for s, o := range v.Owners {
		if o == "" && v.Nodes[s%len(v.Nodes)] == v.Self {
			out = append(out, s)
		}
	}
	return out
}

func (modulo) Release(v sharding.View) []int {
	var out []int
	for s, o := range v.Owners {
		if o == v.Self && v.Nodes[s%len(v.Nodes)] != v.Self {
			out = append(out, s)
		}
	}
	return out
}

// TestLostOwnerBackKeepsOrder: messages that waited while their shard's
// owner counted as lost go to it, once it is heard from again, ahead of
// the next message sent.
func TestLostOwnerBackKeepsOrder(t *testing.T) {
	w := newWorld()
	_, nodes := startCluster(t, w, clusterSpec{nodes: 2, shards: 8})
	allOwned(t, nodes...)
	n1 := nodes[0]
	id := entityOn(t, n1, "n2", "l")
	restore := sharding.SetReachable(func(self, node string) bool { return !(self == "n1" && node == "n2") })
	if err := n1.kind.Get(id).Tell(1); err != nil { // waits: its owner counts as lost
		t.Fatal(err)
	}
	restore()
	if err := n1.kind.Get(id).Tell(2); err != nil {
		t.Fatal(err)
	}
	eventually(t, "both handled", func() bool {
		w.mu.Lock()
		defer w.mu.Unlock()
		return len(w.seen[id]) == 2
	})
	w.mu.Lock()
	defer w.mu.Unlock()
	if got := w.seen[id]; !slices.Equal(got, []int{1, 2}) {
		t.Fatalf("handled %v, want [1 2]", got)
	}
}
