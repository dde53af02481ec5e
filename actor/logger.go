package actor

import (
	"os"
	"strings"
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
	return zap.New(warnOrConsole{all: core, sampled: newLineSampler(time.Second, 10, 100)})
}

// warnOrConsole passes entries from Warn, and from Info those of console
// loggers, to the core it wraps (enabled from Info): errors always, the
// others when sampled lets them through. The loggers derived from one
// (With, Named) share its sampler.
type warnOrConsole struct {
	all     zapcore.Core
	sampled *lineSampler
}

// Enabled implements zapcore.Core.
func (c warnOrConsole) Enabled(l zapcore.Level) bool { return c.all.Enabled(l) }

// With implements zapcore.Core, keeping the filter.
func (c warnOrConsole) With(fields []zapcore.Field) zapcore.Core {
	return warnOrConsole{all: c.all.With(fields), sampled: c.sampled}
}

// Check implements zapcore.Core.
func (c warnOrConsole) Check(e zapcore.Entry, ce *zapcore.CheckedEntry) *zapcore.CheckedEntry {
	switch {
	case e.Level >= zapcore.ErrorLevel:
		return c.all.Check(e, ce)
	case e.Level < zapcore.WarnLevel && !isConsole(e.LoggerName):
		return ce
	}
	if !c.sampled.keep(e) {
		return ce
	}
	return c.all.Check(e, ce)
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
