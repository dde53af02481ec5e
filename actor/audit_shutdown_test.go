package actor_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"go.uber.org/goleak"
	"go.uber.org/zap"

	"github.com/troupe-go/troupe/actor"
)

// Shutdown called by several goroutines at once: each returns nil once
// every actor has stopped, and nothing is left running.
func TestAuditConcurrentShutdown(t *testing.T) {
	before := goleak.IgnoreCurrent()
	s, err := actor.NewSystem("many", actor.WithLogger(zap.NewNop()))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 50 {
		spawnCounter(t, s, fmt.Sprint(i))
	}
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- s.Shutdown(context.Background())
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("concurrent Shutdown: %v", err)
		}
	}
	goleak.VerifyNone(t, before)
}

// Shutdown from a handler cannot wait for the handler's own actor: it
// starts the shutdown and returns at once, ErrWouldBlock, instead of
// hanging the actor until ctx ends.
func TestAuditShutdownFromHandler(t *testing.T) {
	s, err := actor.NewSystem("self", actor.WithLogger(zap.NewNop()))
	if err != nil {
		t.Fatal(err)
	}
	ref, err := s.Spawn("closer", "c", func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
			defer cancel()
			return nil, c.System().Shutdown(ctx)
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = ask[any](t, s, ref, "close")
	if !errors.Is(err, actor.ErrWouldBlock) {
		t.Fatalf("Shutdown from a handler: %v, want ErrWouldBlock at once", err)
	}
	if err := s.Shutdown(context.Background()); err != nil {
		t.Fatalf("Shutdown after: %v", err)
	}
}
