package observe_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/loop"
	"github.com/troupe-go/troupe/observe"
)

func exampleSystem() *actor.System {
	s, _ := actor.NewSystem("example")
	for _, id := range []string{"a", "b"} {
		s.Spawn("worker", id, func() actor.Actor {
			return actor.ActorFunc(func(*actor.Context, any) (any, error) { return nil, nil })
		})
	}
	return s
}

func ExampleNewObserver() {
	s := exampleSystem()
	defer s.Shutdown(context.Background())
	obs, _ := observe.NewObserver(s) // read-only: no observe.WithActions()
	defer obs.Close()
	srv := httptest.NewServer(obs) // or http.Handle("/observer/", http.StripPrefix("/observer", obs))
	defer srv.Close()

	resp, err := http.Get(srv.URL + "/api/summary")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	var sum struct{ Actors int }
	json.NewDecoder(resp.Body).Decode(&sum)
	fmt.Println(sum.Actors, "actors")
	// Output: 2 actors
}

func ExampleRegisterPrometheus() {
	s := exampleSystem()
	defer s.Shutdown(context.Background())
	reg := prometheus.NewRegistry()
	observe.RegisterPrometheus(s, reg) // or mount observe.MetricsHandler(s)
	families, _ := reg.Gather()
	for _, f := range families {
		if f.GetName() == "troupe_actors" {
			m := f.GetMetric()[0]
			fmt.Println(f.GetName(), m.GetLabel()[0].GetValue(), m.GetGauge().GetValue())
		}
	}
	// Output: troupe_actors worker 2
}

func ExampleRegisterOTel() {
	s := exampleSystem()
	defer s.Shutdown(context.Background())
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	defer mp.Shutdown(context.Background())
	unregister, _ := observe.RegisterOTel(s, mp)
	defer unregister()

	var rm metricdata.ResourceMetrics
	reader.Collect(context.Background(), &rm)
	for _, m := range rm.ScopeMetrics[0].Metrics {
		if m.Name == "troupe.actors" {
			p := m.Data.(metricdata.Gauge[float64]).DataPoints[0]
			kind, _ := p.Attributes.Value("actor.kind")
			fmt.Println(m.Name, kind.AsString(), p.Value, m.Unit)
		}
	}
	// Output: troupe.actors worker 2 {actor}
}

// A test drives the observer's readings with a virtual clock: here the
// rate history it keeps while no page is open.
func ExampleWithClock() {
	s := exampleSystem()
	defer s.Shutdown(context.Background())
	clock := loop.NewVirtualClock()
	obs, _ := observe.NewObserver(s, observe.WithClock(clock))
	defer obs.Close()
	for range 2 {
		clock.Advance(5 * time.Second) // a background reading
	}

	rec := httptest.NewRecorder()
	obs.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/summary", nil))
	var sum struct {
		Rates struct{ Times []int64 }
	}
	json.Unmarshal(rec.Body.Bytes(), &sum)
	fmt.Println(len(sum.Rates.Times), "rate readings,", sum.Rates.Times[1]-sum.Rates.Times[0], "ms apart")
	// Output: 2 rate readings, 5000 ms apart
}
