// Package bad is a golden test input: handlers of runtime messages with
// the wrong shape.
package bad

import "github.com/troupe-go/troupe/actor"

// Bad has broken handlers of runtime messages.
//
//troupe:actor
type Bad struct{}

func (*Bad) ByPointer(c *actor.Context, t *actor.Terminated)             {}
func (*Bad) WithExtra(c *actor.Context, t actor.Terminated, n int)       {}
func (*Bad) Asked(c *actor.Context, t actor.Terminated) error            { return nil }
func (*Bad) Variadic(c *actor.Context, ts ...actor.ReceiveTimeout)       {}
func (*Bad) Timeout(c *actor.Context, _ actor.ReceiveTimeout)            {}
func (*Bad) TimeoutAgain(c *actor.Context, _ actor.ReceiveTimeout)       {}
func (*Bad) Reply(c *actor.Context, _ actor.ReceiveTimeout) (int, error) { return 0, nil }
