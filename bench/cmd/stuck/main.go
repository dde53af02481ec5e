// Command stuck measures what handlers that never return cost the other
// actors of a system (issue 29 §1): on a system of 2 workers, 16 echo
// actors asked every 10 ms by 16 goroutines and an actor with a 50 ms
// fixed-rate timer run beside k actors that are told at once to block in
// their handler (on a channel, or in a read(2) of a pipe nobody writes).
// For a window after the block it reports the other actors' worst and p99
// ask latency, the asks over 100 ms and unanswered, the timer's worst
// lateness (fire time minus its due time), and whether Shutdown returned
// by its deadline naming exactly the k stuck actors. The row of k = 0 is
// the machine's own floor: on a loaded machine the timer is late with no
// handler stuck at all.
//
// With -trace, the window of the last k is written as a runtime trace
// (go tool trace), with a log entry per delivery of the timer ("tick",
// with its lateness) and per ask slower than 20 ms ("slowask").
//
//	go run ./cmd/stuck -k 0,1,2,4,32,1000 -window 3s
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime/trace"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"go.uber.org/zap"

	"github.com/troupe-go/troupe/actor"
)

func main() {
	ks := flag.String("k", "0,1,2,4,32,1000", "stuck handler counts, comma-separated")
	window := flag.Duration("window", 3*time.Second, "how long to measure after the handlers block")
	budget := flag.Duration("budget", 0, "stall budget (0: the default)")
	workers := flag.Int("workers", 2, "scheduler workers")
	mode := flag.String("block", "chan", "how handlers block: chan (a receive, as select{}) or read (read(2) of a pipe)")
	traceTo := flag.String("trace", "", "write a runtime trace of the window of the last k to this file (go tool trace)")
	flag.Parse()
	fmt.Printf("workers=%d budget=%v window=%v block=%s\n\n", *workers, *budget, *window, *mode)
	fmt.Println("| k stuck | worst ask | p99 ask | asks over 100 ms | unanswered | timer worst lateness | shutdown named the k |")
	fmt.Println("|---|---|---|---|---|---|---|")
	fields := strings.Split(*ks, ",")
	for i, f := range fields {
		k, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			fmt.Fprintln(os.Stderr, "stuck: bad -k:", err)
			os.Exit(2)
		}
		tracePath := ""
		if i == len(fields)-1 {
			tracePath = *traceTo
		}
		r, err := run(k, *workers, *budget, *window, *mode, tracePath)
		if err != nil {
			fmt.Fprintln(os.Stderr, "stuck:", err)
			os.Exit(1)
		}
		fmt.Printf("| %d | %v | %v | %d of %d | %d | %v | %v |\n", k, r.worst.Round(100*time.Microsecond),
			r.p99.Round(100*time.Microsecond), r.over, r.asks, r.unanswered, r.timerLate.Round(100*time.Microsecond), r.named)
	}
}

type result struct {
	worst, p99, timerLate time.Duration
	asks, over            int
	unanswered            int
	named                 bool
}

// blocker is how a stuck handler waits, and how it is let go.
type blocker struct {
	release chan struct{}
	fds     [2]int
	read    bool
}

func newBlocker(mode string) (*blocker, error) {
	b := &blocker{release: make(chan struct{}), read: mode == "read"}
	if b.read {
		if err := syscall.Pipe(b.fds[:]); err != nil {
			return nil, err
		}
	}
	return b, nil
}

func (b *blocker) block() {
	if !b.read {
		<-b.release
		return
	}
	var one [1]byte
	_, _ = syscall.Read(b.fds[0], one[:]) // until the pipe is closed
}

func (b *blocker) letGo() {
	close(b.release)
	if b.read {
		_ = syscall.Close(b.fds[1])
	}
}

