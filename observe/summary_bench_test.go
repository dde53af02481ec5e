package observe

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/loop"
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

// BenchmarkTreeRequest100k measures what the tree's requests cost the
// server at 100k actors: a level of 1,000 and a filter over all, a page
// of 100 each, as a page shows and refreshes them; every 10th request
// comes after a fresh snapshot, so the index is rebuilt and the views
// sorted again.
func BenchmarkTreeRequest100k(b *testing.B) {
	for _, query := range []string{"parent=shard/7&kind=account", "all=1&q=account/99"} {
		b.Run(query, func(b *testing.B) {
			clock := loop.NewVirtualClock()
			o, err := NewObserver(bigSystem(b, benchActors), WithClock(clock))
			if err != nil {
				b.Fatal(err)
			}
			defer o.Close()
			cpu := cpuTime()
			i := 0
			for b.Loop() {
				if i++; i%10 == 0 {
					clock.Advance(o.interval)
				}
				rec := httptest.NewRecorder()
				o.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/actors?limit=100&"+query, nil))
				if rec.Code != http.StatusOK {
					b.Fatal(rec.Code, rec.Body)
				}
			}
			reportCPU(b, cpu)
		})
	}
}

// BenchmarkLiveUpdates100k measures how far apart the live updates of a
// page come at 100k actors while another client polls /api/summary as
// fast as it answers: s/update is the mean gap between two updates (the
// interval is one second).
func BenchmarkLiveUpdates100k(b *testing.B) {
	o, err := NewObserver(bigSystem(b, benchActors))
	if err != nil {
		b.Fatal(err)
	}
	defer o.Close()
	srv := httptest.NewServer(o)
	defer srv.Close()
	done := make(chan struct{})
	polled := make(chan int)
	go func() {
		n := 0
		defer func() { polled <- n }()
		for {
			select {
			case <-done:
				return
			default:
			}
			resp, err := http.Get(srv.URL + "/api/summary")
			if err != nil {
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			n++
		}
	}()
	resp, err := http.Get(srv.URL + "/api/events")
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<22)
	next := func() {
		for sc.Scan() {
			if sc.Text() == "event: summary" {
				return
			}
		}
		b.Fatal("stream ended")
	}
	next() // the first comes at once
	cpu := cpuTime()
	start := time.Now()
	for b.Loop() {
		next()
	}
	b.ReportMetric(time.Since(start).Seconds()/float64(b.N), "s/update")
	reportCPU(b, cpu)
	close(done)
	b.ReportMetric(float64(<-polled)/float64(b.N), "polls/update")
}
