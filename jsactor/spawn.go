package jsactor

import (
	"context"

	"github.com/troupe-go/troupe/actor"
)

// Factory returns an actor.Factory making JS actors that run s, for
// [actor.System.Spawn] and [actor.Context.Spawn]. Every instance (one per
// actor, and a fresh one at each restart) gets its own goja Runtime,
// created on the actor's loop; all share s's compiled program. The
// spawn does not wait for the script's start unless the caller passes
// actor.WithStartWait: without it, a top level or init that throws fails
// the actor under supervision, as with [SpawnChild].
func Factory(s *Script, opts ...Option) (actor.Factory, error) {
	f, _, err := prepare(s, opts)
	return f, err
}

func (cfg *config) factory(s *Script) actor.Factory {
	return func() actor.Actor { return &instance{cfg: cfg, script: s} }
}

// prepare checks s and opts and returns the factory of s's actors and the
// actor spawn options opts carry.
func prepare(s *Script, opts []Option) (actor.Factory, []actor.SpawnOption, error) {
	if s == nil {
		return nil, nil, ErrNilScript
	}
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, nil, err
	}
	return cfg.factory(s), cfg.spawnOpts, nil
}

// Spawn starts a top-level JS actor of the given kind and id running s,
// and waits for its start: the script's top level and its init
// ([WithArgs]) run on the actor's loop before Spawn returns. Errors that
// Spawn returns synchronously: those of the options and of the spawn
// itself (a name taken, a stopped system), and a top level or init that
// throws, or cannot run (interrupted by the watchdog, over the stack
// bound): the error then wraps [actor.ErrStartFailed] and [ErrScript]
// (with the script's [*Error]), and the actor is stopped, not restarted.
// A failure at a later start, after a restart, goes to supervision as
// any failure does. The wait is bounded by the watchdog's budget
// ([WithBudget]); with the watchdog off, a top level that never returns
// makes Spawn wait for ever.
func Spawn(sys *actor.System, kind, id string, s *Script, opts ...Option) (actor.Ref, error) {
	f, spawnOpts, err := prepare(s, opts)
	if err != nil {
		return actor.Ref{}, err
	}
	spawnOpts = append([]actor.SpawnOption{actor.WithStartWait(context.Background())}, spawnOpts...)
	return sys.Spawn(kind, id, f, spawnOpts...)
}

// SpawnChild starts a JS actor of the given kind and id running s as a
// child of the actor whose handler has c: supervised by it and stopped
// before it. Call it only on c's loop, as [actor.Context.Spawn].
//
// A handler cannot wait, so SpawnChild returns once the child is
// registered, before the script's top level runs; only the errors of the
// options and of the spawn itself are synchronous. A top level or init
// that throws fails the child like any other failure: its parent's
// supervision restarts it (or stops it past its restart limit), and
// watchers see the error wrapping [ErrScript] as the reason of its
// Terminated.
func SpawnChild(c *actor.Context, kind, id string, s *Script, opts ...Option) (actor.Ref, error) {
	f, spawnOpts, err := prepare(s, opts)
	if err != nil {
		return actor.Ref{}, err
	}
	return c.Spawn(kind, id, f, spawnOpts...)
}
