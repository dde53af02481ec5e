package sharding_test

import (
	"context"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/remote"
	"github.com/troupe-go/troupe/sharding"
)

// benchNode starts one node that owns every shard of a kind whose
// entities count what they handle.
func benchNode(b *testing.B, shards int) (*actor.System, *sharding.Kind, *atomic.Int64) {
	b.Helper()
	ctx := context.Background()
	sys, err := actor.NewSystem("bench")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = sys.Shutdown(ctx) })
	dir := b.TempDir()
	node, err := remote.Start(sys, sharding.EmbeddedJetStream(dir))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = node.Close(ctx) })
	c, err := sharding.Start(sys, node, sharding.WithMemoryStorage())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = c.Close() })
	var handled atomic.Int64
	k, err := sharding.Register(c, "bench", func() actor.Actor {
		return actor.ActorFunc(func(*actor.Context, any) (any, error) { handled.Add(1); return nil, nil })
	}, sharding.WithShards(shards), sharding.WithIdleTimeout(0))
	if err != nil {
		b.Fatal(err)
	}
	for len(k.Owned()) < shards {
		time.Sleep(time.Millisecond)
	}
	return sys, k, &handled
}

func waitHandled(h *atomic.Int64, n int64) {
	for h.Load() < n {
		time.Sleep(10 * time.Microsecond)
	}
}

// BenchmarkTellLocal: tells to an active entity on this node, against
// plain tells to an actor of the same system.
func BenchmarkTellLocal(b *testing.B) {
	sys, k, handled := benchNode(b, 16)
	run := 0
	b.Run("plain", func(b *testing.B) {
		var n atomic.Int64
		run++
		ref, err := sys.Spawn("plain", strconv.Itoa(run), func() actor.Actor {
			return actor.ActorFunc(func(*actor.Context, any) (any, error) { n.Add(1); return nil, nil })
		})
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			_ = sys.Tell(ref, 1)
		}
		waitHandled(&n, int64(b.N))
	})
	b.Run("entity", func(b *testing.B) {
		e := k.Get("e")
		start := handled.Load()
		for b.Loop() {
			_ = e.Tell(1)
		}
		waitHandled(handled, start+int64(b.N))
	})
}

// BenchmarkFirstTell: the first message to new entities, against spawn
// and tell of plain actors.
func BenchmarkFirstTell(b *testing.B) {
	sys, k, handled := benchNode(b, 256)
	run := 0
	b.Run("plain", func(b *testing.B) {
		var n atomic.Int64
		f := func() actor.Actor {
			return actor.ActorFunc(func(*actor.Context, any) (any, error) { n.Add(1); return nil, nil })
		}
		run++
		i := 0
		for b.Loop() {
			ref, _ := sys.Spawn("plain"+strconv.Itoa(run), strconv.Itoa(i), f)
			_ = sys.Tell(ref, 1)
			i++
		}
		waitHandled(&n, int64(b.N))
	})
	b.Run("entity", func(b *testing.B) {
		run++
		start := handled.Load()
		i := 0
		for b.Loop() {
			_ = k.Get(strconv.Itoa(run) + "-" + strconv.Itoa(i)).Tell(1)
			i++
		}
		waitHandled(handled, start+int64(b.N))
	})
}
