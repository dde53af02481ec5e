package observe

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
)

// benchActors is the scale the observer must stay responsive at.
const benchActors = 100_000

// bigSystem spawns n idle actors: 100 parents of n/100 children each,
// every child having handled one message.
func bigSystem(b *testing.B, n int) *actor.System {
	b.Helper()
	s, err := actor.NewSystem("big")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = s.Shutdown(context.Background()) })
	idle := func() actor.Actor {
		return actor.ActorFunc(func(*actor.Context, any) (any, error) { return nil, nil })
	}
	for p := range 100 {
		parent, err := s.Spawn("shard", fmt.Sprint(p), func() actor.Actor {
			return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
				for i := range n / 100 {
					r, err := c.Spawn("account", fmt.Sprint(i), idle)
					if err != nil {
						return nil, err
					}
					_ = c.Tell(r, "hello")
				}
				return nil, nil
			})
		})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := actor.Ask[any](context.Background(), s, parent, "spawn"); err != nil {
			b.Fatal(err)
		}
	}
	return s
}

// BenchmarkSummaryCompute100k measures what one fresh summary costs the
// server at 100k actors.
func BenchmarkSummaryCompute100k(b *testing.B) {
	o, err := NewObserver(bigSystem(b, benchActors))
	if err != nil {
		b.Fatal(err)
	}
	defer o.Close()
	cpu := cpuTime()
	for b.Loop() {
		_, _ = o.summaryWith(nil, false)
	}
	reportCPU(b, cpu)
}

// BenchmarkSummaryComputeWithTree100k measures a fresh summary that
// also indexes the tree, as while a page shows it.
func BenchmarkSummaryComputeWithTree100k(b *testing.B) {
	o, err := NewObserver(bigSystem(b, benchActors))
	if err != nil {
		b.Fatal(err)
	}
	defer o.Close()
	cpu := cpuTime()
	for b.Loop() {
		_, _ = o.summaryWith(nil, true)
	}
	reportCPU(b, cpu)
}

// BenchmarkSummaryRequest100k measures what a client's GET /api/summary
// costs the server at 100k actors, as a page polling it would.
func BenchmarkSummaryRequest100k(b *testing.B) {
	o, err := NewObserver(bigSystem(b, benchActors))
	if err != nil {
		b.Fatal(err)
	}
	defer o.Close()
	cpu := cpuTime()
	for b.Loop() {
		rec := httptest.NewRecorder()
		o.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/summary", nil))
		if rec.Code != http.StatusOK {
			b.Fatal(rec.Code)
		}
	}
	reportCPU(b, cpu)
}

// reportCPU reports the process's CPU time per operation since cpu.
func reportCPU(b *testing.B, cpu time.Duration) {
	b.ReportMetric(float64(cpuTime()-cpu)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}
