package loop

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// More callbacks that do not return than workers, queued ahead of other
// work: with the budget an hour away, the sampler (driven by hand, one
// hand-off period per round) hands the held workers over and starts
// helpers, so the other loops run after a number of rounds, not after a
// budget per stuck callback. Helpers stay within maxHelpers, and once the
// callbacks return no held goroutine and no helper is left.
func TestStuckLoopsDoNotHoldUpOthers(t *testing.T) {
	for _, stuck := range []int{3, 32, 1000} {
		t.Run(fmt.Sprintf("stuck=%d", stuck), func(t *testing.T) {
			before := goleak.IgnoreCurrent()
			s, err := NewScheduler(WithWorkers(2), WithStallBudget(time.Hour), withManualSampler())
			if err != nil {
				t.Fatal(err)
			}
			release := make(chan struct{})
			var entered atomic.Int32
			for range stuck {
				l := newDriven(t, s)
				if err := l.Submit(func() { entered.Add(1); heldCallback(make(chan struct{}), release) }); err != nil {
					t.Fatal(err)
				}
			}
			const others = 16
			var ran atomic.Int32
			for range others {
				l := newDriven(t, s)
				if err := l.Submit(func() { ran.Add(1) }); err != nil {
					t.Fatal(err)
				}
			}

			rounds := driveSampler(t, s, func() bool { return ran.Load() == others }, func(st SchedulerStats) {
				if st.Helpers > maxHelpers {
					t.Fatalf("%d helpers running, want at most %d", st.Helpers, maxHelpers)
				}
			})
			st := s.Stats()
			t.Logf("%d stuck: others ran after %d rounds; %d callbacks entered, %d held, %d helpers running, %d started",
				stuck, rounds, entered.Load(), st.Held, st.Helpers, s.helped.Load())
			if st.Held > stuck {
				t.Errorf("%d goroutines held, more than the %d stuck callbacks", st.Held, stuck)
			}

			close(release)
			waitFor(t, func() bool { st := s.Stats(); return st.Held == 0 && st.Helpers == 0 })
			ctx, cancel := context.WithTimeout(context.Background(), stallWaitLimit)
			defer cancel()
			if err := s.Shutdown(ctx); err != nil {
				t.Fatal(err)
			}
			goleak.VerifyNone(t, before)
		})
	}
}

// driveSampler calls checkStalls a hand-off period apart in made-up time,
// letting the runners move between rounds, until done; it checks each
// round's stats and returns how many rounds it took.
func driveSampler(t *testing.T, s *Scheduler, done func() bool, check func(SchedulerStats)) int {
	t.Helper()
	deadline := time.Now().Add(stallWaitLimit)
	var now time.Duration
	rounds := 0
	for !done() {
		if time.Now().After(deadline) {
			t.Fatalf("hang guard: not done after %d rounds (%v of made-up time, budget %v)", rounds, now, s.stall)
		}
		s.checkStalls(now)
		check(s.Stats())
		now += s.handoff
		rounds++
		time.Sleep(100 * time.Microsecond) // pacing only: the runners move
	}
	return rounds
}

// waitFor waits until cond holds, as a hang guard.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(stallWaitLimit); !cond(); time.Sleep(100 * time.Microsecond) {
		if time.Now().After(deadline) {
			t.Fatal("hang guard: gave up waiting")
		}
	}
}

