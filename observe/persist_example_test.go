package observe_test

import (
	"context"
	"fmt"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/observe"
	"github.com/troupe-go/troupe/persist"
)

// exampleLedger runs a durable ledger whose store counts into m, and
// stores two events.
func exampleLedger(m *persist.Metrics) *actor.System {
	s, _ := actor.NewSystem("bank")
	f, _ := ledgerDef(m.Store("ledger", persist.NewMemoryStore())).Factory()
	ref, _ := s.Spawn("ledger", "1", f)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	actor.Ask[int64](ctx, s, ref, int64(5))
	actor.Ask[int64](ctx, s, ref, int64(7))
	return s
}

// Durable actors' figures by kind, for Prometheus: the kinds' stores
// count into a persist.Metrics.
func ExampleRegisterPersistPrometheus() {
	metrics := persist.NewMetrics()
	s := exampleLedger(metrics)
	defer s.Shutdown(context.Background())

	reg := prometheus.NewRegistry()
	observe.RegisterPersistPrometheus(metrics, reg)
	families, _ := reg.Gather()
	for _, f := range families {
		if f.GetName() == "troupe_persist_events_total" {
			m := f.GetMetric()[0]
			fmt.Println(f.GetName(), m.GetLabel()[0].GetValue(), m.GetCounter().GetValue())
		}
	}
	// Output: troupe_persist_events_total ledger 2
}

// The same figures through OpenTelemetry.
func ExampleRegisterPersistOTel() {
	metrics := persist.NewMetrics()
	s := exampleLedger(metrics)
	defer s.Shutdown(context.Background())
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	defer mp.Shutdown(context.Background())
	unregister, _ := observe.RegisterPersistOTel(metrics, mp)
	defer unregister()

	var rm metricdata.ResourceMetrics
	reader.Collect(context.Background(), &rm)
	for _, m := range rm.ScopeMetrics[0].Metrics {
		if m.Name == "troupe.persist.appends" {
			p := m.Data.(metricdata.Sum[float64]).DataPoints[0]
			kind, _ := p.Attributes.Value("actor.kind")
			fmt.Println(m.Name, kind.AsString(), p.Value, m.Unit)
		}
	}
	// Output: troupe.persist.appends ledger 2 {write}
}
