package actor

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/troupe-go/troupe/loop"
)

// SpawnOption configures an actor at spawn.
type SpawnOption func(*spawnConfig) error

type spawnConfig struct {
	maxRestarts   int
	window        time.Duration
	mailboxCap    int
	mailboxPolicy MailboxPolicy
	childStrategy Strategy
	backoffMin    time.Duration
	backoffMax    time.Duration
	stashBound    int
	startWait     context.Context // WithStartWait; cleared before the cell keeps the config
	sys           *System         // the system the actors belong to: cells reach it here
}

// WithRestartLimit sets the restart intensity: more than max restarts
// within window stop the actor instead (default 10 within a minute).
func WithRestartLimit(max int, window time.Duration) SpawnOption {
	return func(c *spawnConfig) error {
		if max < 0 || window <= 0 {
			return errors.New("actor: WithRestartLimit needs max >= 0 and a positive window")
		}
		c.maxRestarts, c.window = max, window
		return nil
	}
}

// WithStartWait makes spawn wait, under ctx, for the actor's start: its
// Started hook, if it has one. If the hook panics or calls
// [Context.Fail], spawn returns an error wrapping [ErrStartFailed] and
// the failure (a panic as a [*loop.PanicError]), and the actor stops
// instead of restarting; if ctx ends first, spawn stops the actor and
// returns an error wrapping ctx.Err(). Either way the name is freed once
// the actor has stopped. Without this option spawn returns as soon as the
// actor is registered, and a failing start is supervised like any other
// failure. A handler must not wait: [Context.Spawn] with this option
// returns [ErrWouldBlock]. It is not a system default
// ([WithSpawnDefaults] refuses it).
func WithStartWait(ctx context.Context) SpawnOption {
	return func(c *spawnConfig) error {
		if ctx == nil {
			return errors.New("actor: WithStartWait(nil)")
		}
		c.startWait = ctx
		return nil
	}
}

// defaultSpawnConfig is where a system's configuration of actors starts:
// each system keeps its own copy, naming itself (sys), and the actors it
// spawns without options share that copy rather than each carrying one.
var defaultSpawnConfig = spawnConfig{maxRestarts: 10, window: time.Minute}

// withOptions returns base with opts applied, as a copy; base itself, shared,
// when there are none.
func withOptions(base *spawnConfig, opts []SpawnOption) (*spawnConfig, error) {
	if len(opts) == 0 {
		return base, nil
	}
	own := *base
	for _, opt := range opts {
		if err := opt(&own); err != nil {
			return nil, err
		}
	}
	return &own, nil
}

func (s *System) spawn(parent *cell, kind, id string, f Factory, opts []SpawnOption) (Ref, error) {
	_, self, err := s.spawnCell(parent, kind, id, f, opts)
	return self, err
}

// spawnCell spawns the actor and returns its cell and ref.
func (s *System) spawnCell(parent *cell, kind, id string, f Factory, opts []SpawnOption) (*cell, Ref, error) {
	if kind == "" || id == "" {
		return nil, Ref{}, errors.New("actor: spawn needs a kind and an id")
	}
	if f == nil {
		return nil, Ref{}, errors.New("actor: spawn with a nil factory")
	}
	if s.closed.Load() {
		return nil, Ref{}, ErrSystemClosed
	}
	cfg, err := withOptions(s.spawnBase, opts)
	if err != nil {
		return nil, Ref{}, err
	}
	wait, err := takeStartWait(cfg)
	if err != nil {
		return nil, Ref{}, err
	}
	self := s.nameOf(parent, kind, id)
	if parent.reserved(self) {
		return nil, Ref{}, fmt.Errorf("%w: %s", ErrNameTaken, self)
	}
	c, err := newCell(s, parent, self, f, cfg)
	if err != nil {
		if s.closed.Load() {
			return nil, Ref{}, ErrSystemClosed
		}
		return nil, Ref{}, err
	}
	// The first instance is made here: an actor with no Started hook and
	// no one to tell of its start is running at once, with nothing queued
	// on its loop. Any other starts on its loop, and messages that arrive
	// before that wait for it.
	if c.actor, err = c.newInstance(); err != nil {
		_ = c.l.Close()
		return nil, Ref{}, err
	}
	_, hooked := c.actor.(StartedHook)
	deferred := hooked || s.bus.subs.Load() > 0
	if !deferred {
		c.state = cellRunning
	}
	var started chan error
	if wait != nil && hooked {
		started = make(chan error, 1)
		c.more().startDone = func(err error) { started <- err }
	}
	if err := s.register(c, self); err != nil {
		_ = c.l.Close()
		return nil, Ref{}, err
	}
	if deferred {
		if err := c.l.Submit(c.start); err != nil {
			s.unregister(c)
			_ = c.l.Close()
			return nil, Ref{}, fmt.Errorf("actor: spawn %s: %w", self, err)
		}
	}
	// Only a child that will start joins its parent, which waits for its
	// children to stop before it stops.
	if parent != nil {
		r := parent.more()
		if r.children == nil {
			r.children = map[Ref]*cell{}
		}
		r.children[self] = c
	}
	if started != nil {
		if _, err := s.awaitStart(wait, self, started); err != nil {
			return nil, Ref{}, err
		}
	}
	return c, self, nil
}

// reserved reports whether a child of c holds the name ref: a live one,
// or one that has stopped and left the registry but whose stop c has not
// yet counted (childStopped). As in Akka, a child's name stays taken until
// its parent has handled its end, so a spawn of that name is refused until
// then, never half supervised: a child spawned in that gap used to be
// dropped from its parent's children by the old child's late stop notice,
// and then outlived its parent. A nil c (the system) reserves nothing: the
// registry alone holds top-level names. On c's loop.
func (c *cell) reserved(ref Ref) bool {
	if c == nil {
		return false
	}
	_, held := c.kids()[ref]
	return held
}

// takeStartWait returns the ctx of WithStartWait, if cfg has one, and
// clears it: cfg is then this spawn's own copy (options were given), and
// the cell keeps no ctx. A handler must not wait.
func takeStartWait(cfg *spawnConfig) (context.Context, error) {
	wait := cfg.startWait
	if wait == nil {
		return nil, nil
	}
	if loop.OnLoopGoroutine() {
		return nil, fmt.Errorf("%w: WithStartWait in a handler", ErrWouldBlock)
	}
	cfg.startWait = nil
	return wait, nil
}

// nameOf returns the ref of the actor kind/id spawned by parent (nil: a
// top-level actor). Names nest: a child's is unique among its siblings.
func (s *System) nameOf(parent *cell, kind, id string) Ref {
	if parent == nil {
		return NewRef(s.name, kind, id)
	}
	return parent.self().Child(kind, id)
}

// awaitStart waits for the outcome of ref's start, reported on started,
// under ctx; see WithStartWait.
func (s *System) awaitStart(ctx context.Context, ref Ref, started <-chan error) (Ref, error) {
	select {
	case err := <-started:
		if err != nil {
			return Ref{}, err
		}
		return ref, nil
	case <-ctx.Done():
		s.Stop(ref)
		return Ref{}, fmt.Errorf("actor: spawn %s: start not over: %w", ref, ctx.Err())
	}
}
