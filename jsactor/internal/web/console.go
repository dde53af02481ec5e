package web

import (
	"bytes"

	"github.com/dop251/goja"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// Console makes the console global. It writes to log, the actor's zap
// logger, named "console" (it carries
// the actor's kind and id; the actor package's default logger prints
// "console" from Info on): log and info at Info, debug at Debug, warn at Warn, error
// at Error, trace at Debug with the JavaScript stack. Arguments are
// formatted as Node's util.format does (see Format).
func Console(rt *goja.Runtime, log *zap.Logger) goja.Value {
	o := rt.NewObject()
	log = log.Named("console")
	level := func(name string, lvl zapcore.Level, stack bool) {
		_ = o.Set(name, func(call goja.FunctionCall) goja.Value {
			if ce := log.Check(lvl, ""); ce != nil {
				ce.Message = Format(rt, call.Arguments)
				if stack {
					ce.Write(zap.String("js_stack", stackNow(rt)))
				} else {
					ce.Write()
				}
			}
			return goja.Undefined()
		})
	}
	level("log", zapcore.InfoLevel, false)
	level("info", zapcore.InfoLevel, false)
	level("debug", zapcore.DebugLevel, false)
	level("warn", zapcore.WarnLevel, false)
	level("error", zapcore.ErrorLevel, false)
	level("trace", zapcore.DebugLevel, true)
	return o
}

// stackNow formats the current JavaScript stack.
func stackNow(rt *goja.Runtime) string {
	var b bytes.Buffer
	for _, f := range rt.CaptureCallStack(0, nil) {
		b.WriteString("at ")
		f.Write(&b)
		b.WriteByte('\n')
	}
	return b.String()
}
