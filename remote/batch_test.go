package remote_test

import (
	"errors"
	"testing"

	"github.com/troupe-go/troupe/actor"
)

// TestBatchedTellsHonourABoundedMailbox: tells that arrive together for
// one actor are delivered as a batch, yet its bounded mailbox takes them
// one by one: while the actor is busy, a mailbox of one takes the first
// and refuses the rest, which come back to the sending node's dead
// letters in the order sent; the one taken is delivered.
func TestBatchedTellsHonourABoundedMailbox(t *testing.T) {
	ns := cluster(t, 2)
	started, release := make(chan struct{}), make(chan struct{})
	got := make(chan deposit, 8)
	ref, err := ns[1].sys.Spawn("bounded", "b", func() actor.Actor {
		return actor.ActorFunc(func(_ *actor.Context, msg any) (any, error) {
			d := msg.(deposit)
			if d.Memo == "block" {
				close(started)
				<-release
				return nil, nil
			}
			got <- d
			return nil, nil
		})
	}, actor.WithMailbox(1, actor.FailWhenFull))
	if err != nil {
		t.Fatal(err)
	}
	if err := ns[0].sys.Tell(ref, deposit{Memo: "block"}); err != nil {
		t.Fatal(err)
	}
	refused := make(chan actor.DeadLetter, 8)
	defer ns[1].sys.SubscribeDeadLetters(func(d actor.DeadLetter) { refused <- d })()
	<-started
	for i := range 5 {
		if err := ns[0].sys.Tell(ref, deposit{Amount: int64(i + 1)}); err != nil {
			t.Fatal(err)
		}
	}
	for range 4 { // refused on n2 while the actor is busy
		<-refused
	}
	close(release)
	for i := 2; i <= 5; i++ {
		d := ns[0].ExpectDeadLetter()
		if d.To != ref || d.Message != (deposit{Amount: int64(i)}) || !errors.Is(d.Reason, actor.ErrMailboxFull) {
			t.Fatalf("dead letter %+v, want deposit %d refused by the full mailbox", d, i)
		}
		ns[1].ExpectDeadLetter() // n2 has them too
	}
	if d := <-got; d.Amount != 1 {
		t.Fatalf("delivered %+v, want deposit 1", d)
	}
}
