// Package tracehook is how package observe lends package actor (and the
// transports) a tracer without actor importing OpenTelemetry: observe
// implements Tracer and installs it on a system through Install, which
// actor fills at init. Nothing else may use it.
//
// A trace context travels as a context.Context: the lean one Capture
// returns (it holds the sender's span context and nothing that can be
// cancelled), which actor carries with a message and hands back to Begin.
package tracehook

import "context"

// Tracer starts and carries traces for one system.
type Tracer interface {
	// Capture returns the trace context of ctx to carry with a message:
	// a context holding only its span context, or nil when ctx has none.
	Capture(ctx context.Context) context.Context
	// Begin starts the span of actor handling msg, a message carried with
	// trace context tc (from Capture or Extract); asked says whether a
	// reply is expected. It returns the context the handling runs under
	// and the function that ends the span with the handling's outcome.
	Begin(tc context.Context, actor, kind string, msg any, asked bool) (ctx context.Context, end func(err error))
	// Inject writes the trace context tc as headers through set (W3C
	// traceparent through the configured propagator).
	Inject(tc context.Context, set func(key, value string))
	// Extract reads a trace context from headers through get and keys;
	// nil when they hold none.
	Extract(get func(key string) string, keys func() []string) context.Context
	// IDs returns the trace and span ids of ctx as hexadecimal text, for
	// log lines; ok is false when ctx has no valid span context.
	IDs(ctx context.Context) (traceID, spanID string, ok bool)
}

// Install sets (or, with t nil, removes) the tracer of an *actor.System.
var Install func(sys any, t Tracer)

// Of returns the tracer of an *actor.System, nil when tracing is off.
var Of func(sys any) Tracer

// Deliverer is implemented by the host side a transport gets from
// actor/transport.Attach: it delivers an inbound message with the trace
// context the sending node carried in its headers.
type Deliverer interface {
	DeliverTraced(tc context.Context, to, msg any, reply func(v any, err error)) error
}
