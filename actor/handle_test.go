package actor_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
)

func ExampleSystem_SpawnHandle() {
	sys, _ := actor.NewSystem("example")
	defer sys.Shutdown(context.Background())

	got := make(chan string, 1)
	h, _ := sys.SpawnHandle("printer", "main", func() actor.Actor {
		return actor.ActorFunc(func(_ *actor.Context, msg any) (any, error) {
			got <- fmt.Sprint(msg)
			return nil, nil
		})
	})
	fmt.Println(h.Ref(), h.Path())
	_ = h.Tell("hello")
	fmt.Println(<-got)
	// Output:
	// troupe://example/printer/main printer/main
	// hello
}

// TestHandle: a handle tells the incarnation it was spawned as, and
// nothing else: once that one stopped, a tell fails with ErrStopped and
// is a dead letter, even with another actor under the same name.
func TestHandle(t *testing.T) {
	var (
		mu   sync.Mutex
		dead []actor.DeadLetter
	)
	sys := newSystem(t, actor.WithDeadLetterHandler(func(d actor.DeadLetter) {
		mu.Lock()
		defer mu.Unlock()
		dead = append(dead, d)
	}))
	got := make(chan string, 10)
	echo := func(name string) actor.Factory {
		return func() actor.Actor {
			return actor.ActorFunc(func(_ *actor.Context, msg any) (any, error) {
				got <- name + ":" + fmt.Sprint(msg)
				return nil, nil
			})
		}
	}
	h, err := sys.SpawnHandle("echo", "a/b", echo("first"))
	if err != nil {
		t.Fatal(err)
	}
	if want := actor.NewRef("test", "echo", "a/b"); h.Ref() != want || h.Path() != want.Path() {
		t.Fatalf("Ref, Path = %v, %q; want %v, %q", h.Ref(), h.Path(), want, want.Path())
	}
	if _, err := sys.SpawnHandle("echo", "a/b", echo("again")); !errors.Is(err, actor.ErrNameTaken) {
		t.Fatalf("a second spawn of the name: %v, want ErrNameTaken", err)
	}
	for _, m := range []string{"1", "2", "3"} {
		if err := h.Tell(m); err != nil {
			t.Fatal(err)
		}
	}
	for _, want := range []string{"first:1", "first:2", "first:3"} {
		if g := <-got; g != want {
			t.Fatalf("got %q, want %q", g, want)
		}
	}

	sys.Stop(h.Ref())
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	var h2 actor.Handle
	for { // the name is free once the first has stopped
		if h2, err = sys.SpawnHandle("echo", "a/b", echo("second")); err == nil {
			break
		}
		if !errors.Is(err, actor.ErrNameTaken) || ctx.Err() != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Millisecond)
	}
	if err := h.Tell("late"); !errors.Is(err, actor.ErrStopped) {
		t.Fatalf("a tell to a stopped incarnation: %v, want ErrStopped", err)
	}
	mu.Lock()
	n := len(dead)
	last := dead[n-1]
	mu.Unlock()
	if last.Message != "late" || last.To != h.Ref() || !errors.Is(last.Reason, actor.ErrStopped) {
		t.Fatalf("dead letter %+v", last)
	}
	if err := h2.Tell("4"); err != nil {
		t.Fatal(err)
	}
	if g := <-got; g != "second:4" {
		t.Fatalf("got %q, want second:4", g)
	}
	if err := sys.Tell(h.Ref(), "5"); err != nil { // the name reaches the second
		t.Fatal(err)
	}
	if g := <-got; g != "second:5" {
		t.Fatalf("got %q, want second:5", g)
	}
}

// TestHandleSpawnErrors: SpawnHandle refuses what Spawn refuses.
func TestHandleSpawnErrors(t *testing.T) {
	sys := newSystem(t)
	for _, tc := range []struct {
		name     string
		kind, id string
		f        actor.Factory
	}{
		{"no kind", "", "a", func() actor.Actor { return actor.ActorFunc(nil) }},
		{"no id", "k", "", func() actor.Actor { return actor.ActorFunc(nil) }},
		{"nil factory", "k", "a", nil},
		{"factory returns nil", "k", "b", func() actor.Actor { return nil }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if h, err := sys.SpawnHandle(tc.kind, tc.id, tc.f); err == nil {
				t.Fatalf("spawned %v", h.Ref())
			}
		})
	}
}
