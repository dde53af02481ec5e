package persist

import (
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/troupe-go/troupe/loop"
)

// Metrics counts what durable actors do with their stores, by kind:
// writes, events and bytes stored, write latency, recoveries and their
// time, and writes refused by fencing. A store counts into it once
// wrapped with [Metrics.Store] (or [Metrics.States]) under a kind name;
// package observe exports it to Prometheus and OpenTelemetry
// (observe.RegisterPersistPrometheus, observe.RegisterPersistOTel), so
// the core packages pay nothing for the exporters. Safe from any
// goroutine.
//
// Durations are real time (the store's), measured around each call: an
// append's from the call to the store's acknowledgement (for an
// asynchronous append, to its completion), a recovery's from the loading
// of the snapshot to the end of the read of the events after it, decoding
// included (the fold of the events on the actor's loop is not).
type Metrics struct {
	mu    sync.Mutex
	kinds map[string]*kindMetrics
}

// NewMetrics returns Metrics with nothing counted.
func NewMetrics() *Metrics { return &Metrics{kinds: map[string]*kindMetrics{}} }

// KindMetrics is what the actors of one kind did, since the Metrics were
// made. Counters only grow.
type KindMetrics struct {
	Appends      uint64 // writes stored (an event-sourced write, or a state put)
	Events       uint64 // events stored (a state put counts one)
	Bytes        uint64 // payload bytes stored
	AppendErrors uint64 // writes that failed, fenced ones included
	Fenced       uint64 // writes refused because another writer got there first
	// AppendLatency estimates the percentiles of a write's time.
	AppendLatency loop.Percentiles

	Recoveries      uint64 // recoveries (reads of a journal, loads of a state) that succeeded
	RecoveryErrors  uint64 // recoveries that failed (the store, or a record that cannot be read)
	RecoveredEvents uint64 // events read by recoveries
	// RecoveryTime estimates the percentiles of a recovery's time.
	RecoveryTime loop.Percentiles

	Snapshots uint64 // snapshots saved
}

// kindMetrics counts for one kind.
type kindMetrics struct {
	appends, events, bytes, appendErrors, fenced atomic.Uint64
	recoveries, recoveryErrors, recovered, snaps atomic.Uint64
	appendLatency, recoveryTime                  *loop.DurationEstimator

	mu        sync.Mutex
	loadStart map[string]time.Time // entity -> start of its snapshot load
}

// kind returns the counters of kind, made on first use.
func (m *Metrics) kind(kind string) *kindMetrics {
	m.mu.Lock()
	defer m.mu.Unlock()
	k := m.kinds[kind]
	if k == nil {
		k = &kindMetrics{
			appendLatency: loop.NewDurationEstimator(),
			recoveryTime:  loop.NewDurationEstimator(),
			loadStart:     map[string]time.Time{},
		}
		m.kinds[kind] = k
	}
	return k
}

// Kinds returns the kinds counted so far, sorted.
func (m *Metrics) Kinds() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]string, 0, len(m.kinds))
	for k := range m.kinds {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Kind returns what the actors of kind did; zero if nothing was counted.
func (m *Metrics) Kind(kind string) KindMetrics {
	m.mu.Lock()
	k := m.kinds[kind]
	m.mu.Unlock()
	if k == nil {
		return KindMetrics{}
	}
	return KindMetrics{
		Appends:         k.appends.Load(),
		Events:          k.events.Load(),
		Bytes:           k.bytes.Load(),
		AppendErrors:    k.appendErrors.Load(),
		Fenced:          k.fenced.Load(),
		AppendLatency:   k.appendLatency.Percentiles(),
		Recoveries:      k.recoveries.Load(),
		RecoveryErrors:  k.recoveryErrors.Load(),
		RecoveredEvents: k.recovered.Load(),
		RecoveryTime:    k.recoveryTime.Percentiles(),
		Snapshots:       k.snaps.Load(),
	}
}

// wrote counts a write of n events of size bytes that took d.
func (k *kindMetrics) wrote(n, size int, d time.Duration, err error) {
	k.appendLatency.Observe(d)
	if err != nil {
		k.appendErrors.Add(1)
		if isFenced(err) {
			k.fenced.Add(1)
		}
		return
	}
	k.appends.Add(1)
	k.events.Add(uint64(n))
	k.bytes.Add(uint64(size))
}

// startRecovery notes when entity's recovery began (its snapshot load).
func (k *kindMetrics) startRecovery(entity string, at time.Time) {
	k.mu.Lock()
	k.loadStart[entity] = at
	k.mu.Unlock()
}

// recoveryStart returns when entity's recovery began: its snapshot load
// if one was noted, otherwise at.
func (k *kindMetrics) recoveryStart(entity string, at time.Time) time.Time {
	k.mu.Lock()
	defer k.mu.Unlock()
	if s, ok := k.loadStart[entity]; ok {
		delete(k.loadStart, entity)
		return s
	}
	return at
}

// recoveredFrom counts a recovery that began at start and read n events.
func (k *kindMetrics) recoveredFrom(start time.Time, n int, err error) {
	if err != nil {
		k.recoveryErrors.Add(1)
		return
	}
	k.recoveryTime.Observe(time.Since(start))
	k.recoveries.Add(1)
	k.recovered.Add(uint64(n))
}
