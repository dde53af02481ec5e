package e2e

import (
	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/loop"
)

// Auditor is a Go actor that asks a JavaScript Tally from its handlers,
// with the typed ref's Async methods.
//
//troupe:actor kind=auditor
type Auditor struct{}

// Doubled replies, later, with twice the Tally's count of key.
func (a *Auditor) Doubled(c *actor.Context, t TallyRef, key string) *loop.Promise[int] {
	return loop.Then(t.GetAsync(c, key), func(n int) (int, error) { return 2 * n, nil })
}

// Settled replies once the Tally has settled for ms milliseconds.
func (a *Auditor) Settled(c *actor.Context, t TallyRef, ms int) *loop.Promise[struct{}] {
	return t.SettleAsync(c, ms)
}

// Failing replies with the failure of the Tally's Fail.
func (a *Auditor) Failing(c *actor.Context, t TallyRef, msg string) *loop.Promise[struct{}] {
	return t.FailAsync(c, msg)
}

// Blocking tries the Tally's blocking ask from a handler, which fails.
func (a *Auditor) Blocking(c *actor.Context, t TallyRef) error {
	_, err := t.Get(c, "x")
	return err
}
