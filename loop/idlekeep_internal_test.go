package loop

import (
	"context"
	"sync/atomic"
	"testing"
)

// countHost is a MailHost that counts the letters delivered to it.
type countHost struct{ n atomic.Int32 }

func (h *countHost) LoopPanic(error)        {}
func (h *countHost) DeliverMail(Mail)       { h.n.Add(1) }
func (h *countHost) ReturnMail(Mail, error) {}

// An idle driven loop keeps no lane array: the batches it ran went back to
// their pools, and its empty lanes hold no block; so a million idle actors
// keep none. The next task and letter still arrive.
func TestIdleLoopKeepsNoLaneArray(t *testing.T) {
	ctx := context.Background()
	s, err := NewScheduler()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Shutdown(ctx)
	h := &countHost{}
	l, err := New(WithScheduler(s), WithHost(h))
	if err != nil {
		t.Fatal(err)
	}
	var ran atomic.Int32
	for round := 1; round <= 3; round++ {
		for range 100 { // more than one block's worth
			if err := l.Submit(func() { ran.Add(1) }); err != nil {
				t.Fatal(err)
			}
			if err := l.Post(Mail{Msg: round}, OverflowRefuse); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.WaitIdle(ctx); err != nil {
			t.Fatal(err)
		}
		if got, want := ran.Load(), int32(100*round); got != want {
			t.Fatalf("round %d: %d tasks ran, want %d", round, got, want)
		}
		if got, want := h.n.Load(), int32(100*round); got != want {
			t.Fatalf("round %d: %d letters delivered, want %d", round, got, want)
		}
		if l.tb != nil || l.mb != nil || l.in.tasks != nil || l.in.mail != nil {
			t.Fatalf("round %d: the idle loop keeps lane blocks: batch %v, mail batch %v, lanes %v %v",
				round, l.tb, l.mb, l.in.tasks, l.in.mail)
		}
	}
	if err := l.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
}
