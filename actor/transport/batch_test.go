package transport_test

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actor/transport"
)

// TestDeliverBatch: a batch of tells reaches the actor in order; a
// bounded mailbox takes them one by one under its bound and policy; what
// is not delivered goes to dead letters and to failed, with its index.
func TestDeliverBatch(t *testing.T) {
	tests := []struct {
		name       string
		to         string // "" for the spawned actor
		mailbox    []actor.SpawnOption
		wantGot    []any
		wantFailed []int
		wantDead   []any
		wantErr    error
	}{
		{"unbounded", "", nil, []any{1, 2, 3, 4}, nil, nil, nil},
		{"bounded, fail when full", "", []actor.SpawnOption{actor.WithMailbox(2, actor.FailWhenFull)}, []any{1, 2}, []int{2, 3}, []any{3, 4}, actor.ErrMailboxFull},
		{"bounded, drop oldest", "", []actor.SpawnOption{actor.WithMailbox(2, actor.DropOldest)}, []any{3, 4}, nil, []any{1, 2}, actor.ErrMailboxFull},
		{"missing actor", "missing", nil, nil, []int{0, 1, 2, 3}, []any{1, 2, 3, 4}, actor.ErrNotFound},
		{"other system", "other", nil, nil, []int{0, 1, 2, 3}, []any{1, 2, 3, 4}, actor.ErrNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sys, err := actor.NewSystem("b")
			if err != nil {
				t.Fatal(err)
			}
			defer sys.Shutdown(context.Background())
			h := transport.Attach(sys, &loopback{hosts: map[string]transport.Host{}})
			started, release := make(chan struct{}), make(chan struct{})
			recv := make(chan any, 8)
			ref, err := sys.Spawn("sink", "s", func() actor.Actor {
				return actor.ActorFunc(func(_ *actor.Context, msg any) (any, error) {
					if msg == "block" {
						close(started)
						<-release
						return nil, nil
					}
					recv <- msg
					return nil, nil
				})
			}, tt.mailbox...)
			if err != nil {
				t.Fatal(err)
			}
			dead := make(chan actor.DeadLetter, 8)
			defer sys.SubscribeDeadLetters(func(d actor.DeadLetter) { dead <- d })()
			to := ref
			switch tt.to {
			case "missing":
				to = actor.NewRef("b", "sink", "missing")
			case "other":
				to = actor.NewRef("c", "sink", "s")
			}
			// The actor busy with a first message: the batch waits in its
			// mailbox, whose bound is then exact.
			if err := h.Deliver(ref, "block", nil); err != nil {
				t.Fatal(err)
			}
			<-started
			var failed []int
			h.DeliverBatch(to, []any{1, 2, 3, 4}, func(i int, err error) {
				if !errors.Is(err, tt.wantErr) {
					t.Errorf("message %d failed with %v, want %v", i, err, tt.wantErr)
				}
				failed = append(failed, i)
			})
			close(release)
			var got []any
			for range tt.wantGot {
				got = append(got, <-recv)
			}
			if !reflect.DeepEqual(got, tt.wantGot) || !reflect.DeepEqual(failed, tt.wantFailed) {
				t.Fatalf("delivered %v, failed %v; want %v, %v", got, failed, tt.wantGot, tt.wantFailed)
			}
			for _, want := range tt.wantDead {
				if d := <-dead; d.Message != want || !errors.Is(d.Reason, tt.wantErr) {
					t.Fatalf("dead letter %+v, want message %v with %v", d, want, tt.wantErr)
				}
			}
		})
	}
}
