package sharded_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/troupe-go/troupe/persist"
	"github.com/troupe-go/troupe/persist/sharded"
)

// Check after the fact that no stale owner's write got in after a newer
// owner's: the lease revisions recorded with the events never decrease.
func ExampleCheckFences() {
	ctx := context.Background()
	store := persist.NewMemoryStore()
	ev := func(seq, fence uint64) persist.Event {
		return persist.Event{Seq: seq, Fence: fence, Payload: persist.Payload{Type: "x", Version: 1, Data: []byte{1}}}
	}
	// Owner with lease revision 7, then the owner after a move, revision
	// 12, then a write carrying 7 again (a store that does not fence).
	store.Append(ctx, "acct/a1", persist.Cursor{}, []persist.Event{ev(1, 7), ev(2, 7)})
	end, _ := store.Append(ctx, "acct/a1", persist.Cursor{Seq: 2, Rev: 1}, []persist.Event{ev(3, 12)})
	fmt.Println(sharded.CheckFences(ctx, store, "acct/a1"))
	store.Append(ctx, "acct/a1", end, []persist.Event{ev(4, 7)})
	err := sharded.CheckFences(ctx, store, "acct/a1")
	var fe *sharded.FenceError
	fmt.Println(errors.As(err, &fe), fe.Seq, fe.Fence, fe.Prior)
	// Output:
	// <nil>
	// true 4 7 12
}
