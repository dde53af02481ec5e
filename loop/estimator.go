package loop

import "time"

// DurationEstimator estimates the 50th, 90th and 99th percentiles of a
// stream of durations in constant memory (P-square estimators), as a
// loop does for its task latency. Safe from any goroutine.
type DurationEstimator struct{ e *latencyEstimator }

// NewDurationEstimator returns an estimator with no observations.
func NewDurationEstimator() *DurationEstimator {
	return &DurationEstimator{e: newLatencyEstimator()}
}

// Observe adds one duration.
func (d *DurationEstimator) Observe(x time.Duration) { d.e.add(float64(x)) }

// Percentiles returns the current estimates; all zero until enough
// observations arrived.
func (d *DurationEstimator) Percentiles() Percentiles { return d.e.snapshot() }
