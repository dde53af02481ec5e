package actor

import (
	"bytes"
	"strings"
	"sync"
	"testing"

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

// TestDefaultLoggerSampling: errors are all written; warnings and console
// lines are sampled per message (10 a second, then every 100th) across
// the loggers derived from one default logger; other info is dropped;
// and the sampler's counters are made only once a line needs sampling.
func TestDefaultLoggerSampling(t *testing.T) {
	type logFn func(log *zap.Logger, i int)
	for _, tc := range []struct {
		name     string
		n        int
		log      logFn
		min, max int
		sampler  bool // the sampler was made
	}{
		{"errors kept", 300, func(l *zap.Logger, _ int) { l.Error("line") }, 300, 300, false},
		{"info dropped", 300, func(l *zap.Logger, _ int) { l.Info("line") }, 0, 0, false},
		{"warnings sampled", 1000, func(l *zap.Logger, _ int) { l.Warn("line") }, 10, 20, true},
		{"console sampled", 1000, func(l *zap.Logger, _ int) { l.Named(consoleLogger).Info("line") }, 10, 20, true},
		{"derived loggers share counters", 1000, func(l *zap.Logger, i int) {
			l.With(zap.Int("actor", i%2)).Warn("line")
		}, 10, 20, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := &lockedBuffer{}
			log := newDefaultLogger(out)
			for i := range tc.n {
				tc.log(log, i)
			}
			if got := out.lines("line"); got < tc.min || got > tc.max {
				t.Errorf("%d lines written of %d, want %d to %d", got, tc.n, tc.min, tc.max)
			}
			root := log.Core().(warnOrConsole).sampled.root
			if made := root.sampler != nil; made != tc.sampler {
				t.Errorf("sampler made: %v, want %v", made, tc.sampler)
			}
		})
	}
}

var _ zapcore.WriteSyncer = (*lockedBuffer)(nil)
