package actor_test

import (
	"context"
	"testing"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/loop"
)

// With details on, a sample of the letters records how long they waited
// in the mailbox: ActorInfo.MailboxWait estimates it from them. Off, no
// letter records anything.
func TestMailboxWaitIsSampled(t *testing.T) {
	const n = 256 * 40
	for _, detailed := range []bool{true, false} {
		s, err := actor.NewSystem("wait")
		if err != nil {
			t.Fatal(err)
		}
		s.SetDetailedMetrics(detailed)
		gate := make(chan struct{})
		ref, _ := s.Spawn("slow", "1", func() actor.Actor {
			return actor.ActorFunc(func(_ *actor.Context, msg any) (any, error) {
				if msg == "block" {
					<-gate
				}
				return nil, nil
			})
		})
		if err := s.Tell(ref, "block"); err != nil {
			t.Fatal(err)
		}
		for i := range n {
			_ = s.Tell(ref, i)
		}
		close(gate)
		if _, err := actor.Ask[any](context.Background(), s, ref, "sync"); err != nil {
			t.Fatal(err)
		}
		info, ok := s.Actor(ref)
		if !ok {
			t.Fatal("actor not found")
		}
		w := info.MailboxWait
		switch {
		case detailed && (w.Samples == 0 || w.Samples > n/8):
			t.Errorf("details on: %d samples of %d letters, want about one in 256", w.Samples, n)
		case detailed && (w.P50 <= 0 || w.P99 < w.P50):
			t.Errorf("details on: wait estimates %+v", w)
		case !detailed && w != (loop.Percentiles{}):
			t.Errorf("details off: wait %+v, want none", w)
		}
		_ = s.Shutdown(context.Background())
	}
}
