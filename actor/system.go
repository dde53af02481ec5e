package actor

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"github.com/troupe-go/troupe/loop"
)

// System is a set of actors that share a scheduler (workers, clock, idle
// timer and fd infrastructure), a registry of names, a logger and dead
// letters. Its methods are safe from any goroutine.
type System struct {
	name       string
	log        *zap.Logger
	sched      *loop.Scheduler
	askTimeout time.Duration
	spawnBase  *spawnConfig // what actors start from before their own options

	reg       *registry
	closed    atomic.Bool // set by Shutdown; spawns check it under a registry lock
	live      liveCount   // one per cell not yet terminated
	abandoned atomic.Bool // a Shutdown's context ended before every actor stopped

	bus         bus
	deadLetters atomic.Uint64
	obs         observer                     // introspection's counters; see introspect_side.go
	transport   atomic.Pointer[transportBox] // see attach
	tracer      atomic.Pointer[tracerBox]    // set by observe.EnableTracing; see trace.go

	harness *harnessSends // the System of a test harness's actor; see testhook.go
}

// Option configures a [System] at [NewSystem].
type Option func(*config) error

type config struct {
	log        *zap.Logger
	workers    int
	clock      loop.Clock
	askTimeout time.Duration
	spawn      []SpawnOption
	dead       func(DeadLetter)
	stall      *time.Duration // see WithStallBudget
}

// WithSpawnDefaults sets options every actor of the system starts from;
// the options given to its own spawn apply after them.
func WithSpawnDefaults(opts ...SpawnOption) Option {
	return func(c *config) error {
		c.spawn = append(c.spawn, opts...)
		return nil
	}
}

// WithDefaultMailbox bounds every actor's mailbox unless its spawn says
// otherwise (default: unbounded); see [WithMailbox].
func WithDefaultMailbox(capacity int, policy MailboxPolicy) Option {
	return WithSpawnDefaults(WithMailbox(capacity, policy))
}

// WithDeadLetterHandler calls fn for every dead letter of the system, as
// a subscription made at its start that is never cancelled (see
// [System.SubscribeDeadLetters]); fn must not block.
func WithDeadLetterHandler(fn func(DeadLetter)) Option {
	return func(c *config) error {
		if fn == nil {
			return errors.New("actor: WithDeadLetterHandler(nil)")
		}
		c.dead = fn
		return nil
	}
}

// WithLogger sets the system's logger. Actor loggers derive from it,
// carrying the actor's kind and id. The default writes warnings and
// errors (failures, restarts given up, handler errors of tells) to
// stderr, one line each, and also, from Info, the lines of loggers named
// "console" (zap's Logger.Named; JavaScript actors' console output);
// WithLogger(zap.NewNop()) silences the system.
func WithLogger(l *zap.Logger) Option {
	return func(c *config) error {
		if l == nil {
			return errors.New("actor: WithLogger(nil)")
		}
		c.log = l
		return nil
	}
}

// WithWorkers sets the number of scheduler workers (default GOMAXPROCS).
func WithWorkers(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return errors.New("actor: WithWorkers needs at least one worker")
		}
		c.workers = n
		return nil
	}
}

// WithClock sets the clock of every actor's loop (default the real clock);
// tests use a [loop.VirtualClock].
func WithClock(clk loop.Clock) Option {
	return func(c *config) error {
		if clk == nil {
			return errors.New("actor: WithClock(nil)")
		}
		c.clock = clk
		return nil
	}
}

// WithAskTimeout sets the deadline of asks made without one (default 5 s).
func WithAskTimeout(d time.Duration) Option {
	return func(c *config) error {
		if d <= 0 {
			return errors.New("actor: WithAskTimeout needs a positive duration")
		}
		c.askTimeout = d
		return nil
	}
}

