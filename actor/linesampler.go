package actor

import (
	"hash/maphash"
	"sync/atomic"
	"time"

	"go.uber.org/zap/zapcore"
)

// lineSampler bounds how many lines of one message and level the default
// logger writes: in each tick, the first `first`, then every
// `thereafter`-th. It samples as zap's sampler core does, but that core
// keeps 4096 counters for each of the 7 levels (448 KB) with every
// logger, most of a small program's live heap: its garbage collector then
// ran about a fifth more often. The default logger samples two levels, so
// this one keeps 256 counters for each (8 KB). Messages whose hashes
// collide share a counter, as in zap. Safe for concurrent use.
type lineSampler struct {
	tick              int64 // ns
	first, thereafter uint64
	seed              maphash.Seed
	counts            [sampledLevels][sampleCounters]lineCount
}

const (
	sampledLevels  = 2 // Info (console lines) and Warn
	sampleCounters = 256
)

// lineCount counts one message's lines in the current tick.
type lineCount struct {
	resetAt atomic.Int64 // when the tick ends, in ns
	n       atomic.Uint64
}

func newLineSampler(tick time.Duration, first, thereafter uint64) *lineSampler {
	return &lineSampler{tick: int64(tick), first: first, thereafter: thereafter, seed: maphash.MakeSeed()}
}

// keep reports whether e is written. Only Info and Warn lines are
// sampled; others are always kept.
func (s *lineSampler) keep(e zapcore.Entry) bool {
	lvl := int(e.Level - zapcore.InfoLevel)
	if lvl < 0 || lvl >= sampledLevels {
		return true
	}
	c := &s.counts[lvl][maphash.String(s.seed, e.Message)%sampleCounters]
	n := c.inc(e.Time.UnixNano(), s.tick)
	return n <= s.first || (n-s.first)%s.thereafter == 0
}

// inc counts a line at now, starting a new tick if the last one is over.
func (c *lineCount) inc(now, tick int64) uint64 {
	if resetAt := c.resetAt.Load(); now > resetAt {
		if c.resetAt.CompareAndSwap(resetAt, now+tick) {
			c.n.Store(1)
			return 1
		}
	}
	return c.n.Add(1)
}
