package shardmetrics

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/troupe-go/troupe/sharding"
)

// Collector is a [prometheus.Collector] of a cluster node's figures by
// kind (troupe_sharding_entities{kind="cart",node="n1"}, ...).
type Collector struct {
	c     *sharding.Cluster
	descs map[*def]*prometheus.Desc
}

// NewCollector returns a collector of c's figures.
func NewCollector(c *sharding.Cluster) *Collector {
	col := &Collector{c: c, descs: map[*def]*prometheus.Desc{}}
	for _, d := range all {
		labels := []string{"kind"}
		if d.quantile {
			labels = append(labels, "quantile")
		}
		col.descs[d] = prometheus.NewDesc(d.prom, d.help, labels, prometheus.Labels{"node": c.Name()})
	}
	return col
}

// Describe implements [prometheus.Collector].
func (col *Collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range all {
		ch <- col.descs[d]
	}
}

// Collect implements [prometheus.Collector].
func (col *Collector) Collect(ch chan<- prometheus.Metric) {
	for _, p := range collect(col.c) {
		vt := prometheus.GaugeValue
		if p.d.kind == counter {
			vt = prometheus.CounterValue
		}
		labels := []string{p.kind}
		if p.d.quantile {
			labels = append(labels, p.quantile)
		}
		ch <- prometheus.MustNewConstMetric(col.descs[p.d], vt, p.value, labels...)
	}
}

// RegisterPrometheus registers a [Collector] of c with reg
// (prometheus.DefaultRegisterer if nil).
func RegisterPrometheus(c *sharding.Cluster, reg prometheus.Registerer) error {
	if reg == nil {
		reg = prometheus.DefaultRegisterer
	}
	return reg.Register(NewCollector(c))
}