// NewSystem starts an actor system named name.
func NewSystem(name string, opts ...Option) (*System, error) {
	if name == "" {
		return nil, errors.New("actor: empty system name")
	}
	cfg := config{askTimeout: 5 * time.Second}
	for _, opt := range opts {
		if err := opt(&cfg); err != nil {
			return nil, err
		}
	}
	var sopts []loop.SchedulerOption
	if cfg.workers > 0 {
		sopts = append(sopts, loop.WithWorkers(cfg.workers))
	}
	if cfg.clock != nil {
		sopts = append(sopts, loop.WithSchedulerClock(cfg.clock))
	}
	if cfg.stall != nil {
		sopts = append(sopts, loop.WithStallBudget(*cfg.stall))
	}
	if cfg.log == nil {
		cfg.log = defaultLogger()
	}
	base, err := withOptions(&defaultSpawnConfig, cfg.spawn)
	if err != nil {
		return nil, err
	}
	if base.startWait != nil {
		return nil, errors.New("actor: WithStartWait is an option of one spawn, not a default")
	}
	sched, err := loop.NewScheduler(sopts...)
	if err != nil {
		return nil, err
	}
	if base == &defaultSpawnConfig {
		own := *base
		base = &own
	}
	s := &System{
		name:       name,
		log:        cfg.log.With(zap.String("system", name)),
		sched:      sched,
		askTimeout: cfg.askTimeout,
		spawnBase:  base,
		reg:        newRegistry(),
	}
	base.sys = s
	if cfg.dead != nil {
		s.SubscribeDeadLetters(cfg.dead)
	}
	return s, nil
}

// Name returns the system's name.
func (s *System) Name() string {
	if s.harness != nil {
		return s.harness.name
	}
	return s.name
}

// Logger returns the system's logger.
func (s *System) Logger() *zap.Logger { return s.log }

// DeadLetters returns how many messages went to dead letters so far.
func (s *System) DeadLetters() uint64 { return s.deadLetters.Load() }

// Spawn starts a top-level actor of the given kind and id, made by f. Spawn
// calls f once, on its caller's goroutine, and the actor's loop calls it
// again for a fresh instance whenever the actor restarts.
//
// These errors are synchronous, returned by Spawn itself: bad arguments
// or options, a factory that panics or returns nil, [ErrNameTaken] (a
// top-level actor of that kind and id lives), [ErrSystemClosed]. The
// Started hook runs later, on the actor's loop, and its failure is
// supervised like any other; spawn [WithStartWait] to wait for it and
// get its error instead.
func (s *System) Spawn(kind, id string, f Factory, opts ...SpawnOption) (Ref, error) {
	return s.spawn(nil, kind, id, f, opts)
}

// Shutdown stops every actor, children before their parents; messages not
// yet handled go to dead letters and every pending ask settles. It returns
// when all actors have stopped and the scheduler is down.
//
// If ctx ends first, Shutdown returns by then a *[ShutdownError] naming the
// actors that had not stopped (stuck in a handler that does not return, or
// waiting for one), and lets every goroutine of the system go except those
// held by such handlers: a stuck actor finishes its stop when its handler
// returns; the actors waiting for it are abandoned. A later Shutdown waits
// for the stuck handlers to return.
//
// From a handler, which cannot wait for its own actor to stop, Shutdown
// starts the shutdown, which then completes on its own, and returns
// [ErrWouldBlock] at once; a Shutdown from outside waits for it.
func (s *System) Shutdown(ctx context.Context) error {
	if s.abandoned.Load() {
		return s.stuckActors(s.sched.Shutdown(ctx))
	}
	// A spawn racing with this either registered its cell before each
	// walks that cell's shard, or sees closed under the shard's lock.
	s.closed.Store(true)
	var top []*cell
	s.reg.each(func(c *cell) {
		if c.parent == nil {
			top = append(top, c)
		}
	})
	for _, c := range top {
		c.sendSystem(stopSignal{reason: ErrSystemClosed})
	}
	if loop.OnLoopGoroutine() {
		go s.finishShutdown()
		return fmt.Errorf("%w: Shutdown from a handler", ErrWouldBlock)
	}
	if err := s.live.wait(ctx); err != nil {
		return s.abandon(ctx)
	}
	return s.stuckActors(s.sched.Shutdown(ctx))
}

func (s *System) lookup(r Ref) *cell {
	if r.system != s.name {
		return nil
	}
	return s.reg.get(r.h, r.path)
}

func (s *System) register(c *cell, self Ref) error {
	added, taken := s.reg.add(c, self.h, s.admit)
	switch {
	case taken != nil:
		return fmt.Errorf("%w: %s", ErrNameTaken, self)
	case !added:
		return ErrSystemClosed
	}
	s.obs.registered(c)
	return nil
}

// admit counts a new cell in, unless the system is closed. It runs under a
// registry shard's lock, which Shutdown takes after setting closed, so
// every Add happens before Shutdown's Wait.
func (s *System) admit() bool {
	if s.closed.Load() {
		return false
	}
	s.live.Add(1)
	return true
}

func (s *System) unregister(c *cell) {
	s.reg.remove(c)
	s.obs.unregistered(c)
	s.live.Done()
}
