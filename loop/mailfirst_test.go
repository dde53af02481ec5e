package loop_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/troupe-go/troupe/loop"
)

// A letter posted to an empty mail lane waits in the ingress itself, not
// in a block (unless it carries a Reply): letters still arrive in the
// order posted, count in MailDepth, and go back to the host in order when
// the loop shuts down, whichever way each was queued.
func TestMailOrderAcrossFirstLetter(t *testing.T) {
	noop := func(any, error) {}
	upTo := func(n int) []any {
		var s []any
		for i := 1; i <= n; i++ {
			s = append(s, i)
		}
		return s
	}
	for _, tc := range []struct {
		name       string
		msgs       []any
		replyAt    map[int]bool // indexes of msgs posted with a Reply
		stopAt     any          // the delivery during which the loop shuts down; nil: none
		stopFirst  bool         // a task shuts the loop down before any delivery
		postAt     any          // during this delivery, post "late"
		delivered  string
		returned   string
		mailBefore int
	}{
		{name: "one", msgs: []any{1}, delivered: "[1]", returned: "[]", mailBefore: 1},
		{name: "reply behind the first", msgs: []any{1, 2, 3}, replyAt: map[int]bool{1: true},
			delivered: "[1 2 3]", returned: "[]", mailBefore: 3},
		{name: "reply ahead", msgs: []any{1, 2}, replyAt: map[int]bool{0: true},
			delivered: "[1 2]", returned: "[]", mailBefore: 2},
		{name: "more than a block", msgs: upTo(150), delivered: fmt.Sprint(upTo(150)), returned: "[]", mailBefore: 150},
		{name: "nil message", msgs: []any{nil, 1}, delivered: "[<nil> 1]", returned: "[]", mailBefore: 2},
		{name: "posted once the lane emptied", msgs: []any{1}, postAt: 1,
			delivered: "[1 late]", returned: "[]", mailBefore: 1},
		{name: "shutdown during the first", msgs: []any{1, 2, 3}, stopAt: 1,
			delivered: "[1]", returned: "[2 3]", mailBefore: 3},
		{name: "shutdown before any", msgs: []any{1, 2, 3}, replyAt: map[int]bool{1: true}, stopFirst: true,
			delivered: "[]", returned: "[1 2 3]", mailBefore: 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := &mailbox{}
			l := newMailLoop(t, b)
			b.onDeliver = func(m loop.Mail) {
				if tc.stopAt != nil && m.Msg == tc.stopAt {
					l.Shutdown(context.Background())
				}
				if tc.postAt != nil && m.Msg == tc.postAt {
					if err := l.Post(loop.Mail{Msg: "late"}, loop.OverflowRefuse); err != nil {
						t.Error(err)
					}
				}
			}
			if tc.stopFirst {
				l.Submit(func() { l.Shutdown(context.Background()) })
			}
			for i, msg := range tc.msgs {
				m := loop.Mail{Msg: msg}
				if tc.replyAt[i] {
					m.Reply = noop
				}
				if err := l.Post(m, loop.OverflowRefuse); err != nil {
					t.Fatal(err)
				}
			}
			if got := l.Metrics().MailDepth; got != tc.mailBefore {
				t.Fatalf("mail depth %d before the run, want %d", got, tc.mailBefore)
			}
			if err := l.Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			delivered, returned := b.lists()
			if fmt.Sprint(delivered) != tc.delivered || fmt.Sprint(returned) != tc.returned {
				t.Fatalf("delivered %v, returned %v; want %s, %s", delivered, returned, tc.delivered, tc.returned)
			}
			if got := l.Metrics().MailDepth; got != 0 {
				t.Fatalf("mail depth %d after the run", got)
			}
		})
	}
}
