package shardmetrics_test

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	"go.uber.org/goleak"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/remote"
	"github.com/troupe-go/troupe/sharding"
	"github.com/troupe-go/troupe/sharding/shardmetrics"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// counter is an entity that counts what it gets.
type counter struct{ n int }

func (c *counter) Receive(_ *actor.Context, msg any) (any, error) {
	c.n++
	return c.n, nil
}

// startNode starts one node running the bucket's JetStream, with a kind
// "cart" of 4 shards whose entities "a" and "b" are active, and returns
// a function that stops it all.
func startNode(name string) (*sharding.Cluster, func(), error) {
	ctx := context.Background()
	sys, err := actor.NewSystem(name)
	if err != nil {
		return nil, nil, err
	}
	dir, err := os.MkdirTemp("", "shardmetrics")
	if err != nil {
		return nil, nil, err
	}
	node, err := remote.Start(sys, sharding.EmbeddedJetStream(dir))
	if err != nil {
		return nil, nil, err
	}
	c, err := sharding.Start(sys, node, sharding.WithMemoryStorage())
	stop := func() {
		if c != nil {
			_ = c.Close()
		}
		_ = node.Close(ctx)
		_ = sys.Shutdown(ctx)
		_ = os.RemoveAll(dir)
	}
	if err != nil {
		stop()
		return nil, nil, err
	}
	carts, err := sharding.Register(c, "cart", func() actor.Actor { return &counter{} }, sharding.WithShards(4))
	if err != nil {
		stop()
		return nil, nil, err
	}
	for _, id := range []string{"a", "b"} {
		if _, err := sharding.Ask[int](ctx, carts.Get(id), "hello"); err != nil {
			stop()
			return nil, nil, err
		}
	}
	// the claims run in parallel: wait for all of them (polled, no sleep
	// to wait a time)
	for deadline := time.Now().Add(30 * time.Second); len(carts.Owned()) < carts.Shards(); time.Sleep(2 * time.Millisecond) {
		if time.Now().After(deadline) {
			stop()
			return nil, nil, fmt.Errorf("only shards %v of %d owned", carts.Owned(), carts.Shards())
		}
	}
	return c, stop, nil
}

func mustStart(t *testing.T, name string) *sharding.Cluster {
	t.Helper()
	c, stop, err := startNode(name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return c
}

// TestPrometheus: the collector reports the kind's figures with the kind
// and node labels.
func TestPrometheus(t *testing.T) {
	c := mustStart(t, "metrics-1")
	reg := prometheus.NewPedanticRegistry()
	if err := shardmetrics.RegisterPrometheus(c, reg); err != nil {
		t.Fatal(err)
	}
	got := gather(t, reg)
	for name, want := range map[string]float64{
		`troupe_sharding_entities{kind="cart",node="metrics-1"}`:          2,
		`troupe_sharding_activations_total{kind="cart",node="metrics-1"}`: 2,
		`troupe_sharding_claims_total{kind="cart",node="metrics-1"}`:      4,
		`troupe_sharding_shards{kind="cart",node="metrics-1"}`:            4,
	} {
		if got[name] != want {
			t.Errorf("%s = %v, want %v", name, got[name], want)
		}
	}
	if got[`troupe_sharding_claim_seconds{kind="cart",node="metrics-1",quantile="p50"}`] <= 0 {
		t.Errorf("no claim latency: %v", got)
	}
}

// gather returns every sample of reg by its name and labels.
func gather(t *testing.T, reg *prometheus.Registry) map[string]float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, mf := range mfs {
		for _, m := range mf.GetMetric() {
			key := mf.GetName() + "{"
			for i, l := range m.GetLabel() {
				if i > 0 {
					key += ","
				}
				key += fmt.Sprintf("%s=%q", l.GetName(), l.GetValue())
			}
			key += "}"
			v := m.GetGauge().GetValue() + m.GetCounter().GetValue()
			out[key] = v
		}
	}
	return out
}

// TestOTel: a reader's collection carries the kind's figures.
func TestOTel(t *testing.T) {
	c := mustStart(t, "metrics-2")
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	defer func() { _ = mp.Shutdown(context.Background()) }()
	unregister, err := shardmetrics.RegisterOTel(c, mp)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = unregister() }()
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name != "troupe.sharding.activations" {
				continue
			}
			for _, dp := range m.Data.(metricdata.Sum[float64]).DataPoints {
				kind, _ := dp.Attributes.Value("sharding.kind")
				node, _ := dp.Attributes.Value("sharding.node")
				if kind.AsString() == "cart" && node.AsString() == "metrics-2" && dp.Value == 2 {
					found = true
				}
			}
		}
	}
	if !found {
		t.Fatalf("no troupe.sharding.activations of 2 for cart on metrics-2 in %+v", rm)
	}
	if _, err := shardmetrics.RegisterOTel(nil, mp); err == nil {
		t.Fatal("RegisterOTel(nil) accepted")
	}
}
