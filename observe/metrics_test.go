package observe_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	"go.uber.org/goleak"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/observe"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// busySystem returns a system with workers of two kinds, each of which
// handled messages, one failure and one dead letter.
func busySystem(t *testing.T) *actor.System {
	t.Helper()
	s, err := actor.NewSystem("obs")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Shutdown(context.Background()) })
	echo := func() actor.Actor {
		return actor.ActorFunc(func(_ *actor.Context, msg any) (any, error) {
			if msg == "boom" {
				panic("boom")
			}
			return msg, nil
		})
	}
	var refs []actor.Ref
	for i := range 5 {
		ref, _ := s.Spawn("worker", fmt.Sprint(i), echo)
		if _, err := actor.Ask[int](context.Background(), s, ref, i); err != nil {
			t.Fatal(err)
		}
		refs = append(refs, ref)
	}
	ref, _ := s.Spawn("cache", "c", echo)
	s.Tell(ref, "boom")
	if _, err := actor.Ask[string](context.Background(), s, ref, "after"); err != nil {
		t.Fatal(err)
	}
	// A reply can come before the round that handled its message ends,
	// and a loop publishes its counts at a round's end. Inspect reads them
	// on each actor's loop, which publishes them first.
	for _, r := range append(refs, ref) {
		if _, err := s.Inspect(context.Background(), r); err != nil {
			t.Fatal(err)
		}
	}
	_ = s.Tell(actor.NewRef("obs", "none", "x"), "lost")
	return s
}

func TestOTelReportsByKind(t *testing.T) {
	s := busySystem(t)
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	defer mp.Shutdown(context.Background())
	unregister, err := observe.RegisterOTel(s, mp)
	if err != nil {
		t.Fatal(err)
	}
	defer unregister()
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{} // name{attrs} -> value
	units := map[string]string{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			units[m.Name] = m.Unit
			var pts []metricdata.DataPoint[float64]
			switch d := m.Data.(type) {
			case metricdata.Gauge[float64]:
				pts = d.DataPoints
			case metricdata.Sum[float64]:
				if !d.IsMonotonic {
					t.Errorf("%s: a counter that is not monotonic", m.Name)
				}
				pts = d.DataPoints
			}
			for _, p := range pts {
				var kv []string
				for _, a := range p.Attributes.ToSlice() {
					kv = append(kv, string(a.Key)+"="+a.Value.AsString())
				}
				got[m.Name+"{"+strings.Join(kv, ",")+"}"] = p.Value
			}
		}
	}
	want := map[string]float64{
		"troupe.actors{actor.kind=worker}":                             5,
		"troupe.actors{actor.kind=cache}":                              1,
		"troupe.actor.restarts{actor.kind=cache}":                      1,
		"troupe.dead_letters{reason=not_found}":                        1,
		"troupe.scheduler.workers{state=idle}":                         -1, // present
		"troupe.actor.handling_time{actor.kind=worker,percentile=p99}": -1,
	}
	for k, v := range want {
		g, ok := got[k]
		if !ok {
			t.Errorf("no point %s", k)
		} else if v >= 0 && g != v {
			t.Errorf("%s = %v, want %v", k, g, v)
		}
	}
	if got["troupe.actor.messages{actor.kind=worker}"] < 5 {
		t.Errorf("worker messages %v, want at least 5", got["troupe.actor.messages{actor.kind=worker}"])
	}
	if units["troupe.actor.handling_time"] != "s" || units["troupe.actors"] != "{actor}" {
		t.Errorf("units %v", units)
	}
	for k := range got {
		if strings.Contains(k, "id=") {
			t.Errorf("a series per actor: %s", k)
		}
	}
}

func TestPrometheusCollector(t *testing.T) {
	s := busySystem(t)
	reg := prometheus.NewPedanticRegistry()
	if err := observe.RegisterPrometheus(s, reg); err != nil {
		t.Fatal(err)
	}
	want := `
# HELP troupe_actors Live actors.
# TYPE troupe_actors gauge
troupe_actors{actor_kind="cache",system="obs"} 1
troupe_actors{actor_kind="worker",system="obs"} 5
# HELP troupe_actor_restarts_total Actor failures, each of which restarted (or stopped) the actor.
# TYPE troupe_actor_restarts_total counter
troupe_actor_restarts_total{actor_kind="cache",system="obs"} 1
troupe_actor_restarts_total{actor_kind="worker",system="obs"} 0
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "troupe_actors", "troupe_actor_restarts_total"); err != nil {
		t.Fatal(err)
	}
	if problems, err := testutil.GatherAndLint(reg); err != nil || len(problems) > 0 {
		t.Fatalf("lint: %v %v", problems, err)
	}
	if n, err := testutil.GatherAndCount(reg, "troupe_dead_letters_total"); err != nil || n != 7 {
		t.Fatalf("dead letter series %d, %v; want one per reason", n, err)
	}
}
