package loop

import (
	"math/rand/v2"
	"testing"
)

// The set agrees with a model through random adds and removes, every loop
// knows its index, removing a loop twice or one never added changes
// nothing, and a set emptied out gives back its array.
func TestLoopSetAgainstAModel(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var s loopSet
	model := map[*Loop]bool{}
	var all []*Loop
	for range 20000 {
		switch op := r.IntN(10); {
		case op < 6 || len(all) == 0:
			l := &Loop{}
			s.add(l)
			model[l] = true
			all = append(all, l)
		default:
			l := all[r.IntN(len(all))] // may be removed already
			s.remove(l)
			delete(model, l)
		}
		if s.len() != len(model) {
			t.Fatalf("len %d, model %d", s.len(), len(model))
		}
	}
	s.remove(&Loop{}) // never added: its zero index names another loop
	i := 0
	for l := range s.all() {
		if !model[l] || int(l.in.setIdx) != i {
			t.Fatalf("slot %d: in model %v, index %d", i, model[l], l.in.setIdx)
		}
		i++
	}
	if s.len() != len(model) {
		t.Fatalf("len %d after removing a stranger, model %d", s.len(), len(model))
	}
	for l := range model {
		s.remove(l)
	}
	if s.len() != 0 || len(s.chunks) > 1 {
		t.Fatalf("emptied set: len %d, %d chunks", s.len(), len(s.chunks))
	}
}
