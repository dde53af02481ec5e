package remote_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/remote"
)

// TestNoRespondersDeadLettersTheFrame: a tell published to a node nobody
// serves is accepted (the sender cannot know yet), and when the server
// reports no responders for its frame, that very message goes to dead
// letters with ErrUnreachable; later tells fail at once.
func TestNoRespondersDeadLettersTheFrame(t *testing.T) {
	n := startNode(t, "solo")
	ghost := actor.NewRef("ghost", "account", "a")
	if err := n.sys.Tell(ghost, deposit{Amount: 7}); err != nil {
		t.Fatalf("first tell = %v; the sender learns of the failure later", err)
	}
	d := n.ExpectDeadLetter()
	if d.To != ghost || d.Message != (deposit{Amount: 7}) || !errors.Is(d.Reason, remote.ErrUnreachable) {
		t.Fatalf("dead letter = %+v, want the deposit to %s with ErrUnreachable", d, ghost)
	}
	err := n.sys.Tell(ghost, deposit{Amount: 8})
	if !errors.Is(err, remote.ErrUnreachable) {
		t.Fatalf("tell after the node was found missing = %v, want ErrUnreachable", err)
	}
	if d := n.ExpectDeadLetter(); d.Message != (deposit{Amount: 8}) {
		t.Fatalf("dead letter = %+v, want the second deposit", d)
	}
	if st := n.node.Stats(); st.Unconfirmed != 0 {
		t.Fatalf("stats = %+v: the frame was still held, none unconfirmed", st)
	}
}

// TestLostPeersAreForgotten: a node keeps no state for nodes lost long
// ago, however many names it has sent to.
func TestLostPeersAreForgotten(t *testing.T) {
	n := startNode(t, "solo", remote.WithHeartbeat(10*time.Millisecond, 2))
	for i := range 5 {
		if err := n.sys.Tell(actor.NewRef(fmt.Sprintf("ghost%d", i), "k", "i"), deposit{Amount: 1}); err != nil {
			t.Fatal(err)
		}
		n.ExpectDeadLetter() // its no-responders status came back: the peer is lost
	}
	ctx := waitCtx(t)
	for n.node.Stats().Peers != 0 {
		select {
		case <-ctx.Done():
			t.Fatalf("stats = %+v: lost peers still kept", n.node.Stats())
		case <-time.After(10 * time.Millisecond):
		}
	}
}
