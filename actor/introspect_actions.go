package actor

import (
	"errors"
	"fmt"
)

// ErrRestartRequested is the reason of a restart made with
// [System.Restart].
var ErrRestartRequested = errors.New("actor: restart requested")

// Restart makes the actor r restart as if it had failed with
// [ErrRestartRequested]: its children stop, a fresh instance replaces it,
// and the restart counts toward its limit. It is meant for operators (the
// observer's actions), not for application logic. It returns
// [ErrNotFound] for an actor that does not live, and [ErrSystemClosed]
// once the system is shut down. Safe from any goroutine.
func (s *System) Restart(r Ref) error {
	c := s.lookup(r)
	if c == nil {
		return s.closedErr(r, fmt.Errorf("%w: %s", ErrNotFound, r))
	}
	if c.sendSystem(restartSignal{err: ErrRestartRequested}) != nil {
		return s.closedErr(r, fmt.Errorf("%w: %s", ErrStopped, r))
	}
	return nil
}
