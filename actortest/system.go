package actortest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/internal/actorhook"
	"github.com/troupe-go/troupe/loop"
)

// System is an [actor.System] for one test, on a virtual clock whose time
// moves only through [System.Advance]. Its methods that wait (Advance,
// Settle, the probes' expectations) run on the test's goroutine.
type System struct {
	*actor.System
	t     testing.TB
	clock *loop.VirtualClock
	sched *loop.Scheduler
	cfg   config

	mu       sync.Mutex
	dead     []actor.DeadLetter
	failures []actor.Event
	failLogs []string // failures logged, whose restart or stop may not have come yet
	closing  bool
	probes   int

	deadArrived chan struct{} // signalled at each dead letter recorded
}

// Option configures a test [System].
type Option func(*config)

type config struct {
	name         string
	actorOpts    []actor.Option
	allowDead    bool
	allowFail    bool
	leakCheck    bool
	maxSteps     int
	settleWithin time.Duration
	outsideWait  time.Duration
}

// WithName names the system (default "test").
func WithName(name string) Option { return func(c *config) { c.name = name } }

// WithActorOptions passes options to [actor.NewSystem]. A WithLogger given
// here replaces the kit's logger (to t.Log), and with it the kit's view of
// failures still waiting for their restart (in a restart backoff): only
// restarts and stops then fail the test. A WithClock is overridden, as the
// kit's time is its virtual clock.
func WithActorOptions(opts ...actor.Option) Option {
	return func(c *config) { c.actorOpts = append(c.actorOpts, opts...) }
}

// AllowDeadLetters stops dead letters from failing the test; see
// [System.TakeDeadLetters] to assert on them instead.
func AllowDeadLetters() Option { return func(c *config) { c.allowDead = true } }

// AllowFailures stops actor failures (restarts, stops past the restart
// limit, failures waiting for their restart) from failing the test; a
// child stopped because its parent stopped or restarted is no failure of
// its own; see [System.TakeFailures] to assert on them instead.
func AllowFailures() Option { return func(c *config) { c.allowFail = true } }

// WithoutLeakCheck skips the goroutine leak check at cleanup, for tests
// run with t.Parallel (whose neighbours' goroutines would count as leaks):
// check leaks in TestMain with goleak instead.
func WithoutLeakCheck() Option { return func(c *config) { c.leakCheck = false } }

// WithSettleLimit bounds settling: Advance fails the test after more than
// steps clock deadlines in one call (a runaway timer chain), and any settle
// fails it when the loops are still busy after within of real time (a loop
// that never goes idle). Defaults: 100,000 steps, 10 s.
func WithSettleLimit(steps int, within time.Duration) Option {
	return func(c *config) { c.maxSteps, c.settleWithin = steps, within }
}

// WithOutsideWait makes probes wait up to d of real time for a message
// that has not arrived once the system settled: for messages that come
// from outside the system's loops (another node, a goroutine started by
// loop.Go). The default, 0, fails at once: inside one system, a message
// that has not arrived when every loop is idle never will.
func WithOutsideWait(d time.Duration) Option { return func(c *config) { c.outsideWait = d } }

// NewSystem starts an actor system for the test t on a virtual clock at
// time 0, logging to t.Log. At t's cleanup it reports dead letters and
// actor failures the test did not take or allow, shuts the system down and
// checks that no goroutine leaked.
func NewSystem(t testing.TB, opts ...Option) *System {
	t.Helper()
	cfg := config{name: "test", leakCheck: true, maxSteps: 100_000, settleWithin: 10 * time.Second}
	for _, o := range opts {
		o(&cfg)
	}
	var leakOpts []goleak.Option
	if cfg.leakCheck {
		leakOpts = append(leakOpts, goleak.IgnoreCurrent())
	}
	vc := loop.NewVirtualClock()
	s := &System{t: t, clock: vc, cfg: cfg, deadArrived: make(chan struct{}, 1)}
	log := zaptest.NewLogger(t, zaptest.Level(zap.DebugLevel)).WithOptions(
		zap.WrapCore(func(c zapcore.Core) zapcore.Core { return failCore{Core: c, s: s} }))
	aopts := []actor.Option{actor.WithLogger(log)}
	aopts = append(aopts, cfg.actorOpts...)
	aopts = append(aopts, actor.WithClock(vc)) // the kit's time, whatever else was asked
	sys, err := actor.NewSystem(cfg.name, aopts...)
	if err != nil {
		t.Fatalf("actortest: %v", err)
	}
	s.System, s.sched = sys, actorhook.Scheduler(sys)
	sys.SubscribeDeadLetters(s.recordDead)
	sys.SubscribeEvents(s.recordEvent)
	t.Cleanup(func() {
		t.Helper() // failures at cleanup point at the call of NewSystem
		s.cleanup(leakOpts)
	})
	return s
}

// Clock returns the system's virtual clock. Move it with
// [System.Advance], not its own Advance, so that time settles.
func (s *System) Clock() *loop.VirtualClock { return s.clock }

// Now returns the virtual time since the system started.
func (s *System) Now() time.Duration { return time.Duration(s.clock.Now()) }

// Advance moves virtual time forward by d, one timer deadline at a time:
// at each deadline it fires the timers due then and waits until every loop
// they woke has run to idle, so when it returns every timer due by the new
// time has fired and everything it caused has happened. A fixed-rate timer
// of 100ms has ticked 3 times after Advance(350ms), every time.
func (s *System) Advance(d time.Duration) {
	s.t.Helper()
	if err := s.advance(d); err != nil {
		s.t.Fatalf("actortest: Advance(%v): %v", d, err)
	}
}

// Settle runs the system until idle without moving time: every loop has
// run what it can, timers already due included. It fails the test if the
// system does not settle (see [WithSettleLimit]).
func (s *System) Settle() {
	s.t.Helper()
	if err := s.settle(); err != nil {
		s.t.Fatalf("actortest: Settle: %v", err)
	}
}

var errNoSettle = errors.New("the system did not settle")

func (s *System) advance(d time.Duration) error {
	target := s.clock.Now() + max(int64(d), 0)
	if err := s.settle(); err != nil {
		return err
	}
	for steps := 0; ; steps++ {
		at, ok := s.clock.Next()
		if !ok || at > target {
			break
		}
		if steps >= s.cfg.maxSteps {
			return fmt.Errorf("%w: more than %d timer deadlines by %v (a runaway timer chain?); now %v",
				errNoSettle, s.cfg.maxSteps, time.Duration(target), s.Now())
		}
		s.clock.AdvanceTo(at)
		if err := s.settle(); err != nil {
			return err
		}
	}
	s.clock.AdvanceTo(target)
	return s.settle()
}

// settle waits for the loops to go idle, firing clock timers that fall
// due meanwhile (armed for a time already reached), until none is left.
func (s *System) settle() error {
	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.settleWithin)
	defer cancel()
	for steps := 0; ; steps++ {
		if err := s.sched.WaitIdle(ctx); err != nil {
			return fmt.Errorf("%w: loops still busy after %v of real time (a loop that never goes idle?): %v",
				errNoSettle, s.cfg.settleWithin, err)
		}
		if !s.clock.Due() {
			return nil
		}
		if steps >= s.cfg.maxSteps {
			return fmt.Errorf("%w: more than %d rounds of timers due at %v (a runaway timer chain?)",
				errNoSettle, s.cfg.maxSteps, s.Now())
		}
		s.clock.Advance(0)
	}
}