func run(k, workers int, budget, window time.Duration, mode, tracePath string) (result, error) {
	var res result
	opts := []actor.Option{actor.WithWorkers(workers), actor.WithLogger(zap.NewNop())}
	if budget > 0 {
		opts = append(opts, actor.WithStallBudget(budget))
	}
	s, err := actor.NewSystem("stuck", opts...)
	if err != nil {
		return res, err
	}
	b, err := newBlocker(mode)
	if err != nil {
		return res, err
	}
	echo := func() actor.Actor {
		return actor.ActorFunc(func(_ *actor.Context, msg any) (any, error) { return msg, nil })
	}
	var echoes []actor.Ref
	for i := range 16 {
		r, err := s.Spawn("echo", strconv.Itoa(i), echo)
		if err != nil {
			return res, err
		}
		echoes = append(echoes, r)
	}
	ticks := &ticker{period: 50 * time.Millisecond}
	if _, err := s.Spawn("ticker", "t", func() actor.Actor { return ticks }); err != nil {
		return res, err
	}
	var stuck []actor.Ref
	for i := range k {
		r, err := s.Spawn("stuck", strconv.Itoa(i), func() actor.Actor {
			return actor.ActorFunc(func(_ *actor.Context, msg any) (any, error) {
				b.block()
				return nil, nil
			})
		})
		if err != nil {
			return res, err
		}
		stuck = append(stuck, r)
	}

	time.Sleep(200 * time.Millisecond) // warm up: asks and ticks running
	var (
		mu   sync.Mutex
		lats []time.Duration
		wg   sync.WaitGroup
	)
	start := time.Now()
	stop := start.Add(window)
	for _, e := range echoes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next := start; next.Before(stop); next = next.Add(10 * time.Millisecond) {
				time.Sleep(time.Until(next))
				ctx, cancel := context.WithDeadline(context.Background(), stop.Add(time.Second))
				t0 := time.Now()
				_, err := actor.Ask[any](ctx, s, e, "ping")
				cancel()
				if lat := time.Since(t0); lat > 20*time.Millisecond {
					trace.Logf(context.Background(), "slowask", "%v", lat) // a no-op unless tracing
				}
				mu.Lock()
				if err != nil {
					res.unanswered++
				} else {
					lats = append(lats, time.Since(t0))
				}
				mu.Unlock()
			}
		}()
	}
	ticks.measureFrom(start)
	stopTrace, err := startTrace(tracePath)
	if err != nil {
		return res, err
	}
	for _, r := range stuck { // at once, from outside, as the issue did
		if err := s.Tell(r, "block"); err != nil {
			return res, err
		}
	}
	wg.Wait()
	if err := stopTrace(); err != nil {
		return res, err
	}
	res.timerLate = ticks.worst()

	slices.Sort(lats)
	res.asks = len(lats) + res.unanswered
	if n := len(lats); n > 0 {
		res.worst = lats[n-1]
		res.p99 = lats[min(n-1, n*99/100)]
	}
	for _, l := range lats {
		if l > 100*time.Millisecond {
			res.over++
		}
	}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	err = s.Shutdown(ctx)
	var se *actor.ShutdownError
	res.named = k == 0 && err == nil || errors.As(err, &se) && sameRefs(se.Actors, stuck)
	b.letGo()
	ctx2, cancel2 := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel2()
	if err := s.Shutdown(ctx2); err != nil {
		return res, fmt.Errorf("shutdown after release: %w", err)
	}
	return res, nil
}

func sameRefs(got, want []actor.Ref) bool {
	return len(got) == len(want) && !slices.ContainsFunc(want, func(r actor.Ref) bool { return !slices.Contains(got, r) })
}

// ticker has a fixed-rate timer and records how late each delivery is
// handled after its due time (start + n*period).
type ticker struct {
	period time.Duration
	mu     sync.Mutex
	start  time.Time
	n      int
	from   time.Time
	late   time.Duration
}

func (t *ticker) Started(c *actor.Context) {
	t.mu.Lock()
	t.start, t.n = time.Now(), 0
	t.mu.Unlock()
	_ = c.Timers().StartFixedRate("tick", t.period, "tick")
}

func (t *ticker) Receive(_ *actor.Context, _ any) (any, error) {
	now := time.Now()
	t.mu.Lock()
	defer t.mu.Unlock()
	t.n++
	due := t.start.Add(time.Duration(t.n) * t.period)
	if !t.from.IsZero() && due.After(t.from) {
		t.late = max(t.late, now.Sub(due))
		trace.Logf(context.Background(), "tick", "%d late %v", t.n, now.Sub(due))
	}
	return nil, nil
}

func (t *ticker) measureFrom(at time.Time) {
	t.mu.Lock()
	t.from = at
	t.mu.Unlock()
}

// worst returns the worst lateness since measureFrom; a due time passed
// without its delivery counts as late by now.
func (t *ticker) worst() time.Duration {
	now := time.Now()
	t.mu.Lock()
	defer t.mu.Unlock()
	next := t.start.Add(time.Duration(t.n+1) * t.period)
	return max(t.late, now.Sub(next))
}

// startTrace starts a runtime trace into path, if one is named, and
// returns the func that stops it.
func startTrace(path string) (stop func() error, err error) {
	if path == "" {
		return func() error { return nil }, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := trace.Start(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() error { trace.Stop(); return f.Close() }, nil
}
