package observe

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/troupe-go/troupe/actor"
)

// Collector is a [prometheus.Collector] of a system's figures, the same
// as [RegisterOTel] reports, under Prometheus names
// (troupe_actors{actor_kind="..."}, troupe_actor_messages_total, ...).
// Each scrape visits every actor once.
type Collector struct {
	sys   *actor.System
	descs map[*metricDef]*prometheus.Desc
}

// NewCollector returns a collector of s's figures; the system's name is
// a constant label (system) of every series.
func NewCollector(s *actor.System) *Collector {
	return &Collector{sys: s, descs: promDescs(allMetrics, prometheus.Labels{"system": s.Name()})}
}

// Describe implements [prometheus.Collector].
func (c *Collector) Describe(ch chan<- *prometheus.Desc) {
	describe(ch, allMetrics, c.descs)
}

// Collect implements [prometheus.Collector].
func (c *Collector) Collect(ch chan<- prometheus.Metric) {
	sendPoints(ch, c.descs, collect(c.sys))
}

// RegisterPrometheus registers a [Collector] of s with reg
// (prometheus.DefaultRegisterer if nil).
func RegisterPrometheus(s *actor.System, reg prometheus.Registerer) error {
	if reg == nil {
		reg = prometheus.DefaultRegisterer
	}
	return reg.Register(NewCollector(s))
}

// MetricsHandler returns an http.Handler serving s's figures in the
// Prometheus exposition format, from a registry of its own: mount it at
// /metrics when the program has no registry of its own.
func MetricsHandler(s *actor.System) http.Handler {
	reg := prometheus.NewRegistry()
	reg.MustRegister(NewCollector(s))
	return promhttp.HandlerFor(reg, promhttp.HandlerOpts{})
}
