package actor_test

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/troupe-go/troupe/actor"
)

// nameReuser is a parent that frees its child worker/w's name by one of the
// ways a name can be freed, then spawns worker/w again as soon as it may:
// the moment Context.Spawn stops saying ErrNameTaken, or (polled) the
// moment System.Actor no longer finds the old child, or in the handler of
// the old child's Terminated, where the name must be free. Each attempt is
// a message to itself, so the runtime's own signals run between attempts.
type nameReuser struct {
	free  func(*actor.Context, actor.Ref)
	poll  bool // wait for System.Actor to lose the child before spawning
	watch bool // spawn once, from the handler of the child's Terminated
	opts  []actor.SpawnOption
	done  chan<- error
	tries int
}

// reusedWorker is the child: "stop" stops it from its own handler, "boom"
// panics, anything else is echoed.
type reusedWorker struct{}

func (reusedWorker) Receive(c *actor.Context, msg any) (any, error) {
	switch msg {
	case "stop":
		c.Stop(c.Self())
	case "boom":
		panic("boom")
	}
	return msg, nil
}

func (p *nameReuser) Receive(c *actor.Context, msg any) (any, error) {
	child := c.Self().Child("worker", "w")
	if _, ok := msg.(actor.Terminated); ok {
		_, err := c.Spawn("worker", "w", func() actor.Actor { return reusedWorker{} }, p.opts...)
		p.done <- err // ErrNameTaken too: the name is free by then
		return nil, nil
	}
	switch msg {
	case "start":
		if _, err := c.Spawn("worker", "w", func() actor.Actor { return reusedWorker{} }, p.opts...); err != nil {
			p.done <- err
			return nil, nil
		}
		if p.watch {
			c.Watch(child)
			p.free(c, child)
			return nil, nil
		}
		p.free(c, child)
		return nil, c.Tell(c.Self(), "respawn")
	case "respawn":
		p.tries++
		if p.poll {
			if _, alive := c.System().Actor(child); alive {
				return nil, c.Tell(c.Self(), "respawn")
			}
		}
		_, err := c.Spawn("worker", "w", func() actor.Actor { return reusedWorker{} }, p.opts...)
		if errors.Is(err, actor.ErrNameTaken) && p.tries < 1_000_000 {
			return nil, c.Tell(c.Self(), "respawn")
		}
		p.done <- err
	}
	return nil, nil
}

// A child spawned under the name of a sibling that just stopped is
// supervised like any child, whatever freed the name: the parent's stop
// stops it first, and Shutdown has nothing left to wait for. (It used to
// be dropped from its parent's children when the old child's stop notice
// arrived after the spawn: it outlived its parent and held Shutdown to its
// deadline.) The parents are stopped right after the respawn, or, in the
// racing case, while they respawn.
func TestRespawnUnderFreedNameIsSupervised(t *testing.T) {
	stop := func(c *actor.Context, r actor.Ref) { c.Stop(r) }
	poison := func(c *actor.Context, r actor.Ref) {
		if err := c.System().Poison(r); err != nil {
			panic(err)
		}
	}
	tell := func(msg string) func(*actor.Context, actor.Ref) {
		return func(c *actor.Context, r actor.Ref) {
			if err := c.Tell(r, msg); err != nil {
				panic(err)
			}
		}
	}
	oneLife := []actor.SpawnOption{actor.WithRestartLimit(0, time.Minute)}
	const parents = 100
	for _, tc := range []struct {
		name   string
		free   func(*actor.Context, actor.Ref)
		opts   []actor.SpawnOption
		racing bool // stop the parent while it respawns
	}{
		{name: "stop", free: stop},
		{name: "poison", free: poison},
		{name: "child stops itself", free: tell("stop")},
		{name: "restart limit", free: tell("boom"), opts: oneLife},
		{name: "stop, parent stopped meanwhile", free: stop, racing: true},
		{name: "restart limit, parent stopped meanwhile", free: tell("boom"), opts: oneLife, racing: true},
	} {
		for _, when := range []string{"spawn refused", "actor gone", "terminated"} {
			t.Run(tc.name+"/"+when, func(t *testing.T) {
				t.Parallel()
				respawnRound(t, parents, func(done chan<- error) actor.Actor {
					return &nameReuser{free: tc.free, poll: when == "actor gone", watch: when == "terminated", opts: tc.opts, done: done}
				}, tc.racing)
			})
		}
	}
}

// respawnRound runs n respawners at once, stops each once it has
// respawned (or at once, racing), and checks that no worker outlives its
// parent and that Shutdown returns in time.
func respawnRound(t *testing.T, n int, newParent func(chan<- error) actor.Actor, racing bool) {
	s, err := actor.NewSystem("respawn", actor.WithLogger(zap.NewNop()))
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	stopped := map[actor.Ref]chan struct{}{}
	cancel := s.SubscribeEvents(func(e actor.Event) {
		if e.Kind != actor.Stopped {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if ch, ok := stopped[e.Actor]; ok {
			close(ch)
		}
	})
	defer cancel()
	done := make(chan error, n)
	refs := make([]actor.Ref, n)
	for i := range refs {
		refs[i], err = s.Spawn("respawner", strconv.Itoa(i), func() actor.Actor { return newParent(done) })
		if err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		stopped[refs[i]] = make(chan struct{})
		mu.Unlock()
		if err := s.Tell(refs[i], "start"); err != nil {
			t.Fatal(err)
		}
		if racing {
			s.Stop(refs[i])
		}
	}
	if !racing {
		for range n {
			if err := <-done; err != nil {
				t.Fatalf("respawn: %v", err)
			}
		}
		for _, r := range refs {
			s.Stop(r)
		}
	}
	for _, r := range refs {
		<-stopped[r]
		if info, alive := s.Actor(r.Child("worker", "w")); alive {
			t.Errorf("%v outlived its parent's stop: %+v", info.Ref, info)
		}
	}
	limit := waitLimit
	if t.Failed() {
		limit = time.Second // the orphans named hold it to its deadline
	}
	ctx, cancelShutdown := context.WithTimeout(context.Background(), limit)
	defer cancelShutdown()
	if err := s.Shutdown(ctx); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
}
