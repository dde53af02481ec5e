package shardmetrics

import (
	"context"
	"errors"
	"fmt"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"

	"github.com/troupe-go/troupe/sharding"
)

// meterName is the instrumentation scope of the instruments.
const meterName = "github.com/troupe-go/troupe/sharding/shardmetrics"

// RegisterOTel creates the instruments on a meter of mp and reports c's
// figures through them whenever a reader collects, with the attributes
// sharding.kind and sharding.node (and quantile for latencies). Call the
// returned function to stop reporting.
func RegisterOTel(c *sharding.Cluster, mp metric.MeterProvider) (unregister func() error, err error) {
	if c == nil || mp == nil {
		return nil, errors.New("shardmetrics: RegisterOTel needs a cluster and a meter provider")
	}
	m := mp.Meter(meterName)
	inst := map[*def]metric.Float64Observable{}
	var obs []metric.Observable
	for _, d := range all {
		var o metric.Float64Observable
		if d.kind == counter {
			o, err = m.Float64ObservableCounter(d.otel, metric.WithUnit(d.unit), metric.WithDescription(d.help))
		} else {
			o, err = m.Float64ObservableGauge(d.otel, metric.WithUnit(d.unit), metric.WithDescription(d.help))
		}
		if err != nil {
			return nil, fmt.Errorf("shardmetrics: instrument %s: %w", d.otel, err)
		}
		inst[d] = o
		obs = append(obs, o)
	}
	node := attribute.String("sharding.node", c.Name())
	reg, err := m.RegisterCallback(func(_ context.Context, o metric.Observer) error {
		for _, p := range collect(c) {
			attrs := []attribute.KeyValue{node, attribute.String("sharding.kind", p.kind)}
			if p.d.quantile {
				attrs = append(attrs, attribute.String("quantile", p.quantile))
			}
			o.ObserveFloat64(inst[p.d], p.value, metric.WithAttributes(attrs...))
		}
		return nil
	}, obs...)
	if err != nil {
		return nil, fmt.Errorf("shardmetrics: register callback: %w", err)
	}
	return reg.Unregister, nil
}
