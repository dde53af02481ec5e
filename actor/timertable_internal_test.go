package actor

import (
	"math/rand/v2"
	"testing"
)

// The keyed-timer table against a model (a set of keys), through random
// adds, drops (of the head and of others) and cancels: every key the model
// has is found with its own timer, no other key is, and an empty table
// keeps neither a head nor a map.
func TestTimerTableAgainstAModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	c := &cell{}
	model := map[int]*keyedTimer{}
	for step := range 20_000 {
		key := rng.IntN(6)
		switch op := rng.IntN(10); {
		case op < 5:
			if model[key] == nil {
				kt := &keyedTimer{c: c, key: key}
				c.addTimer(kt)
				model[key] = kt
			}
		case op < 9:
			if kt := model[key]; kt != nil {
				c.dropTimer(kt)
				delete(model, key)
			}
		default:
			c.cancelTimers()
			clear(model)
		}
		for k := range 6 {
			if got, want := c.timer(k), model[k]; got != want {
				t.Fatalf("step %d: timer(%d) = %p, want %p", step, k, got, want)
			}
		}
		if h := c.timers; len(model) == 0 && h != nil {
			t.Fatalf("step %d: an empty table keeps a head", step)
		} else if h != nil && len(h.more) != len(model)-1 {
			t.Fatalf("step %d: the head's map has %d keys, want %d", step, len(h.more), len(model)-1)
		}
	}
}
