package jsactor

import "github.com/troupe-go/troupe/actor"

// Factory returns an actor.Factory making JS actors that run s, for
// [actor.System.Spawn] and [actor.Context.Spawn]. Every instance (one per
// actor, and a fresh one at each restart) gets its own goja Runtime,
// created on the actor's loop; all share s's compiled program.
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

// Spawn starts a top-level JS actor of the given kind and id running s.
func Spawn(sys *actor.System, kind, id string, s *Script, opts ...Option) (actor.Ref, error) {
	f, spawnOpts, err := prepare(s, opts)
	if err != nil {
		return actor.Ref{}, err
	}
	return sys.Spawn(kind, id, f, spawnOpts...)
}

// SpawnChild starts a JS actor of the given kind and id running s as a
// child of the actor whose handler has c: supervised by it and stopped
// before it. Call it only on c's loop, as [actor.Context.Spawn].
func SpawnChild(c *actor.Context, kind, id string, s *Script, opts ...Option) (actor.Ref, error) {
	f, spawnOpts, err := prepare(s, opts)
	if err != nil {
		return actor.Ref{}, err
	}
	return c.Spawn(kind, id, f, spawnOpts...)
}
