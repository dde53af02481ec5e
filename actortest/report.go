package actortest

import (
	"context"
	"fmt"
	"strings"
	"time"

	"go.uber.org/goleak"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/internal/actorhook"
)

func (s *System) recordDead(d actor.DeadLetter) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing {
		return
	}
	s.dead = append(s.dead, d) // kept when allowed too, for ExpectDeadLetter
	select {
	case s.deadArrived <- struct{}{}:
	default:
	}
}

func (s *System) recordEvent(e actor.Event) {
	failed := e.Kind == actor.Restarted ||
		(e.Kind == actor.Stopped && e.Reason != nil && !actorhook.OrderlyStop(e.Reason))
	if !failed {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closing && !s.cfg.allowFail {
		s.failures = append(s.failures, e)
	}
}

// recordFailureLog keeps a failure the runtime logged (see failCore).
func (s *System) recordFailureLog(line string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closing && !s.cfg.allowFail {
		s.failLogs = append(s.failLogs, line)
	}
}

// TakeDeadLetters returns the dead letters recorded since the last call
// and forgets them, so they do not fail the test: a test that expects dead
// letters takes them and asserts on them.
func (s *System) TakeDeadLetters() []actor.DeadLetter {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.dead
	s.dead = nil
	return d
}

// ExpectDeadLetter takes the oldest dead letter not taken yet, failing
// the test if there is none. Like a probe's expectations it settles the
// system first and then, with [WithOutsideWait], waits up to that long in
// real time for one from outside the system's loops: a message another
// node reports undeliverable.
func (s *System) ExpectDeadLetter() actor.DeadLetter {
	s.t.Helper()
	s.Settle()
	deadline := time.NewTimer(s.cfg.outsideWait)
	defer deadline.Stop()
	for {
		if d, ok := s.popDead(); ok {
			return d
		}
		if s.cfg.outsideWait <= 0 {
			break
		}
		select {
		case <-s.deadArrived:
			s.Settle()
			continue
		case <-deadline.C:
		}
		break
	}
	s.t.Fatalf("actortest: system %s: want a dead letter, got none (system idle at %v)", s.Name(), s.Now())
	return actor.DeadLetter{}
}

func (s *System) popDead() (actor.DeadLetter, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.dead) == 0 {
		return actor.DeadLetter{}, false
	}
	d := s.dead[0]
	s.dead = s.dead[1:]
	return d, true
}

// TakeFailures returns the actor failures (restarts, and stops past the
// restart limit) recorded since the last call and forgets them, so they do not
// fail the test. It also forgets the failures logged so far whose restart
// has not come yet (an actor in restart backoff): those fail the test at
// its end, as the failures the kit's logger saw, unless taken.
func (s *System) TakeFailures() []actor.Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.failures
	s.failures, s.failLogs = nil, nil
	return f
}

// report fails the test (without stopping it) for dead letters and
// failures not taken by the end of the test.
//
// It runs at cleanup, where the test has no line of its own: marked a
// helper, as cleanup and NewSystem's closure are, its failures point at
// the test's call of NewSystem, which made the system.
func (s *System) report() {
	s.t.Helper()
	s.mu.Lock()
	logged := s.failLogs
	s.mu.Unlock()
	d, f := s.TakeDeadLetters(), s.TakeFailures()
	if s.cfg.allowDead {
		d = nil
	}
	if len(f) > 0 {
		logged = nil // the events say it
	}
	for _, line := range logged {
		s.t.Errorf("actortest: system %s: unexpected actor failure: %s\n\t%s", s.Name(), line, allowFailures)
	}
	for _, x := range d {
		s.t.Errorf("actortest: system %s: unexpected dead letter to %v: %T %+v: %v\n\t%s", s.Name(), x.To, x.Message, x.Message, x.Reason, allowDeadLetters)
	}
	for _, e := range f {
		s.t.Errorf("actortest: system %s: unexpected actor failure: %v %v: %v\n\t%s", s.Name(), e.Actor, e.Kind, e.Reason, allowFailures)
	}
}

// What a failure of the report says to do about it.
const (
	allowDeadLetters = "(expected? take it with s.ExpectDeadLetter() or s.TakeDeadLetters() before the test ends, " +
		"or allow every dead letter with actortest.NewSystem(t, actortest.AllowDeadLetters()))"
	allowFailures = "(expected? take it with s.TakeFailures() before the test ends, " +
		"or allow every failure with actortest.NewSystem(t, actortest.AllowFailures()))"
)

// shutdownWithin bounds the shutdown at cleanup, in real time: a hang
// guard, never a timing assertion.
const shutdownWithin = 30 * time.Second

func (s *System) cleanup(leakOpts []goleak.Option) {
	s.t.Helper()
	if err := s.settleQuietly(); err != nil {
		s.t.Errorf("actortest: at cleanup: %v", err)
	}
	s.report()
	s.mu.Lock()
	s.closing = true
	s.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), max(s.cfg.settleWithin, shutdownWithin))
	defer cancel()
	if err := s.Shutdown(ctx); err != nil {
		s.t.Errorf("actortest: shutdown: %v", err)
		return
	}
	if leakOpts != nil {
		if err := goleak.Find(leakOpts...); err != nil {
			s.t.Errorf("actortest: %s", strings.ReplaceAll(err.Error(), "\n", "\n\t"))
		}
	}
}

// settleQuietly settles with a short bound: at cleanup a busy system is
// reported, not waited for.
func (s *System) settleQuietly() error {
	within := s.cfg.settleWithin
	s.cfg.settleWithin = min(within, time.Second)
	defer func() { s.cfg.settleWithin = within }()
	if err := s.settle(); err != nil {
		return fmt.Errorf("never settled: %w", err)
	}
	return nil
}
