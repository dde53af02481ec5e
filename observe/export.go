package observe

import (
	"context"
	"fmt"

	"github.com/prometheus/client_golang/prometheus"
	"go.opentelemetry.io/otel/metric"
)

// The exporters of a set of metrics (the system's, the durable actors'):
// the same definitions and points go to Prometheus and to OpenTelemetry.

// promDescs returns the Prometheus description of each of defs, with
// constLabels on every series.
func promDescs(defs []*metricDef, constLabels prometheus.Labels) map[*metricDef]*prometheus.Desc {
	descs := make(map[*metricDef]*prometheus.Desc, len(defs))
	for _, d := range defs {
		labels := make([]string, len(d.labels))
		for i, l := range d.labels {
			labels[i] = promLabel(l)
		}
		descs[d] = prometheus.NewDesc(d.prom, d.help, labels, constLabels)
	}
	return descs
}

// describe sends the descriptions of defs, in their order.
func describe(ch chan<- *prometheus.Desc, defs []*metricDef, descs map[*metricDef]*prometheus.Desc) {
	for _, d := range defs {
		ch <- descs[d]
	}
}

// sendPoints sends points as constant metrics: counters as counters, the
// rest as gauges.
func sendPoints(ch chan<- prometheus.Metric, descs map[*metricDef]*prometheus.Desc, points []point) {
	for _, p := range points {
		vt := prometheus.GaugeValue
		if p.def.kind == counter {
			vt = prometheus.CounterValue
		}
		ch <- prometheus.MustNewConstMetric(descs[p.def], vt, p.value, p.labels...)
	}
}

// registerOTel creates the instruments of defs on a meter of mp and
// observes the points collect returns whenever a reader collects; the
// returned function stops it.
func registerOTel(mp metric.MeterProvider, defs []*metricDef, collect func() []point) (unregister func() error, err error) {
	meter := mp.Meter(meterName)
	floats := map[*metricDef]metric.Float64Observable{}
	var obs []metric.Observable
	for _, d := range defs {
		var o metric.Float64Observable
		if d.kind == counter {
			o, err = meter.Float64ObservableCounter(d.otel, metric.WithUnit(d.unit), metric.WithDescription(d.help))
		} else {
			o, err = meter.Float64ObservableGauge(d.otel, metric.WithUnit(d.unit), metric.WithDescription(d.help))
		}
		if err != nil {
			return nil, fmt.Errorf("observe: instrument %s: %w", d.otel, err)
		}
		floats[d] = o
		obs = append(obs, o)
	}
	reg, err := meter.RegisterCallback(func(_ context.Context, o metric.Observer) error {
		for _, p := range collect() {
			o.ObserveFloat64(floats[p.def], p.value, metric.WithAttributes(attrs(p)...))
		}
		return nil
	}, obs...)
	if err != nil {
		return nil, fmt.Errorf("observe: register callback: %w", err)
	}
	return reg.Unregister, nil
}
