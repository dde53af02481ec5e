package observe

import (
	"errors"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.opentelemetry.io/otel/metric"

	"github.com/troupe-go/troupe/persist"
)

// The metrics of durable actors (package persist), by actor kind, read
// from a *persist.Metrics: the stores of the kinds' actors count into it
// (persist.Metrics.Store).
var (
	mPersistAppends      = &metricDef{"troupe.persist.appends", "troupe_persist_appends_total", "{write}", "Writes stored by durable actors (an event-sourced write, a state put).", counter, []string{"actor.kind"}}
	mPersistEvents       = &metricDef{"troupe.persist.events", "troupe_persist_events_total", "{event}", "Events stored by durable actors.", counter, []string{"actor.kind"}}
	mPersistBytes        = &metricDef{"troupe.persist.bytes", "troupe_persist_bytes_total", "By", "Payload bytes stored by durable actors.", counter, []string{"actor.kind"}}
	mPersistErrors       = &metricDef{"troupe.persist.append_errors", "troupe_persist_append_errors_total", "{write}", "Writes that failed, fenced ones included.", counter, []string{"actor.kind"}}
	mPersistFenced       = &metricDef{"troupe.persist.fenced", "troupe_persist_fenced_total", "{write}", "Writes refused because another writer got there first (a stale owner).", counter, []string{"actor.kind"}}
	mPersistLatency      = &metricDef{"troupe.persist.append_latency", "troupe_persist_append_seconds", "s", "Time of a write, to the store's acknowledgement, by percentile.", gauge, []string{"actor.kind", "percentile"}}
	mPersistRecoveries   = &metricDef{"troupe.persist.recoveries", "troupe_persist_recoveries_total", "{recovery}", "Recoveries of durable actors that succeeded.", counter, []string{"actor.kind"}}
	mPersistRecoveryErrs = &metricDef{"troupe.persist.recovery_errors", "troupe_persist_recovery_errors_total", "{recovery}", "Recoveries that failed (the store, or a record that cannot be read).", counter, []string{"actor.kind"}}
	mPersistRecovered    = &metricDef{"troupe.persist.recovered_events", "troupe_persist_recovered_events_total", "{event}", "Events read by recoveries.", counter, []string{"actor.kind"}}
	mPersistRecoveryTime = &metricDef{"troupe.persist.recovery_time", "troupe_persist_recovery_seconds", "s", "Time of a recovery's reads (snapshot and events), by percentile.", gauge, []string{"actor.kind", "percentile"}}
	mPersistSnapshots    = &metricDef{"troupe.persist.snapshots", "troupe_persist_snapshots_total", "{snapshot}", "Snapshots saved.", counter, []string{"actor.kind"}}

	persistMetrics = []*metricDef{mPersistAppends, mPersistEvents, mPersistBytes, mPersistErrors, mPersistFenced,
		mPersistLatency, mPersistRecoveries, mPersistRecoveryErrs, mPersistRecovered, mPersistRecoveryTime, mPersistSnapshots}
)

// collectPersist returns the points of m's kinds.
func collectPersist(m *persist.Metrics) []point {
	var pts []point
	add := func(d *metricDef, v float64, labels ...string) {
		pts = append(pts, point{d, labels, v})
	}
	for _, kind := range m.Kinds() {
		k := m.Kind(kind)
		add(mPersistAppends, float64(k.Appends), kind)
		add(mPersistEvents, float64(k.Events), kind)
		add(mPersistBytes, float64(k.Bytes), kind)
		add(mPersistErrors, float64(k.AppendErrors), kind)
		add(mPersistFenced, float64(k.Fenced), kind)
		add(mPersistRecoveries, float64(k.Recoveries), kind)
		add(mPersistRecoveryErrs, float64(k.RecoveryErrors), kind)
		add(mPersistRecovered, float64(k.RecoveredEvents), kind)
		add(mPersistSnapshots, float64(k.Snapshots), kind)
		lat, rec := k.AppendLatency, k.RecoveryTime
		for i, q := range percentiles {
			add(mPersistLatency, [3]time.Duration{lat.P50, lat.P90, lat.P99}[i].Seconds(), kind, q)
			add(mPersistRecoveryTime, [3]time.Duration{rec.P50, rec.P90, rec.P99}[i].Seconds(), kind, q)
		}
	}
	return pts
}

// PersistCollector is a [prometheus.Collector] of durable actors'
// figures by kind (troupe_persist_appends_total{actor_kind="..."},
// troupe_persist_append_seconds{percentile="p99"}, ...), read from a
// *persist.Metrics at each scrape.
type PersistCollector struct {
	m     *persist.Metrics
	descs map[*metricDef]*prometheus.Desc
}

// NewPersistCollector returns a collector of m's figures.
func NewPersistCollector(m *persist.Metrics) *PersistCollector {
	return &PersistCollector{m: m, descs: promDescs(persistMetrics, nil)}
}

// Describe implements [prometheus.Collector].
func (c *PersistCollector) Describe(ch chan<- *prometheus.Desc) {
	describe(ch, persistMetrics, c.descs)
}

// Collect implements [prometheus.Collector].
func (c *PersistCollector) Collect(ch chan<- prometheus.Metric) {
	sendPoints(ch, c.descs, collectPersist(c.m))
}

// RegisterPersistPrometheus registers a [PersistCollector] of m with reg
// (prometheus.DefaultRegisterer if nil).
func RegisterPersistPrometheus(m *persist.Metrics, reg prometheus.Registerer) error {
	if m == nil {
		return errors.New("observe: RegisterPersistPrometheus needs metrics")
	}
	if reg == nil {
		reg = prometheus.DefaultRegisterer
	}
	return reg.Register(NewPersistCollector(m))
}

// RegisterPersistOTel creates the durable actors' instruments on a meter
// of mp and reports m's figures through them, by kind, whenever a reader
// collects. Call the returned function to stop reporting.
func RegisterPersistOTel(m *persist.Metrics, mp metric.MeterProvider) (unregister func() error, err error) {
	if m == nil || mp == nil {
		return nil, errors.New("observe: RegisterPersistOTel needs metrics and a meter provider")
	}
	return registerOTel(mp, persistMetrics, func() []point { return collectPersist(m) })
}
