package e2e_test

import (
	"context"
	"slices"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/troupe-go/troupe/observe"
)

// A traced typed send names its message, not the box a typed ref sends
// it in: the handling span of Counter.Sub is "counter e2e.counterSubMsg".
func TestTracedTypedSendNamesItsMessage(t *testing.T) {
	sr := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(sr))
	sys := newSystem(t, nil)
	observe.EnableTracing(sys, tp)
	counter := spawnCounter(t, sys, "c", 0)
	ctx, span := tp.Tracer("test").Start(context.Background(), "request")
	if err := counter.Sub(ctx, 0); err != nil {
		t.Fatal(err)
	}
	span.End()
	var names []string
	for _, sp := range sr.Ended() {
		names = append(names, sp.Name())
	}
	if !slices.Contains(names, "counter e2e.counterSubMsg") {
		t.Fatalf("spans %q, want one named \"counter e2e.counterSubMsg\"", names)
	}
}
