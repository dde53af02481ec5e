package actor_test

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
)

// These benchmarks mirror the actor suite of ../shared/BENCHMARKS.md in go
// test form; bench/cmd/compare runs the real comparison.

func benchSystem(b *testing.B) *actor.System {
	s, err := actor.NewSystem("bench")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Shutdown(context.Background()) })
	s.SetDetailedMetrics(benchDetailed)
	return s
}

// benchDetailed turns detailed metrics on in benchSystem; see
// BenchmarkMetricsOverhead.
var benchDetailed bool

type pinger struct {
	other *actor.Ref
	left  int
	done  chan struct{}
}

func (p *pinger) Receive(c *actor.Context, msg any) (any, error) {
	if p.left--; p.left <= 0 {
		if p.done != nil {
			close(p.done)
		}
		return nil, nil
	}
	return nil, c.Tell(*p.other, msg)
}

// BenchmarkPingPong: two actors telling each other; per round trip.
func BenchmarkPingPong(b *testing.B) {
	s := benchSystem(b)
	done := make(chan struct{})
	var a, z actor.Ref
	a, _ = s.Spawn("ping", "a", func() actor.Actor { return &pinger{other: &z, left: b.N, done: done} })
	z, _ = s.Spawn("ping", "z", func() actor.Actor { return &pinger{other: &a, left: b.N + 1} })
	b.ResetTimer()
	s.Tell(a, 0)
	<-done
}

// BenchmarkAsk: sequential asks from outside; per round trip.
func BenchmarkAsk(b *testing.B) {
	s := benchSystem(b)
	ref, _ := s.Spawn("echo", "e", func() actor.Actor {
		return actor.ActorFunc(func(_ *actor.Context, msg any) (any, error) { return msg, nil })
	})
	ctx := context.Background()
	b.ResetTimer()
	for i := range b.N {
		if _, err := actor.Ask[int](ctx, s, ref, i); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSpawn: spawn from one goroutine; per actor.
func BenchmarkSpawn(b *testing.B) {
	s := benchSystem(b)
	f := func() actor.Actor { return actor.ActorFunc(func(*actor.Context, any) (any, error) { return nil, nil }) }
	b.ResetTimer()
	for i := range b.N {
		if _, err := s.Spawn("spawned", fmt.Sprint(i), f); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkIdleActor reports the bytes an idle actor keeps after it handled
// a message, a fired timer and an ask.
func BenchmarkIdleActor(b *testing.B) {
	for range b.N {
		s := benchSystem(b)
		const n = 10000
		var wg sync.WaitGroup
		f := func() actor.Actor {
			return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
				if msg == "arm" {
					c.Timers().StartSingle("t", time.Millisecond, "fire")
				}
				if msg == "fire" || msg == "ask" {
					wg.Done()
				}
				return msg, nil
			})
		}
		before := heapInUse()
		refs := make([]actor.Ref, n)
		for i := range refs {
			refs[i], _ = s.Spawn("idle", fmt.Sprint(i), f)
			wg.Add(2)
			s.Tell(refs[i], "arm")
			go actor.Ask[string](context.Background(), s, refs[i], "ask")
		}
		wg.Wait()
		time.Sleep(100 * time.Millisecond)
		after := heapInUse()
		b.ReportMetric(float64(after-before)/n, "B/actor")
		runtime.KeepAlive(refs)
	}
}

func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse + ms.StackInuse
}

// BenchmarkFanIn: 8 goroutines tell one actor; per message.
func BenchmarkFanIn(b *testing.B) {
	s := benchSystem(b)
	const senders = 8
	per := b.N/senders + 1
	total := per * senders
	done := make(chan struct{})
	left := total
	ref, _ := s.Spawn("sink", "s", func() actor.Actor {
		return actor.ActorFunc(func(*actor.Context, any) (any, error) {
			if left--; left == 0 {
				close(done)
			}
			return nil, nil
		})
	})
	msg := &struct{ n int }{}
	start := make(chan struct{})
	var wg sync.WaitGroup
	for range senders {
		wg.Go(func() {
			<-start
			for range per {
				_ = s.Tell(ref, msg)
			}
		})
	}
	b.ResetTimer()
	close(start)
	wg.Wait()
	<-done
}

// BenchmarkFanInBounded: BenchmarkFanIn into a mailbox bounded with
// BlockWhenFull, the senders waiting for room with Send; per message.
func BenchmarkFanInBounded(b *testing.B) {
	s := benchSystem(b)
	const senders = 8
	per := b.N/senders + 1
	total := per * senders
	done := make(chan struct{})
	left := total
	ref, _ := s.Spawn("sink", "s", func() actor.Actor {
		return actor.ActorFunc(func(*actor.Context, any) (any, error) {
			if left--; left == 0 {
				close(done)
			}
			return nil, nil
		})
	}, actor.WithMailbox(1024, actor.BlockWhenFull))
	msg := &struct{ n int }{}
	start := make(chan struct{})
	ctx := context.Background()
	var wg sync.WaitGroup
	for range senders {
		wg.Go(func() {
			<-start
			for range per {
				_ = s.Send(ctx, ref, msg)
			}
		})
	}
	b.ResetTimer()
	close(start)
	wg.Wait()
	<-done
}
