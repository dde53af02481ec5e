package loop

import (
	"sync"
	"time"
)

// Metrics is a snapshot of a loop's counters and gauges.
type Metrics struct {
	// TasksRun counts macrotasks submitted through the ingress queue that ran.
	TasksRun uint64
	// TimersFired counts timer and interval callbacks run.
	TimersFired uint64
	// MicrotasksRun counts microtasks run (promise reactions included).
	MicrotasksRun uint64
	// ImmediatesRun counts SetImmediate callbacks run.
	ImmediatesRun uint64
	// Panics counts faults reported to the panic handler.
	Panics uint64
	// IngressDepth is the number of tasks and letters waiting in the
	// ingress queue.
	IngressDepth int
	// TimersPending is the number of scheduled timers, as of the loop's last
	// round.
	TimersPending int
	// MailDepth is the number of letters waiting in the mail lane (see
	// [Loop.Post]); IngressDepth counts them too.
	MailDepth int
	// FDsWatched is the number of file descriptors watched, as of the
	// loop's last round.
	FDsWatched int
	// TaskLatency holds estimates of how long macrotasks run, from a 1-in-64
	// sample (P-square estimators, so memory stays constant).
	TaskLatency Percentiles
}

// Percentiles holds quantile estimates of a duration distribution; all zero
// until enough samples arrived.
type Percentiles struct {
	P50, P90, P99 time.Duration
	// Samples is how many observations the estimates are based on.
	Samples uint64
}

// The loop's counters are counted on the loop as small deltas in plain
// fields (Loop.delta) and added to atomics (Loop.pub) at the end of each
// round, only those that changed, so counting costs a few atomic adds per
// round rather than one per callback. A round runs at most maxRoundTasks
// tasks, so deltas cannot overflow. The counters most loops never move
// (immediates, panics) are counted and published in the loop's side
// state, so an idle actor does not pay for them.
const (
	cTasks = iota
	cTimersFired
	cMicrotasks
	cImmediates // from here on, published in loopSide.rare
	cPanics
	numDeltas
	numHot  = cImmediates
	cGauges = numHot // in pub: timers pending (low 32 bits) and fds watched (high 32), published as is
)

// publish makes the loop's counters visible to Metrics. On the loop.
func (l *Loop) publish() {
	// Only the goroutine holding the loop writes its published counters,
	// so each is a load and a store, not a locked add.
	for i, d := range l.delta {
		if d != 0 {
			l.pub[i].Store(l.pub[i].Load() + uint64(d))
			l.delta[i] = 0
		}
	}
	if l.sideHas&sideCounted != 0 {
		l.publishRare()
	}
	gauges := uint64(0)
	if l.timers != nil {
		gauges = uint64(uint32(l.timers.len()))
	}
	if fs := l.fdSet(); fs != nil {
		gauges |= uint64(uint32(len(fs.watches))) << 32
	}
	if l.pub[cGauges].Load() != gauges { // a plain load; stores cost
		l.pub[cGauges].Store(gauges)
	}
}

// countRare counts one of the rare counters (cImmediates, cPanics) in the
// side state. On the loop.
func (l *Loop) countRare(i int) {
	l.sideState().rareDelta[i-numHot]++
	l.sideHas |= sideCounted
}

// publishRare publishes the counters kept in the side state. On the loop.
func (l *Loop) publishRare() {
	s := l.side.Load()
	for i, d := range s.rareDelta {
		if d != 0 {
			s.rare[i].Store(s.rare[i].Load() + uint64(d))
			s.rareDelta[i] = 0
		}
	}
	l.sideHas &^= sideCounted
}

// sampleEvery is the task-duration sampling period, a power of two that
// divides 256: Loop.sample counts tasks mod 256.
const sampleEvery = 64

var _ = [1]struct{}{}[256%sampleEvery] // fails to compile unless sampleEvery divides 256

// Metrics returns a snapshot of the loop's metrics. Safe from any goroutine;
// counters are published at the end of each of the loop's rounds, and
// called on the loop itself Metrics is exact.
func (l *Loop) Metrics() Metrics {
	if l.OnLoop() {
		l.publish()
	}
	m := Metrics{
		TasksRun:      l.pub[cTasks].Load(),
		TimersFired:   l.pub[cTimersFired].Load(),
		MicrotasksRun: l.pub[cMicrotasks].Load(),
		IngressDepth:  int(l.in.size.Load()) + int(l.in.mailN.Load()),
		MailDepth:     int(l.in.mailN.Load()),
	}
	gauges := l.pub[cGauges].Load()
	m.TimersPending, m.FDsWatched = int(uint32(gauges)), int(gauges>>32)
	if side := l.side.Load(); side != nil {
		m.ImmediatesRun = side.rare[cImmediates-numHot].Load()
		m.Panics = side.rare[cPanics-numHot].Load()
		if est := side.latency.Load(); est != nil {
			m.TaskLatency = est.snapshot()
		}
	}
	return m
}

// runSampled runs a macrotask, timing one in sampleEvery. On the loop.
func (l *Loop) runSampled(fn func()) {
	l.sample++
	if l.sample&(sampleEvery-1) != 0 {
		fn()
		return
	}
	l.updateTime()
	start := time.Now()
	fn()
	l.observe(time.Since(start))
}

// deliverSampled hands a letter to the host, timing one in sampleEvery
// macrotasks as runSampled does. On the loop.
func (l *Loop) deliverSampled(h MailHost, m Mail) {
	l.sample++
	if l.sample&(sampleEvery-1) != 0 {
		h.DeliverMail(m)
		return
	}
	l.updateTime()
	start := time.Now()
	h.DeliverMail(m)
	l.observe(time.Since(start))
}

func (l *Loop) observe(d time.Duration) {
	side := l.sideState() // out of line: an idle actor has run too few tasks to be sampled
	est := side.latency.Load()
	if est == nil {
		est = newLatencyEstimator()
		side.latency.Store(est)
	}
	est.add(float64(d))
}

// latencyEstimator tracks three quantiles with P-square estimators.
type latencyEstimator struct {
	mu  sync.Mutex
	n   uint64
	est [3]psquare
}

func newLatencyEstimator() *latencyEstimator {
	e := &latencyEstimator{}
	for i, p := range [3]float64{0.5, 0.9, 0.99} {
		e.est[i].init(p)
	}
	return e
}

func (e *latencyEstimator) add(x float64) {
	e.mu.Lock()
	e.n++
	for i := range e.est {
		e.est[i].add(x)
	}
	e.mu.Unlock()
}

func (e *latencyEstimator) snapshot() Percentiles {
	e.mu.Lock()
	defer e.mu.Unlock()
	return Percentiles{
		P50:     time.Duration(e.est[0].value()),
		P90:     time.Duration(e.est[1].value()),
		P99:     time.Duration(e.est[2].value()),
		Samples: e.n,
	}
}
