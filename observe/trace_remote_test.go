package observe_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest/remotetest"
	"github.com/troupe-go/troupe/observe"
)

// A traced ask crosses from n1 to n2 and the handler there tells an actor
// back on n1: each handling is a span, the child of the one that sent to
// it, across the wire both ways, with the default propagator and with one
// given by WithPropagator.
func TestTraceCrossesNodes(t *testing.T) {
	for _, custom := range []bool{false, true} {
		t.Run(fmt.Sprintf("custom=%v", custom), func(t *testing.T) {
			var p *countingPropagator
			var opts []observe.TraceOption
			if custom {
				p = &countingPropagator{TextMapPropagator: propagation.TraceContext{}}
				opts = append(opts, observe.WithPropagator(p))
			}
			traceCrossesNodes(t, opts...)
			if custom && (p.injected.Load() != 2 || p.extracted.Load() != 2) {
				t.Fatalf("the propagator injected %d and extracted %d times, want 2 and 2 (the ask, the tell back)",
					p.injected.Load(), p.extracted.Load())
			}
		})
	}
}

// countingPropagator counts its uses.
type countingPropagator struct {
	propagation.TextMapPropagator
	injected, extracted atomic.Int32
}

func (p *countingPropagator) Inject(ctx context.Context, c propagation.TextMapCarrier) {
	p.injected.Add(1)
	p.TextMapPropagator.Inject(ctx, c)
}

func (p *countingPropagator) Extract(ctx context.Context, c propagation.TextMapCarrier) context.Context {
	p.extracted.Add(1)
	return p.TextMapPropagator.Extract(ctx, c)
}

func traceCrossesNodes(t *testing.T, opts ...observe.TraceOption) {
	sr := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(sr))
	defer func() { _ = tp.Shutdown(context.Background()) }()
	c := remotetest.NewCluster(t)
	n1, n2 := c.Node("n1"), c.Node("n2")
	observe.EnableTracing(n1.System.System, tp, opts...)
	observe.EnableTracing(n2.System.System, tp, opts...)

	seen := make(chan struct{}, 1)
	back, err := n1.Spawn("back", "1", func() actor.Actor {
		return actor.ActorFunc(func(_ *actor.Context, msg any) (any, error) {
			if msg == "done" {
				seen <- struct{}{}
			}
			return nil, nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	b, err := n2.Spawn("b", "1", func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			return msg.(string) + "!", c.Tell(back, "done")
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	a, err := n1.Spawn("a", "1", func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			return actor.AskAsync[string](c, b, msg), nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, root := tp.Tracer("test").Start(context.Background(), "root")
	actx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if v, err := actor.Ask[string](actx, n1.System.System, a, "hi"); err != nil || v != "hi!" {
		t.Fatalf("ask: %q %v", v, err)
	}
	root.End()
	<-seen
	sctx, cancel2 := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel2()
	if _, err := actor.Ask[any](sctx, n1.System.System, back, "sync"); err != nil {
		t.Fatal(err)
	}
	sa, sb, sback := spanOf(t, sr, "a"), spanOf(t, sr, "b"), spanOf(t, sr, "back")
	childOf(t, sa, root.SpanContext())
	childOf(t, sb, sa.SpanContext())
	childOf(t, sback, sb.SpanContext())
	if sb.SpanKind() != trace.SpanKindServer || sback.SpanKind() != trace.SpanKindConsumer {
		t.Errorf("span kinds %s and %s, want server and consumer", sb.SpanKind(), sback.SpanKind())
	}
}
