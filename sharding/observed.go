package sharding

import (
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/troupe-go/troupe/internal/observed"
)

// The observer (package observe) shows a node's sharding from the section
// this file adds to its system: members, each kind's shards per node,
// active entities and buffered messages per shard served here, hand-offs
// in progress, the counters, and the latest changes of owner this node
// saw in the table.

// movesKept is how many changes of owner a node keeps for the observer.
const movesKept = 64

// moves is the ring of the latest changes of owner a node saw.
type moves struct {
	mu   sync.Mutex
	ring [movesKept]moveView
	n    int
}

// moveView is one change of a shard's owner, as the table showed it.
type moveView struct {
	Time  time.Time `json:"time"`
	Kind  string    `json:"kind"`
	Shard int       `json:"shard"`
	From  string    `json:"from"` // "" for none
	To    string    `json:"to"`   // "" for none: released or lost
	Rev   uint64    `json:"rev"`
}

func (m *moves) add(v moveView) {
	m.mu.Lock()
	m.ring[m.n%movesKept] = v
	m.n++
	m.mu.Unlock()
}

// latest returns the kept moves, newest first.
func (m *moves) latest() []moveView {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]moveView, 0, min(m.n, movesKept))
	for i := m.n - 1; i >= 0 && i >= m.n-movesKept; i-- {
		out = append(out, m.ring[i%movesKept])
	}
	return out
}

// noteOwnerLocked records that shard s's owner changed from to to, at
// revision rev. Under k.mu.
func (k *Kind) noteOwnerLocked(s int, from, to string, rev uint64) {
	if from != to {
		k.closeFastLocked(s) // the route to from, if open, is no more
		k.c.moves.add(moveView{Time: time.Now(), Kind: k.name, Shard: s, From: from, To: to, Rev: rev})
	}
}

// clusterView is the observer's section of a node's sharding.
type clusterView struct {
	Node    string       `json:"node"`
	Members []memberView `json:"members"`
	Kinds   []kindView   `json:"kinds"`
	Moves   []moveView   `json:"moves"`
	Stats   Stats        `json:"stats"`
}

type memberView struct {
	Name  string   `json:"name"`
	Roles []string `json:"roles,omitempty"`
}

// kindView is one kind as this node sees it.
type kindView struct {
	Stats    KindStats      `json:"stats"`
	Shards   int            `json:"shards"`
	PerNode  map[string]int `json:"perNode"`  // shards by owner, as the table says; "" for none
	Served   []shardView    `json:"served"`   // the shards this node serves, with entities or messages
	HandOffs []int          `json:"handOffs"` // shards this node is handing off
}

type shardView struct {
	Shard    int `json:"shard"`
	Active   int `json:"active"`
	Buffered int `json:"buffered"`
}

// observe adds the node's section to its system's observer; the
// function it returns takes it away.
func (c *Cluster) observe() (remove func()) {
	return observed.Add(c.sys, observed.Section{Name: "sharding", Read: func() any { return c.observerView() }})
}

// observerView reads the node's sharding for the observer.
func (c *Cluster) observerView() clusterView {
	v := clusterView{Node: c.self, Moves: c.moves.latest(), Stats: c.Stats()}
	c.mu.Lock()
	for name, m := range c.members {
		v.Members = append(v.Members, memberView{Name: name, Roles: m.Roles})
	}
	c.mu.Unlock()
	slices.SortFunc(v.Members, func(a, b memberView) int { return strings.Compare(a.Name, b.Name) })
	kinds := c.kindList()
	slices.SortFunc(kinds, func(a, b *Kind) int { return strings.Compare(a.name, b.name) })
	for _, k := range kinds {
		v.Kinds = append(v.Kinds, k.observerView())
	}
	return v
}

// observerView reads one kind for the observer.
func (k *Kind) observerView() kindView {
	v := kindView{Stats: k.Stats(), Shards: k.cfg.shards, PerNode: map[string]int{}, Served: []shardView{}, HandOffs: []int{}}
	now := time.Now()
	k.mu.Lock()
	defer k.mu.Unlock()
	for s := range k.shards {
		sh := &k.shards[s]
		v.PerNode[sh.owner]++
		if sh.releasing {
			v.HandOffs = append(v.HandOffs, s)
		}
		if sh.serving(now) && (sh.active > 0 || len(sh.buf) > 0) {
			v.Served = append(v.Served, shardView{Shard: s, Active: sh.active, Buffered: len(sh.buf)})
		}
	}
	return v
}