// Helpers that wait for a thread hold back more helpers. Where stuck
// callbacks block in syscalls, each costs the runtime a thread hand-off,
// and helpers started faster than it hands threads over wait in its FIFO
// run queue ahead of every other goroutine of the process: with 1000
// stuck in read(2), 128 helpers waited there and a 50 ms timer was 518 ms
// late. Here the runtime is played by the test, which holds started
// helpers back: however many stuck runners the sampler finds, no more
// helpers start than the window (the workers' count) while those wait;
// once they begin, the others run.
func TestWaitingHelpersHoldBackMore(t *testing.T) {
	before := goleak.IgnoreCurrent()
	var mu sync.Mutex
	var waiting []func()
	hold := true
	start := func(begin func()) {
		mu.Lock()
		defer mu.Unlock()
		if hold {
			waiting = append(waiting, begin)
			return
		}
		go begin()
	}
	s, err := NewScheduler(WithWorkers(2), WithStallBudget(time.Hour), withManualSampler(),
		func(s *Scheduler) error { s.startHelper = start; return nil })
	if err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	var entered atomic.Int32
	const stuck, others = 64, 16
	for range stuck {
		l := newDriven(t, s)
		if err := l.Submit(func() { entered.Add(1); heldCallback(make(chan struct{}), release) }); err != nil {
			t.Fatal(err)
		}
	}
	var ran atomic.Int32
	for range others {
		l := newDriven(t, s)
		if err := l.Submit(func() { ran.Add(1) }); err != nil {
			t.Fatal(err)
		}
	}

	var now time.Duration
	for round := range 20 {
		s.checkStalls(now)
		now += s.handoff
		if started := s.helped.Load(); started > uint64(len(s.workers)) {
			t.Fatalf("round %d: %d helpers started while none could begin, want at most %d", round, started, len(s.workers))
		}
		for deadline := time.Now().Add(stallWaitLimit); entered.Load() < int32(s.Stats().Held)+2; time.Sleep(100 * time.Microsecond) {
			if time.Now().After(deadline) {
				t.Fatal("hang guard: the fresh runners did not take the next stuck loops")
			}
		}
	}
	mu.Lock()
	hold = false
	for _, begin := range waiting {
		go begin()
	}
	mu.Unlock()
	driveSampler(t, s, func() bool { return ran.Load() == others }, func(st SchedulerStats) {
		if st.Helpers > maxHelpers {
			t.Fatalf("%d helpers running, want at most %d", st.Helpers, maxHelpers)
		}
	})

	close(release)
	waitFor(t, func() bool { st := s.Stats(); return st.Held == 0 && st.Helpers == 0 })
	ctx, cancel := context.WithTimeout(context.Background(), stallWaitLimit)
	defer cancel()
	if err := s.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	goleak.VerifyNone(t, before)
}

// Helpers started one after another take their first loop from different
// shards of the global queue. Most helpers run a turn or two before a
// stuck loop holds them; when every helper's first take started at one
// shard, the other shard's loops waited for the workers' oldest-first
// takes, behind the backlog (asks 94-187 ms late beside 1000 stuck in
// read(2)). Both workers are held here, so only the helpers, begun by the
// test one at a time, take the two loops queued in each shard.
func TestHelpersStartAtDifferentShards(t *testing.T) {
	before := goleak.IgnoreCurrent()
	var mu sync.Mutex
	var waiting []func()
	s, err := NewScheduler(WithWorkers(2), WithStallBudget(time.Hour), withManualSampler(),
		func(s *Scheduler) error {
			s.startHelper = func(begin func()) { mu.Lock(); waiting = append(waiting, begin); mu.Unlock() }
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	var entered atomic.Int32
	for range 4 { // two for the workers, two for their fresh runners
		l := newDriven(t, s)
		if err := l.Submit(func() { entered.Add(1); heldCallback(make(chan struct{}), release) }); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, func() bool { return entered.Load() == 2 })
	s.checkStalls(0)
	s.checkStalls(s.handoff) // both workers held: handed over, helpers started
	waitFor(t, func() bool { return entered.Load() == 4 })
	mu.Lock()
	begins := append([]func(){}, waiting...)
	mu.Unlock()
	if len(begins) < 2 {
		t.Fatalf("%d helpers started, want 2", len(begins))
	}

	taken := make(chan int, 4) // the shard of each loop a helper took
	for shard := range 2 {
		for range 2 {
			l := newDriven(t, s)
			submitFromShard(t, s, shard, l, func() { taken <- shard; <-release })
		}
	}
	var first [2]int
	for i := range 2 {
		go begins[i]()
		select {
		case first[i] = <-taken:
		case <-time.After(stallWaitLimit):
			t.Fatal("hang guard: a helper took nothing")
		}
	}
	if first[0] == first[1] {
		t.Errorf("two helpers took their first loop from shard %d, want different shards", first[0])
	}

	close(release)
	for _, begin := range begins[2:] {
		go begin()
	}
	waitFor(t, func() bool { st := s.Stats(); return st.Held == 0 && st.Helpers == 0 })
	ctx, cancel := context.WithTimeout(context.Background(), stallWaitLimit)
	defer cancel()
	if err := s.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	goleak.VerifyNone(t, before)
}

// submitFromShard submits fn to the idle loop l from a goroutine whose id
// puts l in global-queue shard shard.
func submitFromShard(t *testing.T, s *Scheduler, shard int, l *Loop, fn func()) {
	t.Helper()
	for {
		done := make(chan bool)
		go func() {
			if int(uint64(currentGoroutine())%uint64(len(s.global.shards))) != shard {
				done <- false
				return
			}
			if err := l.Submit(fn); err != nil {
				t.Error(err)
			}
			done <- true
		}()
		if <-done {
			return
		}
	}
}
