package jsactor_test

import (
	"context"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/jsactor"
)

// A JS actor reports its budgets and what it has in use to Inspect.
func TestJSActorReportsStats(t *testing.T) {
	sys, err := actor.NewSystem("jsstats")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = sys.Shutdown(context.Background()) }()
	s, err := jsactor.Compile("stats", `module.exports = {
		arm() { setTimeout(() => {}, 3600000); return 1 },
		armUnref() { setInterval(() => {}, 3600000).unref(); return 1 },
	};`)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := jsactor.Spawn(sys, "stats", "1", s, jsactor.WithMemoryBudget(1<<20), jsactor.WithBudget(2*time.Second), jsactor.WithNodeTimers())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, method := range []string{"arm", "arm", "armUnref"} {
		if _, err := jsactor.Ask[int](ctx, sys, ref, method); err != nil {
			t.Fatal(err)
		}
	}
	d, err := sys.Inspect(ctx, ref)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, st := range d.Stats {
		got[st.Name] = st.Value
	}
	for name, want := range map[string]float64{
		"js_timers_pending":     3,
		"js_immediates_pending": 0,
		"js_refed_pending":      2, // the unref'd interval would not keep Node running
		"js_asks_pending":       0,
		"js_memory_budget":      1 << 20,
		"js_turn_budget":        2,
	} {
		if v, ok := got[name]; !ok || v != want {
			t.Errorf("%s = %v (reported: %v), want %v", name, v, ok, want)
		}
	}
	if got["js_turns"] < 4 { // the script's top level, and three handlers
		t.Errorf("js_turns = %v, want at least 4", got["js_turns"])
	}
}
