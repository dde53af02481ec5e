package actortest

import (
	"context"

	"github.com/troupe-go/troupe/actor"
)

// Ask asks the actor to with msg from the test's goroutine, as
// [actor.Ask], and returns the reply, failing the test on an error.
func Ask[R any](s *System, to actor.Ref, msg any) R {
	s.t.Helper()
	r, err := actor.Ask[R](context.Background(), s.System, to, msg)
	if err != nil {
		s.t.Fatalf("actortest: ask %v %s: %v", to, describe(msg), err)
	}
	return r
}
