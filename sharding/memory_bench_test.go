package sharding_test

import (
	"context"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/remote"
	"github.com/troupe-go/troupe/sharding"
)

// BenchmarkActiveMemory: 100k plain actors, then 100k entities of one
// node, each having handled one tell; it reports the bytes each costs
// (heap and stacks in use, after two collections) and the difference.
// The node's leases are long, so that a busy machine does not lapse them
// and its renewals make little garbage. With SHARDING_HEAP_PROFILE set,
// it writes a heap profile of every allocation still in use after the
// entities to that file:
//
//	SHARDING_HEAP_PROFILE=/tmp/h go test -run '^$' -bench ActiveMemory -benchtime 1x ./sharding
//	go tool pprof -sample_index=inuse_space -top /tmp/h
func BenchmarkActiveMemory(b *testing.B) {
	profile := os.Getenv("SHARDING_HEAP_PROFILE")
	if profile != "" {
		defer func(rate int) { runtime.MemProfileRate = rate }(runtime.MemProfileRate)
		runtime.MemProfileRate = 1
	}
	const n = 100_000
	sys, k, handled := memoryNode(b)
	f := func() actor.Actor {
		return actor.ActorFunc(func(*actor.Context, any) (any, error) { handled.Add(1); return nil, nil })
	}
	for b.Loop() { // one pass: the figures are per actor, not per op
	}
	before := inUse()
	for i := range n {
		ref, err := sys.Spawn("plain", strconv.Itoa(i), f)
		if err != nil {
			b.Fatal(err)
		}
		_ = sys.Tell(ref, 1)
	}
	waitHandled(handled, n)
	mid := inUse()
	for i := range n {
		if err := k.Get(strconv.Itoa(i)).Tell(1); err != nil {
			b.Fatal(err)
		}
	}
	waitHandled(handled, 2*n)
	after := inUse()
	if k.Active() != n {
		b.Fatalf("%d entities active, want %d", k.Active(), n)
	}
	if profile != "" {
		fp, err := os.Create(profile)
		if err != nil {
			b.Fatal(err)
		}
		defer fp.Close()
		if err := pprof.WriteHeapProfile(fp); err != nil {
			b.Fatal(err)
		}
	}
	plain, entity := float64(mid-before)/n, float64(after-mid)/n
	b.ReportMetric(plain, "B/plain")
	b.ReportMetric(entity, "B/entity")
	b.ReportMetric(entity-plain, "B/over")
}

// inUse returns the heap's and stacks' bytes in use after two
// collections.
func inUse() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse + m.StackInuse
}

// memoryNode is benchNode with leases of a minute.
func memoryNode(b *testing.B) (*actor.System, *sharding.Kind, *atomic.Int64) {
	b.Helper()
	ctx := context.Background()
	sys, err := actor.NewSystem("bench")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = sys.Shutdown(ctx) })
	node, err := remote.Start(sys, sharding.EmbeddedJetStream(b.TempDir()))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = node.Close(ctx) })
	c, err := sharding.Start(sys, node, sharding.WithMemoryStorage(), sharding.WithLease(time.Minute, 2*time.Second, 20*time.Second))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = c.Close() })
	var handled atomic.Int64
	k, err := sharding.Register(c, "bench", func() actor.Actor {
		return actor.ActorFunc(func(*actor.Context, any) (any, error) { handled.Add(1); return nil, nil })
	}, sharding.WithShards(256), sharding.WithIdleTimeout(0))
	if err != nil {
		b.Fatal(err)
	}
	for len(k.Owned()) < 256 {
		time.Sleep(time.Millisecond)
	}
	return sys, k, &handled
}
