package remote_test

import (
	"errors"
	"testing"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/remote"
)

// TestNoRespondersDeadLettersTheFrame: a tell published to a node nobody
// serves is accepted (the sender cannot know yet), and when the server
// reports no responders for its frame, that very message goes to dead
// letters with ErrUnreachable; later tells fail at once.
func TestNoRespondersDeadLettersTheFrame(t *testing.T) {
	n := startNode(t, "solo")
	dead := deadLetters(t, n.sys)
	ghost := actor.NewRef("ghost", "account", "a")
	if err := n.sys.Tell(ghost, deposit{Amount: 7}); err != nil {
		t.Fatalf("first tell = %v; the sender learns of the failure later", err)
	}
	d := recv(t, dead)
	if d.To != ghost || d.Message != (deposit{Amount: 7}) || !errors.Is(d.Reason, remote.ErrUnreachable) {
		t.Fatalf("dead letter = %+v, want the deposit to %s with ErrUnreachable", d, ghost)
	}
	err := n.sys.Tell(ghost, deposit{Amount: 8})
	if !errors.Is(err, remote.ErrUnreachable) {
		t.Fatalf("tell after the node was found missing = %v, want ErrUnreachable", err)
	}
	if d := recv(t, dead); d.Message != (deposit{Amount: 8}) {
		t.Fatalf("dead letter = %+v, want the second deposit", d)
	}
	if st := n.node.Stats(); st.Unconfirmed != 0 {
		t.Fatalf("stats = %+v: the frame was still held, none unconfirmed", st)
	}
}
