//go:build linux || darwin

package actor_test

import (
	"context"
	"errors"
	"syscall"
	"testing"
	"time"

	"go.uber.org/goleak"
	"go.uber.org/zap"

	"github.com/troupe-go/troupe/actor"
)

// A Go handler blocked in a real system call (a read on a blocking pipe),
// on a system of one worker: other actors are still served, Shutdown
// returns by its deadline naming the stuck actor, and once the call
// returns the system stops with no goroutine left.
func TestAuditHandlerInSyscall(t *testing.T) {
	before := goleak.IgnoreCurrent()
	var fds [2]int
	if err := syscall.Pipe(fds[:]); err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fds[0])
	defer syscall.Close(fds[1])
	s, err := actor.NewSystem("sys", actor.WithWorkers(1), actor.WithStallBudget(5*time.Millisecond),
		actor.WithLogger(zap.NewNop()))
	if err != nil {
		t.Fatal(err)
	}
	entered := make(chan struct{})
	stuck, err := s.Spawn("reader", "r", func() actor.Actor {
		return actor.ActorFunc(func(_ *actor.Context, msg any) (any, error) {
			close(entered)
			var b [1]byte
			_, err := syscall.Read(fds[0], b[:]) // blocks in the kernel
			return nil, err
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Tell(stuck, "read"); err != nil {
		t.Fatal(err)
	}
	<-entered
	other := spawnCounter(t, s, "other")
	if err := s.Tell(other, 3); err != nil {
		t.Fatal(err)
	}
	if n, err := ask[int](t, s, other, "get"); err != nil || n != 3 {
		t.Fatalf("other actor while one is in a syscall: %d, %v", n, err)
	}
	stopped := make(chan struct{})
	s.SubscribeEvents(func(e actor.Event) {
		if e.Kind == actor.Stopped && e.Actor == other {
			close(stopped)
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-stopped; cancel() }()
	var se *actor.ShutdownError
	if err := s.Shutdown(ctx); !errors.As(err, &se) || len(se.Actors) != 1 || se.Actors[0] != stuck {
		t.Fatalf("Shutdown = %v, want the reader named", err)
	}
	if _, err := syscall.Write(fds[1], []byte{1}); err != nil {
		t.Fatal(err)
	}
	done, stop := context.WithTimeout(context.Background(), waitLimit)
	defer stop()
	if err := s.Shutdown(done); err != nil {
		t.Fatalf("Shutdown after the syscall returned: %v", err)
	}
	goleak.VerifyNone(t, before)
}
