package loop_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/troupe-go/troupe/loop"
)

// mailbox is a MailHost that records what its loop delivers and returns.
type mailbox struct {
	mu        sync.Mutex
	delivered []any
	returned  []any
	reasons   []error
	onDeliver func(m loop.Mail) // on the loop, before recording
}

func (b *mailbox) LoopPanic(error) {}

func (b *mailbox) DeliverMail(m loop.Mail) {
	if b.onDeliver != nil {
		b.onDeliver(m)
	}
	b.mu.Lock()
	b.delivered = append(b.delivered, m.Msg)
	b.mu.Unlock()
}

func (b *mailbox) ReturnMail(m loop.Mail, err error) {
	b.mu.Lock()
	b.returned = append(b.returned, m.Msg)
	b.reasons = append(b.reasons, err)
	b.mu.Unlock()
}

func (b *mailbox) lists() (delivered, returned []any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]any(nil), b.delivered...), append([]any(nil), b.returned...)
}

// newMailLoop returns a standalone loop, not running, with b as its host.
func newMailLoop(t *testing.T, b *mailbox, opts ...loop.Option) *loop.Loop {
	t.Helper()
	l, err := loop.New(append(opts, loop.WithHost(b), loop.WithRunUntilIdle())...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// printer is the host of ExampleLoop_Post.
type printer struct{}

func (printer) LoopPanic(error)                   {}
func (printer) DeliverMail(m loop.Mail)           { fmt.Println("mail:", m.Msg) }
func (printer) ReturnMail(m loop.Mail, err error) { fmt.Println("returned:", m.Msg, err) }

// A loop carries mail for its host; tasks overtake it.
func ExampleLoop_Post() {
	l, _ := loop.New(loop.WithHost(printer{}), loop.WithRunUntilIdle())
	l.Post(loop.Mail{Msg: "hello"}, loop.OverflowRefuse)
	l.Post(loop.Mail{Msg: "world"}, loop.OverflowRefuse)
	l.Submit(func() { fmt.Println("task") })
	l.Run(context.Background())
	l.Post(loop.Mail{Msg: "late"}, loop.OverflowRefuse)
	l.Close()
	// Output:
	// task
	// mail: hello
	// mail: world
	// returned: late loop: closed
}

// A bounded lane refuses a letter or drops the oldest; a sender that must
// not lose its letter waits for room.
func ExampleLoop_MailRoom() {
	l, _ := loop.New(loop.WithHost(printer{}), loop.WithMailBound(1), loop.WithRunUntilIdle())
	defer l.Close()
	l.Post(loop.Mail{Msg: 1}, loop.OverflowRefuse)
	fmt.Println(l.Post(loop.Mail{Msg: 2}, loop.OverflowRefuse))
	l.Post(loop.Mail{Msg: 3}, loop.OverflowDropOldest)
	room := l.MailRoom() // a sender would wait here, on its own goroutine
	l.Run(context.Background())
	<-room // 3 was delivered
	l.Post(loop.Mail{Msg: 4}, loop.OverflowRefuse)
	l.Run(context.Background())
	// Output:
	// loop: mail lane full
	// returned: 1 loop: mail lane full
	// mail: 3
	// mail: 4
}

// Before each letter the loop runs every task queued by then, also tasks
// queued while it delivers mail; mail keeps its order.
func TestTasksOvertakeMail(t *testing.T) {
	var order []string
	b := &mailbox{}
	l := newMailLoop(t, b)
	b.onDeliver = func(m loop.Mail) {
		order = append(order, m.Msg.(string))
		if m.Msg == "m1" {
			l.Submit(func() { order = append(order, "t2") })
		}
	}
	for _, m := range []string{"m1", "m2", "m3"} {
		if err := l.Post(loop.Mail{Msg: m}, loop.OverflowRefuse); err != nil {
			t.Fatal(err)
		}
	}
	l.Submit(func() { order = append(order, "t1") })
	if err := l.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprint(order), "[t1 m1 t2 m2 m3]"; got != want {
		t.Fatalf("order %s, want %s", got, want)
	}
}

// A bounded lane refuses, drops the oldest (never an admitted letter), or
// admits past the bound, as each post asks; a delivered letter makes room.
func TestMailBound(t *testing.T) {
	for _, tc := range []struct {
		name      string
		over      loop.Overflow
		admit     bool // post an admitted letter first
		refused   int  // of the posts 1..4 into a lane bound to 2
		delivered string
		returned  string
	}{
		{"refuse", loop.OverflowRefuse, false, 2, "[1 2]", "[]"},
		{"drop-oldest", loop.OverflowDropOldest, false, 0, "[3 4]", "[1 2]"},
		{"drop-oldest-keeps-admitted", loop.OverflowDropOldest, true, 0, "[ctl 4]", "[1 2 3]"},
		{"admit", loop.OverflowAdmit, false, 0, "[1 2 3 4]", "[]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := &mailbox{}
			l := newMailLoop(t, b, loop.WithMailBound(2))
			if tc.admit {
				if err := l.Post(loop.Mail{Msg: "ctl"}, loop.OverflowAdmit); err != nil {
					t.Fatal(err)
				}
			}
			refused := 0
			for i := 1; i <= 4; i++ {
				switch err := l.Post(loop.Mail{Msg: i}, tc.over); {
				case errors.Is(err, loop.ErrMailFull):
					refused++
				case err != nil:
					t.Fatal(err)
				}
			}
			select {
			case <-l.MailRoom():
				t.Fatal("room in a full lane")
			default:
			}
			if err := l.Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			select {
			case <-l.MailRoom():
			default:
				t.Fatal("no room in an empty lane")
			}
			delivered, returned := b.lists()
			if refused != tc.refused || fmt.Sprint(delivered) != tc.delivered || fmt.Sprint(returned) != tc.returned {
				t.Fatalf("refused %d, delivered %v, returned %v; want %d, %s, %s",
					refused, delivered, returned, tc.refused, tc.delivered, tc.returned)
			}
			for _, err := range b.reasons {
				if !errors.Is(err, loop.ErrMailFull) {
					t.Fatalf("returned for %v, want ErrMailFull", err)
				}
			}
		})
	}
}

// A sender waiting for room is released by a delivery, and by shutdown.
func TestMailRoomReleases(t *testing.T) {
	b := &mailbox{}
	l := newMailLoop(t, b, loop.WithMailBound(1))
	l.Post(loop.Mail{Msg: 1}, loop.OverflowRefuse)
	room := l.MailRoom()
	select {
	case <-room:
		t.Fatal("room in a full lane")
	default:
	}
	l.Run(context.Background())
	wait(t, room)
	l.Post(loop.Mail{Msg: 2}, loop.OverflowRefuse)
	room = l.MailRoom()
	l.Close()
	wait(t, room)
	if err := l.Post(loop.Mail{Msg: 3}, loop.OverflowRefuse); !errors.Is(err, loop.ErrLoopClosed) {
		t.Fatalf("post after close: %v", err)
	}
}

// Shutdown delivers no more mail: what is queued goes back to the host
// with ErrLoopClosed, also when the shutdown starts inside a delivery.
func TestShutdownReturnsMail(t *testing.T) {
	for _, bound := range []int{0, 10} {
		t.Run(fmt.Sprint("bound=", bound), func(t *testing.T) {
			b := &mailbox{}
			var opts []loop.Option
			if bound > 0 {
				opts = append(opts, loop.WithMailBound(bound))
			}
			l := newMailLoop(t, b, opts...)
			b.onDeliver = func(m loop.Mail) {
				if m.Msg == 2 {
					l.Shutdown(context.Background())
				}
			}
			for i := 1; i <= 5; i++ {
				l.Post(loop.Mail{Msg: i}, loop.OverflowRefuse)
			}
			if err := l.Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			delivered, returned := b.lists()
			if fmt.Sprint(delivered) != "[1 2]" || fmt.Sprint(returned) != "[3 4 5]" {
				t.Fatalf("delivered %v, returned %v", delivered, returned)
			}
			for _, err := range b.reasons {
				if !errors.Is(err, loop.ErrLoopClosed) {
					t.Fatalf("returned for %v, want ErrLoopClosed", err)
				}
			}
		})
	}
}

func TestPostWithoutMailHost(t *testing.T) {
	l, err := loop.New()
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if err := l.Post(loop.Mail{Msg: 1}, loop.OverflowRefuse); !errors.Is(err, loop.ErrNoMailHost) {
		t.Fatalf("post without a mail host: %v", err)
	}
	if _, err := loop.New(loop.WithMailBound(0)); err == nil {
		t.Fatal("WithMailBound(0) accepted")
	}
}

// countingHost checks, on a driven loop hammered from many goroutines,
// that each producer's letters and tasks arrive in order, each once.
type countingHost struct {
	last      []int // per producer: the last letter's sequence number
	tasksLast []int
	delivered atomic.Int64
	returned  atomic.Int64
	bad       atomic.Value
}

type stamp struct{ from, seq int }

func (h *countingHost) LoopPanic(err error) { h.bad.Store("panic: " + err.Error()) }

func (h *countingHost) DeliverMail(m loop.Mail) {
	s := m.Msg.(stamp)
	if s.seq <= h.last[s.from] {
		h.bad.Store(fmt.Sprintf("producer %d: letter %d after %d", s.from, s.seq, h.last[s.from]))
	}
	h.last[s.from] = s.seq
	h.delivered.Add(1)
}

func (h *countingHost) ReturnMail(loop.Mail, error) { h.returned.Add(1) }

// Many goroutines post and submit to one driven loop, bounded or not, with
// a shutdown in the middle: per producer FIFO in each lane, and every
// letter is delivered, returned or refused at post, exactly once.
func TestIngressHammer(t *testing.T) {
	for _, tc := range []struct {
		name  string
		bound int
		over  loop.Overflow
		wait  bool // wait for room rather than be refused
	}{
		{"unbounded", 0, loop.OverflowRefuse, false},
		{"bounded-refuse", 16, loop.OverflowRefuse, false},
		{"bounded-drop-oldest", 16, loop.OverflowDropOldest, false},
		{"bounded-wait", 16, loop.OverflowRefuse, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const producers, per = 8, 3000
			s := newScheduler(t, loop.WithWorkers(2))
			h := &countingHost{last: make([]int, producers), tasksLast: make([]int, producers)}
			opts := []loop.Option{loop.WithScheduler(s), loop.WithHost(h)}
			if tc.bound > 0 {
				opts = append(opts, loop.WithMailBound(tc.bound))
			}
			l := must[*loop.Loop](t)(loop.New(opts...))
			var refused, tasks, tasksRun atomic.Int64
			var wg sync.WaitGroup
			for p := range producers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := 1; i <= per; i++ {
						m := loop.Mail{Msg: stamp{p, i}}
						if i%3 == 0 { // a letter with a Reply never waits in the ingress's first slot
							m.Reply = func(any, error) {}
						}
						err := l.Post(m, tc.over)
						for tc.wait && errors.Is(err, loop.ErrMailFull) {
							<-l.MailRoom()
							err = l.Post(m, tc.over)
						}
						if err != nil {
							refused.Add(1)
						}
						if i%4 == 0 && l.Submit(func() {
							if i <= h.tasksLast[p] {
								h.bad.Store("task out of order")
							}
							h.tasksLast[p] = i
							tasksRun.Add(1)
						}) == nil {
							tasks.Add(1)
						}
						if p == 0 && i == per/2 {
							go l.Shutdown(context.Background())
						}
					}
				}()
			}
			wg.Wait()
			ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
			defer cancel()
			if err := l.Shutdown(ctx); err != nil {
				t.Fatal(err)
			}
			if v := h.bad.Load(); v != nil {
				t.Fatal(v)
			}
			got := h.delivered.Load() + h.returned.Load() + refused.Load()
			if got != producers*per {
				t.Fatalf("posted %d: delivered %d + returned %d + refused %d",
					producers*per, h.delivered.Load(), h.returned.Load(), refused.Load())
			}
			if tasksRun.Load() != tasks.Load() {
				t.Fatalf("%d tasks accepted, %d ran", tasks.Load(), tasksRun.Load())
			}
		})
	}
}
