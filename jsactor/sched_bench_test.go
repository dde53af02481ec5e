package jsactor_test

import (
	"context"
	"testing"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/jsactor"
)

// BenchmarkSchedule10k: one turn sets 10k timeouts (1 h) and clears them.
func BenchmarkSchedule10k(b *testing.B) {
	sys, _ := actor.NewSystem("bench")
	defer sys.Shutdown(context.Background())
	ref, _ := jsactor.Spawn(sys, "js", "s", jsactor.MustCompile("s.js", `
		const cb = () => {};
		module.exports = { go(n) { const ids = []; for (let i = 0; i < n; i++) ids.push(setTimeout(cb, 3600e3, i)); for (const id of ids) clearTimeout(id); return n } };`), jsactor.WithBudget(0))
	for b.Loop() {
		if _, err := jsactor.Ask[int](context.Background(), sys, ref, "go", 10_000); err != nil {
			b.Fatal(err)
		}
	}
}
