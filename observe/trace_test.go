package observe_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/observe"
)

// traced returns a system with tracing into a span recorder, and its
// log lines.
func traced(t *testing.T, name string) (*actor.System, *tracetest.SpanRecorder, trace.Tracer, *observer.ObservedLogs) {
	t.Helper()
	core, logs := observer.New(zap.InfoLevel)
	s, err := actor.NewSystem(name, actor.WithLogger(zap.New(core)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Shutdown(context.Background()) })
	sr := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(sr))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	observe.EnableTracing(s, tp)
	return s, sr, tp.Tracer("test"), logs
}

// spanOf returns the ended span whose actor.kind attribute is kind.
func spanOf(t *testing.T, sr *tracetest.SpanRecorder, kind string) sdktrace.ReadOnlySpan {
	t.Helper()
	var found sdktrace.ReadOnlySpan
	for _, s := range sr.Ended() {
		for _, a := range s.Attributes() {
			if a.Key == "actor.kind" && a.Value.AsString() == kind {
				if found != nil {
					t.Fatalf("two spans of kind %s", kind)
				}
				found = s
			}
		}
	}
	if found == nil {
		t.Fatalf("no span of kind %s among %d", kind, len(sr.Ended()))
	}
	return found
}

// childOf fails unless span's parent is parent.
func childOf(t *testing.T, span sdktrace.ReadOnlySpan, parent trace.SpanContext) {
	t.Helper()
	if span.Parent().SpanID() != parent.SpanID() || span.SpanContext().TraceID() != parent.TraceID() {
		t.Fatalf("span %q: parent %s/%s, want %s/%s", span.Name(),
			span.SpanContext().TraceID(), span.Parent().SpanID(), parent.TraceID(), parent.SpanID())
	}
}

// An HTTP request asks actor A, whose handler asks actor B: three spans,
// each the child of the one before, and A's log line carries the trace.
func TestTraceFollowsAsksFromHTTP(t *testing.T) {
	s, sr, tr, logs := traced(t, "tr")
	b, _ := s.Spawn("b", "1", func() actor.Actor {
		return actor.ActorFunc(func(_ *actor.Context, msg any) (any, error) { return msg.(int) * 2, nil })
	})
	a, _ := s.Spawn("a", "1", func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			c.Logger().Info("asking b")
			return actor.AskAsync[int](c, b, msg), nil
		})
	})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, span := tr.Start(r.Context(), "GET /double")
		defer span.End()
		v, err := actor.Ask[int](ctx, s, a, 21)
		if err != nil || v != 42 {
			t.Errorf("ask: %v %v", v, err)
		}
	}))
	defer srv.Close()
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()

	if n := len(sr.Ended()); n != 3 {
		t.Fatalf("%d spans, want 3 (request, a, b)", n)
	}
	var root sdktrace.ReadOnlySpan
	for _, sp := range sr.Ended() {
		if sp.Name() == "GET /double" {
			root = sp
		}
	}
	sa, sb := spanOf(t, sr, "a"), spanOf(t, sr, "b")
	childOf(t, sa, root.SpanContext())
	childOf(t, sb, sa.SpanContext())
	if sa.SpanKind() != trace.SpanKindServer {
		t.Errorf("an ask's span kind is %s, want server", sa.SpanKind())
	}

	lines := logs.FilterMessage("asking b").All()
	if len(lines) != 1 {
		t.Fatalf("%d log lines", len(lines))
	}
	f := lines[0].ContextMap()
	if f["trace_id"] != sa.SpanContext().TraceID().String() || f["span_id"] != sa.SpanContext().SpanID().String() {
		t.Fatalf("log line fields %v, want a's trace and span ids", f)
	}
}

// A tell sent with a traced context (System.Send) and a tell sent from
// the traced handler (through its Context, or through the System as
// typed refs do) both carry the trace; a tell without one starts no span.
func TestTraceFollowsTells(t *testing.T) {
	for _, viaSystem := range []bool{false, true} {
		t.Run(fmt.Sprintf("viaSystem=%v", viaSystem), func(t *testing.T) { traceFollowsTells(t, viaSystem) })
	}
}

func traceFollowsTells(t *testing.T, viaSystem bool) {
	s, sr, tr, _ := traced(t, "tt")
	seen := make(chan trace.SpanContext, 1)
	last, _ := s.Spawn("last", "1", func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			if msg == "tell" {
				seen <- trace.SpanContextFromContext(c)
			}
			return nil, nil
		})
	})
	first, _ := s.Spawn("first", "1", func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			if viaSystem {
				return nil, c.System().Tell(last, msg)
			}
			return nil, c.Tell(last, msg)
		})
	})
	ctx, root := tr.Start(context.Background(), "root")
	if err := s.Send(ctx, first, "tell"); err != nil {
		t.Fatal(err)
	}
	root.End()
	sc := <-seen
	// An untraced ask after the tells: once it is answered, both handlings
	// have ended; it makes no span of its own.
	if err := s.Tell(first, "untraced"); err != nil {
		t.Fatal(err)
	}
	if _, err := actor.Ask[any](context.Background(), s, last, "sync"); err != nil {
		t.Fatal(err)
	}
	if _, err := actor.Ask[any](context.Background(), s, first, "sync"); err != nil {
		t.Fatal(err)
	}
	if n := len(sr.Ended()); n != 3 {
		t.Fatalf("%d spans, want 3 (root, first, last)", n)
	}
	sf, sl := spanOf(t, sr, "first"), spanOf(t, sr, "last")
	childOf(t, sf, root.SpanContext())
	childOf(t, sl, sf.SpanContext())
	if !sc.Equal(sl.SpanContext()) {
		t.Fatalf("the handler's context holds %v, want its span %v", sc, sl.SpanContext())
	}
	if sl.SpanKind() != trace.SpanKindConsumer {
		t.Errorf("a tell's span kind is %s, want consumer", sl.SpanKind())
	}
}

// With tracing off (never on, or turned off), traced sends make no span
// and a handler's context holds none.
func TestTraceOff(t *testing.T) {
	s, sr, tr, logs := traced(t, "off")
	observe.EnableTracing(s, nil)
	a, _ := s.Spawn("a", "1", func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, _ any) (any, error) {
			c.Logger().Info("handled")
			return trace.SpanContextFromContext(c).IsValid(), nil
		})
	})
	ctx, root := tr.Start(context.Background(), "root")
	defer root.End()
	if has, err := actor.Ask[bool](ctx, s, a, 1); err != nil || has {
		t.Fatalf("handler sees a span: %v %v", has, err)
	}
	if n := len(sr.Ended()); n != 0 {
		t.Fatalf("%d spans with tracing off", n)
	}
	if f := logs.FilterMessage("handled").All()[0].ContextMap(); f["trace_id"] != nil {
		t.Fatalf("log line carries a trace with tracing off: %v", f)
	}
}
