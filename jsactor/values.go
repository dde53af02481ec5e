package jsactor

import (
	"errors"

	"github.com/dop251/goja"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/jsactor/internal/convert"
	"github.com/troupe-go/troupe/jsactor/jsvalue"
)

// Values cross between Go and JavaScript through internal/convert (the
// conversion tables are there, in tojs.go and fromjs.go). This file is
// the glue: the limits and named types users see, and what a conversion
// calls back (convHost).

// Typed arrays cross as Go slices of their element type. Those whose Go
// slice type is an ordinary Go list type ([]float64, []int64, []uint64)
// and ArrayBuffer cross as the named types below, so that a typed array
// comes back as the same typed array while a Go []float64 or []int64
// still becomes an Array.

// Float64Array is a JavaScript Float64Array copied to Go (defined in
// jsvalue, which remote/wire shares, so that it crosses nodes as itself).
type Float64Array = jsvalue.Float64Array

// BigInt64Array is a JavaScript BigInt64Array copied to Go.
type BigInt64Array = jsvalue.BigInt64Array

// BigUint64Array is a JavaScript BigUint64Array copied to Go.
type BigUint64Array = jsvalue.BigUint64Array

// ArrayBuffer is a JavaScript ArrayBuffer copied to Go.
type ArrayBuffer = jsvalue.ArrayBuffer

// Every conversion between JavaScript and Go has a budget: how many
// values it may visit and how many bytes (string and binary contents) it
// may copy. The watchdog cannot interrupt Go code, so the budget is what
// bounds the time and memory one send, reply or clone can take: a
// conversion over budget fails with ErrCannotCross.

const (
	// DefaultMaxConvertNodes is the number of values one conversion may
	// visit unless WithConversionLimits says otherwise.
	DefaultMaxConvertNodes = 1 << 20
	// DefaultMaxConvertBytes is the number of string and binary bytes one
	// conversion may copy unless WithConversionLimits says otherwise.
	DefaultMaxConvertBytes = 64 << 20
)

// WithConversionLimits bounds each conversion of a value between
// JavaScript and Go (an argument, a message, a reply, a structuredClone):
// at most nodes values visited and bytes bytes of strings and binary data
// copied. An object's property counts as 16 values: building objects
// of many properties is what costs the receiving Runtime most, and the
// sender's side refuses what would cost the receiver more than this
// budget (by default, objects of 65,536 properties in all). A value over
// either limit cannot cross (ErrCannotCross). The defaults are
// DefaultMaxConvertNodes and DefaultMaxConvertBytes.
func WithConversionLimits(nodes, bytes int) Option {
	return func(c *config) error {
		if nodes <= 0 || bytes <= 0 {
			return errors.New("jsactor: WithConversionLimits needs nodes > 0 and bytes > 0")
		}
		c.convNodes, c.convBytes = nodes, bytes
		return nil
	}
}

// convLimits is each conversion's budget.
func (c *config) convLimits() (nodes, bytes int) {
	if c == nil || c.convNodes == 0 {
		return DefaultMaxConvertNodes, DefaultMaxConvertBytes
	}
	return c.convNodes, c.convBytes
}

var errNilRuntime = errors.New("jsactor: no runtime")

// captureBuiltins makes the instance's converter, which captures the
// intrinsics the host calls (see convert's builtins.go). On the loop,
// before the script runs.
func (in *instance) captureBuiltins() {
	nodes, bytes := in.cfg.convLimits()
	in.conv = convert.New(in.rt, (*convHost)(in), nodes, bytes)
}

// toJS converts a Go value into a fresh JavaScript value. Inside a turn:
// constructing some values runs builtins a script may have replaced.
func (in *instance) toJS(v any) (goja.Value, error) {
	if in.conv == nil {
		return nil, errNilRuntime
	}
	return in.conv.ToJS(v)
}

// toJSArgs appends the conversions of args to out.
func (in *instance) toJSArgs(out []goja.Value, args []any) ([]goja.Value, error) {
	return in.conv.ToJSArgs(out, args)
}

// toGo converts v, catching exceptions thrown by getters and stopping
// the turn on an interrupt.
func (in *instance) toGo(v goja.Value) (any, error) { return in.conv.ToGo(v) }

// toGoArg converts v inside a native function (see convert.ToGoArg).
func (in *instance) toGoArg(v goja.Value, what string) any { return in.conv.ToGoArg(v, what) }

// argsGo converts the arguments of call from index from on.
func (in *instance) argsGo(call goja.FunctionCall, from int) []any {
	return in.conv.ArgsGo(call, from)
}

// newError makes a JavaScript Error with msg.
func (in *instance) newError(msg string) *goja.Object { return in.conv.NewError(msg) }

// bytesJS makes a Uint8Array holding a copy of b (null for nil b).
func (in *instance) bytesJS(b []byte) (goja.Value, error) { return in.conv.Bytes(b) }

// freezeJS freezes o with the captured Object.freeze.
func (in *instance) freezeJS(o *goja.Object) { in.conv.Freeze(o) }

// structuredClone is the global structuredClone.
func (in *instance) structuredClone(call goja.FunctionCall) goja.Value {
	return in.conv.StructuredClone(call)
}

// convHost is the instance as a conversion sees it: its methods
// implement convert.Host with the instance's own.
type convHost instance

var _ convert.Host = (*convHost)(nil)

// Aborted makes err the failure of the turn in progress (guard.go).
func (h *convHost) Aborted(err error) { (*instance)(h).aborted(err) }

// JSError converts a goja error into an *Error.
func (h *convHost) JSError(err error) error { return (*instance)(h).jsError(err) }

// RefJS makes the ref object of r (refs.go).
func (h *convHost) RefJS(r actor.Ref) goja.Value { return (*instance)(h).refJS(r) }

// RefOf recognises a ref object the instance made.
func (h *convHost) RefOf(o *goja.Object) (actor.Ref, bool) { return (*instance)(h).refOf(o) }

// IsRefProto reports whether p is the instance's ref prototype.
func (h *convHost) IsRefProto(p *goja.Object) bool {
	c := h.cache
	return c != nil && c.refProto != nil && p == c.refProto
}
