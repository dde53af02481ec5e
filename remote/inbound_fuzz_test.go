package remote

import (
	"context"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/remote/wire"
)

// FuzzInbound feeds arbitrary frames to a live node's inbound path, as if
// they came from the network: whatever they hold, the node must not
// panic, and must still answer an ask from another node afterwards.
func FuzzInbound(f *testing.F) {
	to := wire.Ref{System: "fz", Kind: "echo", ID: "e"}
	for _, e := range []*wire.Envelope{
		{Kind: wire.KindTell, Node: "other", To: to, Type: "string", Body: []byte{0x0a, 0x01, 'x'}},
		{Kind: wire.KindAsk, Node: "other", To: to, Corr: 7, Type: "int64", Body: []byte{0x08, 0x02}},
		{Kind: wire.KindReply, Node: "other", Corr: 7, Err: &wire.Error{Code: 1, Message: "x"}},
		{Kind: wire.KindNotice, Node: "other", To: to, Type: "nope", Body: []byte{1, 2}},
		{Kind: wire.KindWatch, Node: "other", To: to, From: wire.Ref{System: "other", Kind: "w", ID: "1"}},
		{Kind: wire.KindTerminated, Node: "other", To: to, From: to},
		{Kind: wire.KindSpawn, Node: "other", To: wire.Ref{System: "fz", Kind: "unknown", ID: "1"}, Corr: 9},
		{Kind: wire.KindTell, Node: "fz", To: wire.Ref{System: "elsewhere", Kind: "k", ID: "i"}},
	} {
		f.Add(wire.AppendFrame(nil, e, e))
	}
	f.Add([]byte{wire.Version, 0x04, 0x08, 0x01, 0x50, 0x0f})
	hub, hubSys := fuzzNode(f, "fz", WithLeafListen("127.0.0.1:0"))
	_, prober := fuzzNode(f, "prober", WithLeafRemotes(hub.LeafURL()))
	echo, err := hubSys.Spawn("echo", "e", func() actor.Actor {
		return actor.ActorFunc(func(_ *actor.Context, msg any) (any, error) { return msg, nil })
	})
	if err != nil {
		f.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for { // until the prober reaches the hub
		if _, err := actor.Ask[string](ctx, prober, echo, "up?"); err == nil {
			break
		} else if ctx.Err() != nil {
			f.Fatal(err)
		}
	}
	// Frames on the subject of frames from "other", which they claim.
	subject := frameSubject("fz", "other")
	f.Fuzz(func(t *testing.T, frame []byte) {
		// Through the server, so that the node's own subscription
		// goroutine handles it, as it would a frame from the network.
		if err := hub.nc.Publish(subject, frame); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if v, err := actor.Ask[string](ctx, prober, echo, "still there?"); err != nil || v != "still there?" {
			t.Fatalf("ask after the fuzzed frame: %q, %v", v, err)
		}
	})
}

// fuzzNode starts a node named name for the length of f.
func fuzzNode(f *testing.F, name string, opts ...Option) (*Node, *actor.System) {
	sys, err := actor.NewSystem(name, actor.WithAskTimeout(30*time.Second))
	if err != nil {
		f.Fatal(err)
	}
	n, err := Start(sys, opts...)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_ = n.Close(ctx)
		_ = sys.Shutdown(ctx)
	})
	return n, sys
}
