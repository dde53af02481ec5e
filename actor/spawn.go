package actor

import (
	"errors"
	"fmt"
	"time"
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

// defaultSpawnConfig is the configuration of actors spawned without
// options; they share it rather than each carrying a copy.
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
	if kind == "" || id == "" {
		return Ref{}, errors.New("actor: spawn needs a kind and an id")
	}
	if f == nil {
		return Ref{}, errors.New("actor: spawn with a nil factory")
	}
	cfg, err := withOptions(s.spawnBase, opts)
	if err != nil {
		return Ref{}, err
	}
	ref := NewRef(s.name, kind, id)
	if parent != nil {
		ref = parent.self().Child(kind, id) // names nest: unique among siblings
	}
	c, err := newCell(s, parent, ref, f, cfg)
	if err != nil {
		return Ref{}, err
	}
	// The first instance is made here: an actor with no Started hook and
	// no one to tell of its start is running at once, with nothing queued
	// on its loop. Any other starts on its loop, and messages that arrive
	// before that wait for it.
	if c.actor, err = c.newInstance(); err != nil {
		_ = c.l.Close()
		return Ref{}, err
	}
	_, hooked := c.actor.(StartedHook)
	deferred := hooked || s.bus.subs.Load() > 0
	if !deferred {
		c.state = cellRunning
	}
	if err := s.register(c); err != nil {
		_ = c.l.Close()
		return Ref{}, err
	}
	if parent != nil {
		if parent.children == nil {
			parent.children = map[Ref]*cell{}
		}
		parent.children[c.self()] = c
	}
	if deferred {
		if err := c.l.Submit(c.start); err != nil {
			s.unregister(c)
			return Ref{}, fmt.Errorf("actor: spawn %s: %w", c.self(), err)
		}
	}
	return c.self(), nil
}
