package persist_test

import (
	"context"
	"testing"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/persist"
)

// BenchmarkMetricsOverhead: persist one event then reply, on a
// MemoryStore, with and without the store counted in persist.Metrics
// (compare the two sub-benchmarks of one run).
func BenchmarkMetricsOverhead(b *testing.B) {
	for _, metered := range []bool{false, true} {
		name := "plain"
		if metered {
			name = "metered"
		}
		b.Run(name, func(b *testing.B) {
			var store persist.Store = persist.NewMemoryStore()
			if metered {
				store = persist.NewMetrics().Store("account", store)
			}
			f, err := accountDef(store).Factory()
			if err != nil {
				b.Fatal(err)
			}
			sys, _ := actor.NewSystem("bench")
			defer sys.Shutdown(context.Background())
			ref, _ := sys.Spawn("account", "1", f)
			ctx := context.Background()
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if _, err := actor.Ask[int64](ctx, sys, ref, deposit{1}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkMeteredAppend: one Append of one 16-byte event to a
// MemoryStore, with and without persist.Metrics counting it: the
// wrapper's own cost, without an actor's scheduling around it.
func BenchmarkMeteredAppend(b *testing.B) {
	for _, metered := range []bool{false, true} {
		name := "plain"
		if metered {
			name = "metered"
		}
		b.Run(name, func(b *testing.B) {
			var store persist.Store = persist.NewMemoryStore()
			if metered {
				store = persist.NewMetrics().Store("account", store)
			}
			ctx := context.Background()
			data := make([]byte, 16)
			var end persist.Cursor
			b.ReportAllocs()
			for i := range b.N {
				ev := []persist.Event{{Seq: end.Seq + 1, Payload: persist.Payload{Type: "e", Version: 1, Data: data}}}
				var err error
				if end, err = store.Append(ctx, "e", end, ev); err != nil {
					b.Fatal(i, err)
				}
			}
		})
	}
}
