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
// own logger. Lines are sampled per message (the first 10 each second,
// then every 100th), so that a failure storm cannot flood stderr.
func defaultLogger() *zap.Logger {
	enc := zap.NewProductionEncoderConfig()
	enc.EncodeTime = zapcore.ISO8601TimeEncoder
	enc.EncodeLevel = zapcore.CapitalLevelEncoder
	core := zapcore.NewCore(zapcore.NewConsoleEncoder(enc), zapcore.Lock(os.Stderr), zapcore.InfoLevel)
	return zap.New(warnOrConsole{zapcore.NewSamplerWithOptions(core, time.Second, 10, 100)})
}

// warnOrConsole passes entries from Warn, and from Info those of console
// loggers, to the core it wraps (enabled from Info).
type warnOrConsole struct{ zapcore.Core }

// With implements zapcore.Core, keeping the filter.
func (c warnOrConsole) With(fields []zapcore.Field) zapcore.Core {
	return warnOrConsole{c.Core.With(fields)}
}

// Check implements zapcore.Core.
func (c warnOrConsole) Check(e zapcore.Entry, ce *zapcore.CheckedEntry) *zapcore.CheckedEntry {
	if e.Level < zapcore.WarnLevel && !isConsole(e.LoggerName) {
		return ce
	}
	return c.Core.Check(e, ce)
}

// isConsole reports whether a logger's name ends in consoleLogger.
func isConsole(name string) bool {
	return name == consoleLogger || strings.HasSuffix(name, "."+consoleLogger)
}
