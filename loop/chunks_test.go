package loop_test

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"testing"

	"github.com/troupe-go/troupe/loop"
)

// A lane longer than one block is a chain of blocks: whatever its length,
// tasks and letters arrive in order, and a shutdown part way through a
// chain hands back exactly the letters not delivered, in order.
func TestLongLanesKeepOrder(t *testing.T) {
	for _, n := range []int{1, 63, 64, 65, 128, 129, 1000} {
		for _, stopAt := range []int{0, 1, 64, 65, n - 1} {
			if stopAt >= n || (n < 64 && stopAt > 1) {
				continue
			}
			t.Run(fmt.Sprintf("n=%d/stop=%d", n, stopAt), func(t *testing.T) {
				b := &mailbox{}
				l := newMailLoop(t, b)
				var tasks []int
				b.onDeliver = func(m loop.Mail) {
					if stopAt > 0 && m.Msg == stopAt {
						l.Shutdown(context.Background())
					}
				}
				var batch []loop.Mail
				for i := 1; i <= n; i++ {
					if i%2 == 0 {
						batch = append(batch, loop.Mail{Msg: i})
						continue
					}
					l.PostBatch(batch, loop.OverflowRefuse, nil)
					batch = batch[:0]
					if err := l.Post(loop.Mail{Msg: i}, loop.OverflowRefuse); err != nil {
						t.Fatal(err)
					}
					if err := l.Submit(func() { tasks = append(tasks, i) }); err != nil {
						t.Fatal(err)
					}
				}
				l.PostBatch(batch, loop.OverflowRefuse, nil)
				if err := l.Run(context.Background()); err != nil {
					t.Fatal(err)
				}
				delivered, returned := b.lists()
				if !isRun(tasks, 1, 2) || len(tasks) != (n+1)/2 {
					t.Fatalf("tasks %v, want the odd numbers up to %d", tasks, n)
				}
				got := slices.Concat(delivered, returned)
				last := n
				if stopAt > 0 {
					last = stopAt
				}
				if len(delivered) != last || len(got) != n {
					t.Fatalf("%d delivered, %d returned, want %d and %d", len(delivered), len(returned), last, n-last)
				}
				for i, m := range got {
					if m != i+1 {
						t.Fatalf("letter %d is %v: out of order", i, m)
					}
				}
			})
		}
	}
}

// isRun reports whether xs counts from first by step.
func isRun(xs []int, first, step int) bool {
	for i, x := range xs {
		if x != first+i*step {
			return false
		}
	}
	return true
}

// discard is a host that keeps nothing of the mail it is handed.
type discard struct{}

func (discard) LoopPanic(error)             {}
func (discard) DeliverMail(loop.Mail)       {}
func (discard) ReturnMail(loop.Mail, error) {}

// A backlog (senders outrunning the loop, so the lane's pool has no block
// to give) costs about an allocation per block of 64 letters, not one
// per doubling of a block's array: letters queued on a loop that is not
// running allocate at most two objects (a block and its array) a block.
func TestBacklogAllocatesPerBlock(t *testing.T) {
	const letters, perBlock = 64 * 16, 64
	msg := &struct{}{}
	queue := func(n int) float64 {
		return testing.AllocsPerRun(10, func() {
			l, err := loop.New(loop.WithHost(discard{}))
			if err != nil {
				t.Fatal(err)
			}
			for range n {
				_ = l.Post(loop.Mail{Msg: msg}, loop.OverflowRefuse)
			}
			l.Close()
		})
	}
	// Blocks from the pool allocate nothing; a fresh block is the worst
	// case, so the pool is emptied by queueing first a backlog it cannot
	// hold and then by the collector.
	runtime.GC()
	runtime.GC()
	got := queue(letters) - queue(0)
	if limit := float64(2*letters/perBlock + 2); got > limit {
		t.Fatalf("%d letters queued: %.0f allocations, want at most %.0f (two a block of %d)",
			letters, got, limit, perBlock)
	}
}
