package observe

import (
	"errors"
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
	return registerOTel(mp, allMetrics, func() []point { return collect(s) })
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
