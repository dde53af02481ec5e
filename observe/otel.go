package observe

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"

	"github.com/troupe-go/troupe/actor"
)

// meterName is the instrumentation scope of troupe's instruments.
const meterName = "github.com/troupe-go/troupe/observe"

// RegisterOTel creates troupe's instruments on a meter of mp and reports
// the system's figures through them, aggregated by actor kind, whenever
// a reader collects: actors, mailbox depth, messages handled, restarts,
// handling time and mailbox wait (worst estimate of the kind, by
// quantile), dead letters by reason, asks timed out, scheduler workers
// and run queues, and remote peers and counters when the system has a
// transport. One collection visits every actor once. Call the returned
// function to stop reporting.
func RegisterOTel(s *actor.System, mp metric.MeterProvider) (unregister func() error, err error) {
	if s == nil || mp == nil {
		return nil, errors.New("observe: RegisterOTel needs a system and a meter provider")
	}
	m := mp.Meter(meterName)
	floats := map[*metricDef]metric.Float64Observable{}
	var obs []metric.Observable
	for _, d := range allMetrics {
		var o metric.Float64Observable
		var err error
		if d.kind == counter {
			o, err = m.Float64ObservableCounter(d.otel, metric.WithUnit(d.unit), metric.WithDescription(d.help))
		} else {
			o, err = m.Float64ObservableGauge(d.otel, metric.WithUnit(d.unit), metric.WithDescription(d.help))
		}
		if err != nil {
			return nil, fmt.Errorf("observe: instrument %s: %w", d.otel, err)
		}
		floats[d] = o
		obs = append(obs, o)
	}
	reg, err := m.RegisterCallback(func(_ context.Context, o metric.Observer) error {
		for _, p := range collect(s) {
			o.ObserveFloat64(floats[p.def], p.value, metric.WithAttributes(attrs(p)...))
		}
		return nil
	}, obs...)
	if err != nil {
		return nil, fmt.Errorf("observe: register callback: %w", err)
	}
	return reg.Unregister, nil
}

// attrs returns a point's labels as attributes; the system's name goes
// with every point so that two systems in one process stay apart.
func attrs(p point) []attribute.KeyValue {
	kv := make([]attribute.KeyValue, len(p.labels))
	for i, v := range p.labels {
		kv[i] = attribute.String(p.def.labels[i], v)
	}
	return kv
}

// promLabel turns an OpenTelemetry attribute name into a Prometheus label.
func promLabel(name string) string { return strings.ReplaceAll(name, ".", "_") }
