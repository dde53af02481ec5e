package e2e_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/gen/internal/e2e"
	"github.com/troupe-go/troupe/internal/actorhook"
	"github.com/troupe-go/troupe/loop"
)

// hangGuard bounds waits for a signal that should come at once: a test
// that reaches it is broken, not slow.
const hangGuard = 10 * time.Second

// spawnWatcher spawns a Watcher reporting on buffered channels.
func spawnWatcher(t *testing.T, sys *actor.System) (e2e.WatcherRef, <-chan actor.Terminated, <-chan int) {
	t.Helper()
	gone, idle := make(chan actor.Terminated, 16), make(chan int, 16)
	w, err := e2e.SpawnWatcher(sys, "w", func() *e2e.Watcher { return &e2e.Watcher{Gone: gone, Idle: idle} })
	if err != nil {
		t.Fatal(err)
	}
	return w, gone, idle
}

// receive returns the next value of ch; with clk set, it advances clk by
// nothing while it waits, to wake a loop that armed its wake-up for a time
// already passed.
func receive[T any](t *testing.T, clk *loop.VirtualClock, ch <-chan T) T {
	t.Helper()
	deadline := time.Now().Add(hangGuard)
	for {
		select {
		case v := <-ch:
			return v
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("no signal (hang guard)")
		}
		if clk != nil {
			clk.Advance(0)
		}
		runtime.Gosched()
	}
}

// TestTerminatedHandler: a watched actor's stop reaches the Watcher's
// handler of actor.Terminated, however it stops.
func TestTerminatedHandler(t *testing.T) {
	tests := []struct {
		name       string
		stop       func(e2e.CounterRef) error
		spawn      bool
		wantReason error
	}{
		{"Stop", func(r e2e.CounterRef) error { r.Stop(); return nil }, true, nil},
		{"Poison", e2e.CounterRef.Poison, true, nil},
		{"never alive", func(e2e.CounterRef) error { return nil }, false, actor.ErrNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sys := newSystem(t, nil)
			w, gone, _ := spawnWatcher(t, sys)
			target := e2e.CounterRefOf(sys, actor.NewRef("e2e", "counter", "c"))
			if tt.spawn {
				target = spawnCounter(t, sys, "c", 0)
			}
			if err := w.Watch(context.Background(), target.Ref()); err != nil {
				t.Fatal(err)
			}
			if err := tt.stop(target); err != nil {
				t.Fatal(err)
			}
			got := receive(t, nil, gone)
			if got.Actor != target.Ref() || !errors.Is(got.Reason, tt.wantReason) || (tt.wantReason == nil) != (got.Reason == nil) {
				t.Fatalf("Terminated = %+v, want actor %v, reason %v", got, target, tt.wantReason)
			}
		})
	}
}

