package actor

import "github.com/troupe-go/troupe/loop"

// Handle is a direct handle on one top-level actor of this process, from
// [System.SpawnHandle]: a pointer in size where a [Ref] is five words,
// and a tell through it reaches the actor without looking its name up.
// It is for code that keeps many actors in tables of its own (package
// sharding keeps one per active entity); everyone else uses refs.
//
// A handle names the one incarnation it was spawned as: once that has
// stopped, [Handle.Tell] fails with [ErrStopped], even if another actor
// has taken its name since (a tell to its [Handle.Ref] reaches that one).
// It keeps the stopped actor's memory alive while it is kept. The zero
// Handle names no actor and must not be used. Safe to copy and share
// between goroutines.
type Handle struct{ c *cell }

// SpawnHandle is [System.Spawn], returning a handle on the actor instead
// of its ref.
func (s *System) SpawnHandle(kind, id string, f Factory, opts ...SpawnOption) (Handle, error) {
	c, _, err := s.spawnCell(nil, kind, id, f, opts)
	if err != nil {
		return Handle{}, err
	}
	return Handle{c}, nil
}

// Ref returns the actor's ref.
func (h Handle) Ref() Ref { return h.c.self() }

// Path returns the actor's path, as its ref's [Ref.Path] does, without
// making the ref.
func (h Handle) Path() string { return h.c.path }

// Tell sends msg to the actor, as [System.Tell] does to its ref while it
// is the actor of that name: at most once, in order from one sender, a
// failure a dead letter with its reason ([ErrStopped], [ErrMailboxFull],
// [ErrSystemClosed]). Safe from any goroutine.
func (h Handle) Tell(msg any) error {
	s := h.c.system()
	ctx := s.tellCtx()
	err := h.c.post(ctx, false, 0, loop.Mail{Msg: s.wrapped(ctx, msg)})
	if err == nil {
		return nil
	}
	to := h.Ref()
	err = s.closedErr(to, err)
	s.deadLetter(to, msg, err)
	return err
}
