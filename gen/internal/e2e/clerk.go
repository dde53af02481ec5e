package e2e

import (
	"errors"

	"github.com/troupe-go/troupe/actor"
)

// ErrNoPeer: Clerk.Peer was asked for a peer it does not have.
var ErrNoPeer = errors.New("e2e: no such peer")

// Line is one line of a bill; a JavaScript object decodes into it.
type Line struct {
	Item  string  `json:"item"`
	Qty   int     `json:"qty"`
	Price float64 `json:"price"`
}

// Clerk is a typed Go actor that JavaScript actors call by name: its
// parameters include a struct slice and a typed ref, and one reply is a
// typed ref.
//
//troupe:actor kind=clerk
type Clerk struct {
	peers []CounterRef
}

// Adopt keeps peer and returns how many peers the clerk has.
func (k *Clerk) Adopt(_ *actor.Context, peer CounterRef) int {
	k.peers = append(k.peers, peer)
	return len(k.peers)
}

// Peer returns the i-th peer adopted.
func (k *Clerk) Peer(_ *actor.Context, i int) (CounterRef, error) {
	if i < 0 || i >= len(k.peers) {
		return CounterRef{}, ErrNoPeer
	}
	return k.peers[i], nil
}

// Bill totals lines and takes off discount percent.
func (k *Clerk) Bill(_ *actor.Context, lines []Line, discount float64) float64 {
	total := 0.0
	for _, l := range lines {
		total += float64(l.Qty) * l.Price
	}
	return total * (100 - discount) / 100
}

// Bump adds by to every peer (a tell).
func (k *Clerk) Bump(_ *actor.Context, by int) {
	for _, p := range k.peers {
		_ = p.Add(by)
	}
}
