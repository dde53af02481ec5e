package jsactor

import (
	"errors"

	"github.com/troupe-go/troupe/actor"
)

// Factory returns an actor.Factory making JS actors that run s, for
// [actor.System.Spawn] and [actor.Context.Spawn]. Every instance (one per
// actor, and a fresh one at each restart) gets its own goja Runtime,
// created on the actor's loop; all share s's compiled program.
func Factory(s *Script, opts ...Option) (actor.Factory, error) {
	if s == nil {
		return nil, errors.New("jsactor: nil script")
	}
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	return cfg.factory(s), nil
}

func (cfg *config) factory(s *Script) actor.Factory {
	return func() actor.Actor { return &instance{cfg: cfg, script: s} }
}

// Spawn starts a top-level JS actor of the given kind and id running s.
func Spawn(sys *actor.System, kind, id string, s *Script, opts ...Option) (actor.Ref, error) {
	if s == nil {
		return actor.Ref{}, errors.New("jsactor: nil script")
	}
	cfg, err := newConfig(opts)
	if err != nil {
		return actor.Ref{}, err
	}
	return sys.Spawn(kind, id, cfg.factory(s), cfg.spawnOpts...)
}

// SpawnChild starts a JS actor of the given kind and id running s as a
// child of the actor whose handler has c: supervised by it and stopped
// before it. Call it only on c's loop, as [actor.Context.Spawn].
func SpawnChild(c *actor.Context, kind, id string, s *Script, opts ...Option) (actor.Ref, error) {
	if s == nil {
		return actor.Ref{}, errors.New("jsactor: nil script")
	}
	cfg, err := newConfig(opts)
	if err != nil {
		return actor.Ref{}, err
	}
	return c.Spawn(kind, id, cfg.factory(s), cfg.spawnOpts...)
}
