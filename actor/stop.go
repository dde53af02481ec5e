package actor

import (
	"errors"
	"fmt"

	"github.com/troupe-go/troupe/loop"
)

// Stop stops the actor named r now: the message it is handling, if any,
// is its last; its children stop first, then it; the messages still in its
// mailbox, and those sent to it from then on, go to dead letters with
// [ErrStopped] (their asks fail with it). The stop travels ahead of the
// mailbox, so a full mailbox does not delay it. Safe from any goroutine.
func (s *System) Stop(r Ref) {
	if r.system == s.name {
		if c := s.lookup(r); c != nil && c.l.OnLoop() && c.state < cellStopping {
			// The actor stops itself: the message being handled is its
			// last, also when it is one of several replayed in this turn
			// (from the stash, or kept during a restart).
			c.more().reason = errStopRequested
		}
	}
	s.deliverSystem(r, stopSignal{})
}

// errStopRequested marks an actor that stopped itself in the handler
// running now, until its stop signal, queued ahead of its mailbox, runs
// (and sets the real reason).
var errStopRequested = errors.New("actor: stop requested")

// stopRequested reports whether a handler of the actor stopped it in this
// turn: replays of the stash and of kept messages end there. On the loop.
func (c *cell) stopRequested() bool {
	return c.rare != nil && c.rare.reason == errStopRequested
}

// Poison stops the actor named r after the messages already in its
// mailbox, as [System.Stop] does once it has handled them. It is never
// refused by a full mailbox. It returns [ErrNotFound] for an actor that
// does not live, [ErrStopped] for one that has stopped, and
// [ErrSystemClosed] once the system is shut down (test with [errors.Is]).
// Safe from any goroutine.
func (s *System) Poison(r Ref) error {
	if s.harness != nil {
		return s.harness.fx.Poison(r)
	}
	c := s.lookup(r)
	if c == nil {
		return s.closedErr(r, fmt.Errorf("%w: %s", ErrNotFound, r))
	}
	if err := c.l.Post(loop.Mail{Msg: poisonSignal{}}, loop.OverflowAdmit); err != nil {
		if errors.Is(err, loop.ErrLoopClosed) {
			err = fmt.Errorf("%w: %s", ErrStopped, r)
		}
		return s.closedErr(r, err)
	}
	return nil
}
