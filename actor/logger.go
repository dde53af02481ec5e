package actor

import (
	"os"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// consoleLogger is the name (zap's Logger.Named) of loggers whose lines
// the default logger writes from Info: script console output, which a
// user printed on purpose.
const consoleLogger = "console"

// defaultLogger writes warnings and errors to stderr in zap's console
// format: one readable line each, where a new user looks (a terminal).
// A service that wants JSON, another level or another sink passes its
// own logger. Lines below Error are sampled per message (the first 10
// each second, then every 100th), so that a storm of handler errors
// cannot flood stderr; errors (an actor failed, gave up at its restart
// limit) are never dropped: the restart limit bounds them per actor.
func defaultLogger() *zap.Logger { return newDefaultLogger(zapcore.Lock(os.Stderr)) }

func newDefaultLogger(out zapcore.WriteSyncer) *zap.Logger {
	enc := zap.NewProductionEncoderConfig()
	enc.EncodeTime = zapcore.ISO8601TimeEncoder
	enc.EncodeLevel = zapcore.CapitalLevelEncoder
	core := zapcore.NewCore(zapcore.NewConsoleEncoder(enc), out, zapcore.InfoLevel)
	return zap.New(warnOrConsole{all: core, sampled: &lazySampler{root: &sharedSampler{core: core}}})
}

// warnOrConsole passes entries from Warn, and from Info those of console
// loggers, to the core it wraps (enabled from Info): errors to all, the
// others through sampled.
type warnOrConsole struct {
	all     zapcore.Core
	sampled *lazySampler
}

// A zap sampler holds its counters in about 450 KB, made with it: made
// with every System, they were most of a small program's live heap, so
// its garbage collector ran about a fifth more often (the js suite's
// then_step). The sampler is made when a line first needs sampling,
// rare in a healthy system, once per System: the loggers derived from
// the System's (With) share its counters, as zap's own derived samplers
// do.

// sharedSampler is the sampler of a System's default logger, made on
// first use over core, the logger's core without fields.
type sharedSampler struct {
	once    sync.Once
	core    zapcore.Core
	sampler zapcore.Core
}

func (s *sharedSampler) get() zapcore.Core {
	s.once.Do(func() { s.sampler = zapcore.NewSamplerWithOptions(s.core, time.Second, 10, 100) })
	return s.sampler
}

// lazySampler is the sampling core of one logger: the shared sampler with
// the logger's fields, derived on first use.
type lazySampler struct {
	root   *sharedSampler
	fields []zapcore.Field // the logger's, from the root's
	once   sync.Once
	core   zapcore.Core
}

func (l *lazySampler) get() zapcore.Core {
	l.once.Do(func() {
		l.core = l.root.get()
		if len(l.fields) > 0 {
			l.core = l.core.With(l.fields)
		}
	})
	return l.core
}

func (l *lazySampler) with(fields []zapcore.Field) *lazySampler {
	return &lazySampler{root: l.root, fields: append(l.fields[:len(l.fields):len(l.fields)], fields...)}
}

// Enabled implements zapcore.Core.
func (c warnOrConsole) Enabled(l zapcore.Level) bool { return c.all.Enabled(l) }

// With implements zapcore.Core, keeping the filter.
func (c warnOrConsole) With(fields []zapcore.Field) zapcore.Core {
	return warnOrConsole{all: c.all.With(fields), sampled: c.sampled.with(fields)}
}

// Check implements zapcore.Core.
func (c warnOrConsole) Check(e zapcore.Entry, ce *zapcore.CheckedEntry) *zapcore.CheckedEntry {
	switch {
	case e.Level >= zapcore.ErrorLevel:
		return c.all.Check(e, ce)
	case e.Level < zapcore.WarnLevel && !isConsole(e.LoggerName):
		return ce
	}
	return c.sampled.get().Check(e, ce)
}

// Write implements zapcore.Core; Check hands entries to the inner cores.
func (c warnOrConsole) Write(e zapcore.Entry, fields []zapcore.Field) error {
	return c.all.Write(e, fields)
}

// Sync implements zapcore.Core.
func (c warnOrConsole) Sync() error { return c.all.Sync() }

// isConsole reports whether a logger's name ends in consoleLogger.
func isConsole(name string) bool {
	return name == consoleLogger || strings.HasSuffix(name, "."+consoleLogger)
}
