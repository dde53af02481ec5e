package sharded

import (
	"context"
	"fmt"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/persist"
	"github.com/troupe-go/troupe/sharding"
)

// Fence returns the fencing token of the sharded entity whose context c
// is: the revision of the lease its node holds on the entity's shard
// (sharding.Token). It fails, refusing the write, if the node no longer
// holds the lease, or if c is not a sharded entity's. Use it as
// persist.EventSourced.Fence.
func Fence(c *actor.Context, entity string) (uint64, error) {
	token, err := sharding.Token(c)
	if err != nil {
		return 0, fmt.Errorf("sharded: %s: %w", entity, err)
	}
	return token, nil
}

// Entity names a sharded entity's journal "kind/id", the same on every
// node whatever the node's actor tree: use it as
// persist.EventSourced.Entity.
func Entity(self actor.Ref) string { return self.Kind() + "/" + self.ID() }

// FenceError says which event of a journal carries a fencing token lower
// than an event before it: a write of a stale owner stored after a newer
// owner's.
type FenceError struct {
	Entity string
	Seq    uint64 // the event with the lower token
	Fence  uint64 // its token
	Prior  uint64 // the highest token before it
}

func (e *FenceError) Error() string {
	return fmt.Sprintf("sharded: %q: event %d was written with lease revision %d after an event written with revision %d",
		e.Entity, e.Seq, e.Fence, e.Prior)
}

// CheckFences reads entity's journal from j and returns a *FenceError
// for the first event whose fencing token is lower than an earlier
// event's. Events without a token (0) are not checked.
func CheckFences(ctx context.Context, j persist.Journal, entity string) error {
	var highest uint64
	_, err := j.Read(ctx, entity, persist.Cursor{}, func(e persist.Event) error {
		if e.Fence == 0 {
			return nil
		}
		if e.Fence < highest {
			return &FenceError{Entity: entity, Seq: e.Seq, Fence: e.Fence, Prior: highest}
		}
		highest = e.Fence
		return nil
	})
	return err
}
