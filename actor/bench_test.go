package actor_test

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
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

// BenchmarkIdleActor mirrors idle_actor of the bench suite: 100k actors,
// each having handled one message (which starts a 1 ms keyed timer), the
// timer's message and one ask, then idle; B/actor is the (HeapInuse +
// StackInuse) growth after GC twice, a warm-up actor excluded.
func BenchmarkIdleActor(b *testing.B) { benchIdle(b, 100_000) }

// BenchmarkIdle1M mirrors idle_1m: as BenchmarkIdleActor with 1M actors;
// it also reports the time to spawn them, per actor.
func BenchmarkIdle1M(b *testing.B) { benchIdle(b, 1_000_000) }

type idleKick struct{}

type idleTick struct{}

func benchIdle(b *testing.B, n int) {
	for range b.N {
		s := benchSystem(b)
		var fired sync.WaitGroup
		f := func() actor.Actor {
			return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
				switch msg.(type) {
				case *idleKick:
					return nil, c.Timers().StartSingle("tick", time.Millisecond, idleTick{})
				case idleTick:
					fired.Done()
					return nil, nil
				case int:
					return msg.(int) + 1, nil
				}
				return nil, nil
			})
		}
		spawn := func(refs []actor.Ref, from int) {
			for i := range refs {
				r, err := s.Spawn("idle", strconv.Itoa(from+i), f)
				if err != nil {
					b.Fatal(err)
				}
				refs[i] = r
			}
		}
		use := func(refs []actor.Ref) {
			fired.Add(len(refs))
			kick := &idleKick{}
			for i, r := range refs {
				if err := s.Tell(r, kick); err != nil {
					b.Fatal(err)
				}
				if _, err := actor.Ask[int](context.Background(), s, r, i); err != nil {
					b.Fatal(err)
				}
			}
			fired.Wait()
		}
		warm := make([]actor.Ref, 1)
		spawn(warm, -1)
		use(warm)
		refs := make([]actor.Ref, n)
		time.Sleep(200 * time.Millisecond)
		before := heapInUse()
		t0 := time.Now()
		spawn(refs, 0)
		spawned := time.Since(t0)
		use(refs)
		time.Sleep(200 * time.Millisecond)
		after := heapInUse()
		// IDLE_HEAPPROFILE=file writes the live heap of the idle actors
		// (with -test.memprofilerate 1 for every object), to see what an
		// idle actor keeps.
		if fn := os.Getenv("IDLE_HEAPPROFILE"); fn != "" {
			if fh, err := os.Create(fn); err == nil {
				_ = pprof.WriteHeapProfile(fh)
				fh.Close()
			}
		}
		b.ReportMetric((float64(after)-float64(before))/float64(n), "B/actor")
		b.ReportMetric((float64(after)-float64(before))/1e6, "MB")
		b.ReportMetric(float64(spawned.Nanoseconds())/float64(n), "spawn-ns/actor")
		runtime.KeepAlive(refs)
		s.Shutdown(context.Background())
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
