package observe_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/loop"
	"github.com/troupe-go/troupe/observe"
	"github.com/troupe-go/troupe/persist"
	"github.com/troupe-go/troupe/remote/wire"
)

type (
	added  struct{ N int64 }
	ledger struct{ Sum int64 }
)

// ledgerDef is an event-sourced actor whose int commands add to a sum.
func ledgerDef(store persist.Store) *persist.EventSourced[ledger, int64, added] {
	reg := wire.NewRegistry()
	if err := wire.Register[added](reg, "ledger.added"); err != nil {
		panic(err)
	}
	if err := wire.Register[ledger](reg, "ledger.state"); err != nil {
		panic(err)
	}
	return &persist.EventSourced[ledger, int64, added]{
		Store:  store,
		Schema: persist.NewSchema(reg),
		Command: func(c *persist.Command[ledger, added], n int64) (any, error) {
			if n == 0 {
				return c.State().Sum, nil
			}
			return loop.Then(c.Persist(added{n}), func(s ledger) (int64, error) { return s.Sum, nil }), nil
		},
		Apply:         func(s ledger, e added) ledger { s.Sum += e.N; return s },
		SnapshotEvery: 2,
	}
}

// persistSystem runs a ledger that stored three events, its store counted
// in the returned metrics under kind "ledger".
func persistSystem(t *testing.T) (*actor.System, *persist.Metrics, actor.Ref) {
	t.Helper()
	s, err := actor.NewSystem("obs")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Shutdown(context.Background()) })
	m := persist.NewMetrics()
	f, err := ledgerDef(m.Store("ledger", persist.NewMemoryStore())).Factory()
	if err != nil {
		t.Fatal(err)
	}
	ref, _ := s.Spawn("ledger", "1", f)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for _, n := range []int64{1, 2, 3} {
		if _, err := actor.Ask[int64](ctx, s, ref, n); err != nil {
			t.Fatal(err)
		}
	}
	return s, m, ref
}

func TestPersistMetricsPrometheus(t *testing.T) {
	_, m, _ := persistSystem(t)
	reg := prometheus.NewPedanticRegistry()
	if err := observe.RegisterPersistPrometheus(m, reg); err != nil {
		t.Fatal(err)
	}
	want := `
# HELP troupe_persist_appends_total Writes stored by durable actors (an event-sourced write, a state put).
# TYPE troupe_persist_appends_total counter
troupe_persist_appends_total{actor_kind="ledger"} 3
# HELP troupe_persist_recoveries_total Recoveries of durable actors that succeeded.
# TYPE troupe_persist_recoveries_total counter
troupe_persist_recoveries_total{actor_kind="ledger"} 1
# HELP troupe_persist_fenced_total Writes refused because another writer got there first (a stale owner).
# TYPE troupe_persist_fenced_total counter
troupe_persist_fenced_total{actor_kind="ledger"} 0
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want),
		"troupe_persist_appends_total", "troupe_persist_recoveries_total", "troupe_persist_fenced_total"); err != nil {
		t.Fatal(err)
	}
	if problems, err := testutil.GatherAndLint(reg); err != nil || len(problems) > 0 {
		t.Fatalf("lint: %v %v", problems, err)
	}
	if n, err := testutil.GatherAndCount(reg, "troupe_persist_append_seconds"); err != nil || n != 3 {
		t.Fatalf("append latency series %d, %v; want p50, p90, p99", n, err)
	}
}

func TestPersistMetricsOTel(t *testing.T) {
	_, m, _ := persistSystem(t)
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	defer mp.Shutdown(context.Background())
	unregister, err := observe.RegisterPersistOTel(m, mp)
	if err != nil {
		t.Fatal(err)
	}
	defer unregister()
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, sm := range rm.ScopeMetrics {
		for _, mt := range sm.Metrics {
			if s, ok := mt.Data.(metricdata.Sum[float64]); ok {
				for _, p := range s.DataPoints {
					kind, _ := p.Attributes.Value("actor.kind")
					got[mt.Name+"{"+kind.AsString()+"}"] = p.Value
				}
			}
		}
	}
	for name, v := range map[string]float64{
		"troupe.persist.appends{ledger}":          3,
		"troupe.persist.events{ledger}":           3,
		"troupe.persist.recoveries{ledger}":       1,
		"troupe.persist.recovered_events{ledger}": 0,
	} {
		if got[name] != v {
			t.Errorf("%s = %v, want %v (all: %v)", name, got[name], v, got)
		}
	}
	if got["troupe.persist.bytes{ledger}"] <= 0 {
		t.Errorf("no bytes counted: %v", got)
	}
}

// The observer's inspect view shows a durable actor's journal end and its
// last snapshot (the stats it reports).
func TestObserverInspectsADurableActor(t *testing.T) {
	s, _, ref := persistSystem(t)
	o := newObserver(t, s)
	var d struct {
		Stats []struct {
			Name  string  `json:"name"`
			Value float64 `json:"value"`
		} `json:"stats"`
	}
	stats := map[string]float64{}
	for range 1000 { // the snapshot after event 2 is saved off the loop
		if code, body := get(t, o, "/api/actor?ref="+ref.Path(), &d); code != http.StatusOK {
			t.Fatalf("%d %s", code, body)
		}
		for _, st := range d.Stats {
			stats[st.Name] = st.Value
		}
		if stats["persist_snapshot_seq"] == 2 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	if stats["persist_seq"] != 3 || stats["persist_snapshot_seq"] != 2 {
		t.Fatalf("inspected stats %v, want persist_seq 3 and persist_snapshot_seq 2", stats)
	}
}