// TestPoisonAfterQueued: Poison on the typed ref stops the actor after
// what was queued before it; later sends are refused.
func TestPoisonAfterQueued(t *testing.T) {
	sys := newSystem(t, nil)
	w, gone, _ := spawnWatcher(t, sys)
	c := spawnCounter(t, sys, "c", 0)
	if err := w.Watch(context.Background(), c.Ref()); err != nil {
		t.Fatal(err)
	}
	var letters atomic.Int32
	cancel := sys.SubscribeDeadLetters(func(actor.DeadLetter) { letters.Add(1) })
	for range 100 {
		if err := c.Add(1); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Poison(); err != nil {
		t.Fatal(err)
	}
	receive(t, nil, gone)
	cancel()
	if n := letters.Load(); n != 0 {
		t.Fatalf("%d messages queued before Poison went to dead letters", n)
	}
	if err := c.Add(1); !errors.Is(err, actor.ErrNotFound) && !errors.Is(err, actor.ErrStopped) {
		t.Fatalf("Add after Poison: %v, want ErrNotFound or ErrStopped", err)
	}
	if err := c.Poison(); !errors.Is(err, actor.ErrNotFound) {
		t.Fatalf("second Poison: %v, want ErrNotFound", err)
	}
	c.Stop() // of an actor that is gone: nothing happens
}

// TestReceiveTimeoutHandler: the Watcher's handler of actor.ReceiveTimeout
// runs after each idle period, on the virtual clock, until cleared.
func TestReceiveTimeoutHandler(t *testing.T) {
	clk := loop.NewVirtualClock()
	sys := newSystem(t, clk)
	w, _, idle := spawnWatcher(t, sys)
	ctx := context.Background()
	if err := w.SetIdle(ctx, time.Second); err != nil {
		t.Fatal(err)
	}
	for want := 1; want <= 3; want++ {
		clk.Advance(time.Second)
		if n := receive(t, clk, idle); n != want {
			t.Fatalf("receive timeout %d, want %d", n, want)
		}
		// The timeout re-arms once its handler has returned, a second from
		// then: wait for that before the next Advance, or the next second
		// would pass before it is armed.
		if err := actorhook.Scheduler(sys).WaitIdle(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.SetIdle(ctx, 0); err != nil {
		t.Fatal(err)
	}
	clk.Advance(10 * time.Second)
	if err := w.SetIdle(ctx, 0); err != nil { // a round trip after the advance
		t.Fatal(err)
	}
	if len(idle) != 0 {
		t.Fatalf("a cleared receive timeout fired: %d", <-idle)
	}
}

// TestUnhandledMessages: a message an actor has no method for (a foreign
// value, or a runtime message it has no handler for) fails an ask with an
// error naming both types and is logged when told; the actor keeps going.
func TestUnhandledMessages(t *testing.T) {
	dead := make(chan actor.DeadLetter, 16)
	sys, err := actor.NewSystem("e2e", actor.WithDeadLetterHandler(func(d actor.DeadLetter) { dead <- d }))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sys.Shutdown(context.Background()) })
	var restarts atomic.Int32
	cancel := sys.SubscribeEvents(func(e actor.Event) {
		if e.Kind == actor.Restarted {
			restarts.Add(1)
		}
	})
	defer cancel()
	c := spawnCounter(t, sys, "c", 7)
	w, _, _ := spawnWatcher(t, sys)
	syncC := func() error { _, err := c.Get(context.Background()); return err }
	syncW := func() error { return w.SetIdle(context.Background(), 0) }
	tests := []struct {
		to       actor.Ref
		msg      any
		receiver string
		sync     func() error // a round trip behind the tell
	}{
		{c.Ref(), "foreign", "*e2e.Counter", syncC},
		{c.Ref(), 42, "*e2e.Counter", syncC},
		{c.Ref(), actor.Terminated{}, "*e2e.Counter", syncC},
		{c.Ref(), actor.ReceiveTimeout{}, "*e2e.Counter", syncC},
		{w.Ref(), struct{}{}, "*e2e.Watcher", syncW},
	}
	for _, tt := range tests {
		want := fmt.Sprintf("actor: unhandled message: %s has no handler for message %T", tt.receiver, tt.msg)
		t.Run(fmt.Sprintf("%T", tt.msg), func(t *testing.T) {
			_, err := actor.Ask[any](context.Background(), sys, tt.to, tt.msg)
			if !errors.Is(err, actor.ErrUnhandled) || err.Error() != want {
				t.Fatalf("ask: %v, want %q", err, want)
			}
			if err := sys.Tell(tt.to, tt.msg); err != nil {
				t.Fatal(err)
			}
			if err := tt.sync(); err != nil {
				t.Fatal(err)
			}
			for range 2 { // the ask's message, then the tell's
				if d := <-dead; d.To != tt.to || d.Reason.Error() != want {
					t.Fatalf("dead letter %+v, want one to %s for %q", d, tt.to, want)
				}
			}
		})
	}
	if n := get(t, c); n != 7 || restarts.Load() != 0 {
		t.Fatalf("after unhandled messages: count %d, %d restarts; want 7, 0", n, restarts.Load())
	}
}

// TestFixedRateAndIsActive: the typed fixed-rate timer delivers every
// period; IsActive and CancelAll reflect and end it.
func TestFixedRateAndIsActive(t *testing.T) {
	clk := loop.NewVirtualClock()
	sys := newSystem(t, clk)
	ref := spawnCounter(t, sys, "c", 0)
	ctx := context.Background()
	active := func() bool {
		t.Helper()
		ok, err := ref.Active(ctx, "rate")
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	if active() {
		t.Fatal("active before start")
	}
	if err := ref.StartRate(ctx, 2, time.Second); err != nil {
		t.Fatal(err)
	}
	if !active() {
		t.Fatal("not active after start")
	}
	for want := 2; want <= 6; want += 2 {
		clk.Advance(time.Second)
		waitFor(t, clk, ref, want)
	}
	if err := ref.CancelAll(); err != nil {
		t.Fatal(err)
	}
	if active() {
		t.Fatal("active after CancelAll")
	}
	clk.Advance(5 * time.Second)
	if n := get(t, ref); n != 6 {
		t.Fatalf("after CancelAll: %d, want 6", n)
	}
	if !strings.Contains(ref.String(), "/counter/c") {
		t.Fatalf("String = %q", ref.String())
	}
}
