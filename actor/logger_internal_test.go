package actor

import (
	"bytes"
	"hash/maphash"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// lockedBuffer is a WriteSyncer for the logger under test.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) Sync() error { return nil }

func (l *lockedBuffer) lines(substr string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Count(l.b.String(), substr)
}

// fakeClock is a zapcore.Clock that moves only when told.
type fakeClock struct{ now time.Time }

func (c *fakeClock) Now() time.Time                         { return c.now }
func (c *fakeClock) NewTicker(d time.Duration) *time.Ticker { return time.NewTicker(d) }

// TestDefaultLoggerSampling: errors are all written; warnings and console
// lines are sampled per message (10 a second, then every 100th), across
// the loggers derived from one default logger, and again in full in the
// next second; other info is dropped.
func TestDefaultLoggerSampling(t *testing.T) {
	// Two messages that the logger under test counts apart: messages whose
	// hashes collide share a counter, and the seed is the sampler's own.
	var apart [2]string
	type logFn func(log *zap.Logger, i int)
	for _, tc := range []struct {
		name     string
		n        int
		log      logFn
		min, max int
	}{
		{"errors kept", 300, func(l *zap.Logger, _ int) { l.Error("line") }, 300, 300},
		{"info dropped", 300, func(l *zap.Logger, _ int) { l.Info("line") }, 0, 0},
		{"warnings sampled", 1000, func(l *zap.Logger, _ int) { l.Warn("line") }, 19, 19},
		{"console sampled", 1000, func(l *zap.Logger, _ int) { l.Named(consoleLogger).Info("line") }, 19, 19},
		{"derived loggers share counters", 1000, func(l *zap.Logger, i int) {
			l.With(zap.Int("actor", i%2)).Warn("line")
		}, 19, 19},
		{"messages counted apart", 1000, func(l *zap.Logger, i int) { l.Warn(apart[i%2]) }, 2 * 14, 2 * 14},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := &lockedBuffer{}
			clock := &fakeClock{now: time.Unix(1e9, 0)}
			log := newDefaultLogger(out).WithOptions(zap.WithClock(clock))
			apart = linesCountedApart(t, log)
			for i := range tc.n {
				tc.log(log, i)
			}
			if got := out.lines("line"); got < tc.min || got > tc.max {
				t.Errorf("%d lines written of %d, want %d to %d", got, tc.n, tc.min, tc.max)
			}
			clock.now = clock.now.Add(time.Second + 1) // a new tick: the first lines again
			before := out.lines("line")
			for i := range 10 {
				tc.log(log, i)
			}
			if tc.max > 0 && out.lines("line")-before != 10 {
				t.Errorf("%d of 10 lines written in the next tick", out.lines("line")-before)
			}
		})
	}
}

// linesCountedApart returns two messages containing "line" that log's
// sampler counts apart.
func linesCountedApart(t *testing.T, log *zap.Logger) [2]string {
	t.Helper()
	s := log.Core().(warnOrConsole).sampled
	slot := func(msg string) uint64 { return maphash.String(s.seed, msg) % sampleCounters }
	for _, b := range []string{"line b", "line c", "line d", "line e", "line f"} {
		if slot(b) != slot("line a") {
			return [2]string{"line a", b}
		}
	}
	t.Fatal("five messages share one of 256 counters")
	return [2]string{}
}

var _ zapcore.WriteSyncer = (*lockedBuffer)(nil)
