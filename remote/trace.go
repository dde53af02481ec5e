package remote

import (
	"context"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/internal/tracehook"
	"github.com/troupe-go/troupe/remote/wire"
)

// The trace context of a tell or ask travels in its envelope's headers,
// written and read by the system's tracer (observe.EnableTracing): with
// tracing off, or a message sent without a trace, an envelope has none.

// traceHeaders returns the headers that carry ctx's trace context; nil
// when tracing is off or ctx has none.
func (n *Node) traceHeaders(ctx context.Context) []wire.Header {
	t := tracehook.Of(n.sys)
	if t == nil || ctx == nil {
		return nil
	}
	tc := t.Capture(ctx)
	if tc == nil {
		return nil
	}
	var hs []wire.Header
	t.Inject(tc, func(k, v string) { hs = append(hs, wire.Header{Key: k, Value: v}) })
	return hs
}

// deliver hands an inbound message to the local actor to, with the trace
// context its envelope's headers carry, if any.
func (n *Node) deliver(e *wire.Envelope, to actor.Ref, msg any, reply func(any, error)) error {
	if len(e.Headers) > 0 {
		if t := tracehook.Of(n.sys); t != nil {
			d, ok := n.host.(tracehook.Deliverer)
			if tc := t.Extract(headerGetter(e.Headers), headerKeys(e.Headers)); ok && tc != nil {
				return d.DeliverTraced(tc, to, msg, reply)
			}
		}
	}
	return n.host.Deliver(to, msg, reply)
}

func headerGetter(hs []wire.Header) func(string) string {
	return func(k string) string {
		for _, h := range hs {
			if h.Key == k {
				return h.Value
			}
		}
		return ""
	}
}

func headerKeys(hs []wire.Header) func() []string {
	return func() []string {
		ks := make([]string, len(hs))
		for i, h := range hs {
			ks[i] = h.Key
		}
		return ks
	}
}
