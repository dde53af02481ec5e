package actortest

import (
	"fmt"

	"go.uber.org/zap/zapcore"
)

// runtimeFailure is the message the actor runtime logs, at Error, for
// every failure it supervises (a panic, Context.Fail), before the restart
// or stop that follows, which may come much later (a restart backoff on
// virtual time that the test never advances). The kit's logger watches
// for it, so such a failure fails the test too.
const runtimeFailure = "actor failed"

// failCore passes entries on to the kit's logger and hands those that
// record a failure to the system.
type failCore struct {
	zapcore.Core
	s      *System
	fields []zapcore.Field // from With: the actor's kind, id and path
}

// With implements zapcore.Core, keeping the fields for the record.
func (c failCore) With(fields []zapcore.Field) zapcore.Core {
	own := append(c.fields[:len(c.fields):len(c.fields)], fields...)
	return failCore{Core: c.Core.With(fields), s: c.s, fields: own}
}

// Check implements zapcore.Core.
func (c failCore) Check(e zapcore.Entry, ce *zapcore.CheckedEntry) *zapcore.CheckedEntry {
	ce = c.Core.Check(e, ce)
	if e.Level >= zapcore.ErrorLevel && e.Message == runtimeFailure {
		ce = ce.AddCore(e, failSink(c))
	}
	return ce
}

// failSink is the core that records a failure entry.
type failSink failCore

func (failSink) Enabled(zapcore.Level) bool { return true }

func (f failSink) With([]zapcore.Field) zapcore.Core { return f }

func (f failSink) Check(_ zapcore.Entry, ce *zapcore.CheckedEntry) *zapcore.CheckedEntry {
	return ce
}

func (failSink) Sync() error { return nil }

// Write records the failure with its actor and error.
func (f failSink) Write(e zapcore.Entry, fields []zapcore.Field) error {
	enc := zapcore.NewMapObjectEncoder()
	for _, fl := range append(f.fields[:len(f.fields):len(f.fields)], fields...) {
		fl.AddTo(enc)
	}
	who, ok := enc.Fields["actor"]
	if !ok {
		who = fmt.Sprintf("%v/%v", enc.Fields["kind"], enc.Fields["id"])
	}
	f.s.recordFailureLog(fmt.Sprintf("%v failed: %v", who, enc.Fields["error"]))
	return nil
}
