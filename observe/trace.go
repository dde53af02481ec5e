package observe

import (
	"context"
	"fmt"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/internal/tracehook"
)

// instrumentation names the tracer observe asks its TracerProvider for.
const instrumentation = "github.com/troupe-go/troupe/observe"

// TraceOption configures [EnableTracing].
type TraceOption func(*tracer)

// WithPropagator sets how a trace context crosses to other nodes in the
// headers of the remote wire format. The default is the W3C Trace Context
// (traceparent, tracestate).
func WithPropagator(p propagation.TextMapPropagator) TraceOption {
	return func(t *tracer) { t.prop = p }
}

// EnableTracing makes sys propagate OpenTelemetry traces across tell and
// ask: a message sent with a context that holds a span ([actor.Ask]'s and
// [actor.System.Send]'s ctx, or, from a handler, the trace that handler
// runs under) carries its span context to the receiving actor, whose
// handling runs as a span of tp's, a child of the sender's. Inside that
// handling the actor's [actor.Context] holds the span (so
// trace.SpanFromContext(ctx) finds it and the actor's own sends carry it
// on), and its log lines ([actor.Context.Logger]) carry trace_id and
// span_id. An ask's span ends when the reply is sent, a tell's when the
// handler returns. Across nodes (package remote) the trace context
// travels in the envelope's headers, through the propagator. The
// continuation of an ask made from a handler (the rest of a JavaScript
// handler after an await) runs under the trace of the message that made
// it.
//
// Messages sent without a trace start none: tracing follows requests,
// it does not make a trace of every message. With tracing off (the
// default, or after EnableTracing(sys, nil)) a send costs nothing extra.
func EnableTracing(sys *actor.System, tp trace.TracerProvider, opts ...TraceOption) {
	if tp == nil {
		tracehook.Install(sys, nil)
		return
	}
	t := &tracer{tr: tp.Tracer(instrumentation), prop: propagation.TraceContext{}}
	for _, o := range opts {
		o(t)
	}
	tracehook.Install(sys, t)
}

// tracer implements internal/tracehook.Tracer with OpenTelemetry.
type tracer struct {
	tr   trace.Tracer
	prop propagation.TextMapPropagator
}

// Capture keeps only the span context: a message must not hold on to the
// sender's context (its deadline, its values) once the sender is done.
func (t *tracer) Capture(ctx context.Context) context.Context {
	sc := trace.SpanContextFromContext(ctx)
	if !sc.IsValid() {
		return nil
	}
	return trace.ContextWithSpanContext(context.Background(), sc)
}

// Begin starts an actor's handling span. Its name is low-cardinality (the
// kind and the message type), the actor's ref goes in an attribute.
func (t *tracer) Begin(tc context.Context, ref, kind string, msg any, asked bool) (context.Context, func(error)) {
	sk := trace.SpanKindConsumer
	if asked {
		sk = trace.SpanKindServer
	}
	msgType := fmt.Sprintf("%T", msg)
	ctx, span := t.tr.Start(tc, kind+" "+msgType, trace.WithSpanKind(sk), trace.WithAttributes(
		attribute.String("actor.ref", ref),
		attribute.String("actor.kind", kind),
		attribute.String("actor.message.type", msgType),
	))
	return ctx, func(err error) {
		if err != nil {
			span.RecordError(err)
			span.SetStatus(codes.Error, err.Error())
		}
		span.End()
	}
}

// Inject writes tc's span context as headers.
func (t *tracer) Inject(tc context.Context, set func(key, value string)) {
	t.prop.Inject(tc, setter(set))
}

// Extract reads a span context from headers; nil when there is none.
func (t *tracer) Extract(get func(string) string, keys func() []string) context.Context {
	return t.Capture(t.prop.Extract(context.Background(), getter{get, keys}))
}

// IDs returns ctx's trace and span ids.
func (t *tracer) IDs(ctx context.Context) (string, string, bool) {
	sc := trace.SpanContextFromContext(ctx)
	if !sc.IsValid() {
		return "", "", false
	}
	return sc.TraceID().String(), sc.SpanID().String(), true
}

// setter is a write-only propagation.TextMapCarrier.
type setter func(key, value string)

func (s setter) Get(string) string     { return "" }
func (s setter) Set(key, value string) { s(key, value) }
func (s setter) Keys() []string        { return nil }

// getter is a read-only propagation.TextMapCarrier.
type getter struct {
	get  func(string) string
	keys func() []string
}

func (g getter) Get(key string) string { return g.get(key) }
func (g getter) Set(string, string)    {}
func (g getter) Keys() []string        { return g.keys() }
