package observe_test

import (
	"context"
	"fmt"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/observe"
)

// An ask made under a span is handled as a child span; the handler's
// Context holds it.
func ExampleEnableTracing() {
	sr := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(sr))
	s, _ := actor.NewSystem("example")
	defer s.Shutdown(context.Background())
	observe.EnableTracing(s, tp)

	greeter, _ := s.Spawn("greeter", "g", func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			traced := trace.SpanFromContext(c).SpanContext().IsValid()
			return fmt.Sprintf("hello %s (traced: %v)", msg, traced), nil
		})
	})
	ctx, span := tp.Tracer("example").Start(context.Background(), "request")
	reply, _ := actor.Ask[string](ctx, s, greeter, "ann")
	span.End()

	fmt.Println(reply)
	for _, sp := range sr.Ended() {
		fmt.Printf("%s (child of the request: %v)\n", sp.Name(), sp.Parent().SpanID() == span.SpanContext().SpanID())
	}
	// Output:
	// hello ann (traced: true)
	// greeter string (child of the request: true)
	// request (child of the request: false)
}

// With tracing on, a message sent without a trace costs no allocation:
// it travels unwrapped.
func TestUntracedTellAllocatesNothing(t *testing.T) {
	s, _, _, _ := traced(t, "alloc")
	ref, _ := s.Spawn("sink", "1", func() actor.Actor {
		return actor.ActorFunc(func(*actor.Context, any) (any, error) { return nil, nil })
	})
	var msg any = "m" // boxed once
	if n := testing.AllocsPerRun(1000, func() { _ = s.Tell(ref, msg) }); n != 0 {
		t.Fatalf("an untraced tell allocates %v times", n)
	}
	if n := testing.AllocsPerRun(1000, func() { _ = s.Send(context.Background(), ref, msg) }); n != 0 {
		t.Fatalf("an untraced send allocates %v times", n)
	}
}
