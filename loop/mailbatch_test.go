package loop_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/troupe-go/troupe/loop"
)

// A batch of letters is queued in order, with one wake-up of the loop.
func ExampleLoop_PostBatch() {
	l, _ := loop.New(loop.WithHost(printer{}), loop.WithRunUntilIdle())
	l.PostBatch([]loop.Mail{{Msg: "a"}, {Msg: "b"}, {Msg: "c"}}, loop.OverflowRefuse, nil)
	l.Run(context.Background())
	l.Close()
	late := []loop.Mail{{Msg: "late"}}
	l.PostBatch(late, loop.OverflowRefuse, func(i int, err error) {
		fmt.Println("not queued:", late[i].Msg, err)
	})
	// Output:
	// mail: a
	// mail: b
	// mail: c
	// not queued: late loop: closed
}

// seqMsg is a letter of the hammer: its sender and its number.
type seqMsg struct{ from, n int }

// TestPostBatchHammer: senders posting batches and single letters at
// once, to unbounded and bounded lanes: every letter is delivered or
// reported (refused to failed, dropped to ReturnMail), none twice, and
// what one sender's letters delivered keep their order.
func TestPostBatchHammer(t *testing.T) {
	const senders, batches, size = 4, 200, 8
	tests := []struct {
		name string
		opts []loop.Option
		over loop.Overflow
	}{
		{"unbounded", nil, loop.OverflowRefuse},
		{"bounded refuse", []loop.Option{loop.WithMailBound(5)}, loop.OverflowRefuse},
		{"bounded drop oldest", []loop.Option{loop.WithMailBound(5)}, loop.OverflowDropOldest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := &mailbox{}
			l, err := loop.New(append(tt.opts, loop.WithHost(b))...)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- l.Run(ctx) }()
			var mu sync.Mutex
			var failed []any
			var wg sync.WaitGroup
			for s := range senders {
				wg.Add(1)
				go func() {
					defer wg.Done()
					n := 0
					for i := range batches {
						ms := make([]loop.Mail, size)
						for j := range ms {
							ms[j] = loop.Mail{Msg: seqMsg{s, n}}
							n++
						}
						if i%5 == 0 { // single posts mixed in
							for _, m := range ms {
								if err := l.Post(m, tt.over); err != nil {
									mu.Lock()
									failed = append(failed, m.Msg)
									mu.Unlock()
								}
							}
							continue
						}
						l.PostBatch(ms, tt.over, func(i int, err error) {
							if !errors.Is(err, loop.ErrMailFull) {
								t.Errorf("failed with %v", err)
							}
							mu.Lock()
							failed = append(failed, ms[i].Msg)
							mu.Unlock()
						})
					}
				}()
			}
			wg.Wait()
			done2 := make(chan struct{})
			l.Submit(func() { close(done2) }) // tasks overtake mail: wait for the rest below
			<-done2
			for {
				ch := make(chan struct{})
				l.Submit(func() { close(ch) })
				<-ch
				delivered, returned := b.lists()
				mu.Lock()
				total := len(delivered) + len(returned) + len(failed)
				mu.Unlock()
				if total >= senders*batches*size {
					break
				}
			}
			cancel()
			<-done
			l.Close()
			delivered, returned := b.lists()
			seen := map[seqMsg]bool{}
			last := make([]int, senders)
			for i := range last {
				last[i] = -1
			}
			for _, v := range delivered {
				m := v.(seqMsg)
				if m.n <= last[m.from] {
					t.Fatalf("sender %d: %d delivered after %d", m.from, m.n, last[m.from])
				}
				last[m.from] = m.n
				seen[m] = true
			}
			for _, v := range append(returned, failed...) {
				m := v.(seqMsg)
				if seen[m] {
					t.Fatalf("%v delivered and reported", m)
				}
				seen[m] = true
			}
			if len(seen) != senders*batches*size {
				t.Fatalf("%d letters accounted for, want %d", len(seen), senders*batches*size)
			}
			if tt.over == loop.OverflowRefuse && tt.opts == nil && len(failed)+len(returned) != 0 {
				t.Fatalf("unbounded lane refused %d", len(failed)+len(returned))
			}
		})
	}
}
