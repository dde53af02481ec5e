package jsactor_test

import (
	"context"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/jsactor"
	"github.com/troupe-go/troupe/observe"
)

// A JavaScript handler that awaits an ask keeps its trace: the tell it
// makes after the await is handled as a child of the handler's span, and
// its console lines carry the handler's trace and span ids.
func TestJSKeepsTraceAcrossAwait(t *testing.T) {
	sr := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(sr))
	defer func() { _ = tp.Shutdown(context.Background()) }()
	core, logs := observer.New(zap.InfoLevel)
	sys, err := actor.NewSystem("jstrace", actor.WithLogger(zap.New(core)))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = sys.Shutdown(context.Background()) }()
	observe.EnableTracing(sys, tp)

	double, _ := sys.Spawn("double", "1", func() actor.Actor {
		return actor.ActorFunc(func(_ *actor.Context, msg any) (any, error) {
			var n int
			err := jsactor.Decode(msg.(jsactor.Call).Args[0], &n)
			return 2 * n, err
		})
	})
	after := make(chan any, 1)
	sink, _ := sys.Spawn("sink", "1", func() actor.Actor {
		return actor.ActorFunc(func(_ *actor.Context, msg any) (any, error) {
			if msg != "sync" {
				after <- msg
			}
			return nil, nil
		})
	})
	s, err := jsactor.Compile("relay", `module.exports = {
		async relay(double, sink, x) {
			const v = await double.ask("double", x);
			sink.send(v);
			console.log("after the await");
			return v;
		},
	};`)
	if err != nil {
		t.Fatal(err)
	}
	relay, err := jsactor.Spawn(sys, "relay", "1", s)
	if err != nil {
		t.Fatal(err)
	}
	ctx, root := tp.Tracer("test").Start(context.Background(), "root")
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if v, err := jsactor.Ask[int](ctx, sys, relay, "relay", double, sink, 21); err != nil || v != 42 {
		t.Fatalf("relay: %v %v", v, err)
	}
	root.End()
	<-after
	sctx, cancel2 := context.WithTimeout(context.Background(), 30*time.Second) // untraced
	defer cancel2()
	if _, err := actor.Ask[any](sctx, sys, sink, "sync"); err != nil { // the sink's span has ended
		t.Fatal(err)
	}
	spans := map[string]sdktrace.ReadOnlySpan{}
	for _, sp := range sr.Ended() {
		for _, a := range sp.Attributes() {
			if a.Key == "actor.kind" {
				spans[a.Value.AsString()] = sp
			}
		}
	}
	rs, ds, ss := spans["relay"], spans["double"], spans["sink"]
	if rs == nil || ds == nil || ss == nil {
		t.Fatalf("spans: %v", spans)
	}
	if rs.Parent().SpanID() != root.SpanContext().SpanID() {
		t.Errorf("relay's parent is %s, want the root", rs.Parent().SpanID())
	}
	for _, sp := range []sdktrace.ReadOnlySpan{ds, ss} {
		if sp.Parent().SpanID() != rs.SpanContext().SpanID() || sp.SpanContext().TraceID() != rs.SpanContext().TraceID() {
			t.Errorf("%s's parent is %s, want relay's span %s", sp.Name(), sp.Parent().SpanID(), rs.SpanContext().SpanID())
		}
	}
	lines := logs.FilterMessage("after the await").All()
	if len(lines) != 1 {
		t.Fatalf("%d console lines", len(lines))
	}
	if f := lines[0].ContextMap(); f["trace_id"] != rs.SpanContext().TraceID().String() || f["span_id"] != rs.SpanContext().SpanID().String() {
		t.Errorf("console line after the await: %v, want relay's trace and span ids", f)
	}
}
