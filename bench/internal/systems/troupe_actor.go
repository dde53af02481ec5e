package systems

import (
	"context"
	"fmt"
	"runtime"
	"strconv"
	"sync"
	"time"

	"github.com/troupe-go/troupe/actor"

	"github.com/troupe-go/troupe/bench/internal/measure"
)

// troupe's column of the actor suite: actors of one actor.System, told
// and asked through its one-item API (System.Tell, actor.Ask).
func init() {
	troupe.Cases["pingpong"] = troupePingpong
	troupe.Cases["fanin"] = troupeFanin
	troupe.Cases["ask"] = troupeAsk
	troupe.Cases["spawn"] = troupeSpawn
	troupe.Cases["idle_actor"] = troupeIdleActors
	troupe.Cases["idle_1m"] = troupeIdleActors
}

// troupeMsg is the preallocated pointer message of the tell scenarios.
type troupeMsg struct{}

func troupeActorSystem() (*actor.System, error) { return actor.NewSystem("bench") }

func troupeActorShutdown(s *actor.System) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_ = s.Shutdown(ctx)
}

// troupePingpong: actor a tells b, b tells a back, p.N round trips.
func troupePingpong(p Params) (measure.Figures, error) {
	s, err := troupeActorSystem()
	if err != nil {
		return measure.Figures{}, err
	}
	defer troupeActorShutdown(s)
	msg := &troupeMsg{}
	done := make(chan struct{})
	left := p.N // touched only by a's handler
	var a, b actor.Ref
	a, _ = s.Spawn("ping", "a", func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, _ any) (any, error) {
			if left--; left == 0 {
				close(done)
				return nil, nil
			}
			return nil, c.Tell(b, msg)
		})
	})
	b, _ = s.Spawn("pong", "b", func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, _ any) (any, error) { return nil, c.Tell(a, msg) })
	})
	m := measure.Start()
	if err := s.Tell(b, msg); err != nil {
		return measure.Figures{}, err
	}
	<-done
	return m.Stop(p.N), nil
}

// troupeFanin: p.Senders goroutines tell one actor p.N messages in all.
func troupeFanin(p Params) (measure.Figures, error) {
	s, err := troupeActorSystem()
	if err != nil {
		return measure.Figures{}, err
	}
	defer troupeActorShutdown(s)
	msg := &troupeMsg{}
	per := p.N / p.Senders
	total := per * p.Senders
	done := make(chan struct{})
	left := total // touched only by the actor's handler
	ref, _ := s.Spawn("sink", "s", func() actor.Actor {
		return actor.ActorFunc(func(*actor.Context, any) (any, error) {
			if left--; left == 0 {
				close(done)
			}
			return nil, nil
		})
	})
	start := make(chan struct{})
	for range p.Senders {
		go func() {
			<-start
			for range per {
				_ = s.Tell(ref, msg)
			}
		}()
	}
	m := measure.Start()
	close(start)
	<-done
	return m.Stop(total), nil
}

// troupeAnswer answers an int question n with n+1.
func troupeAnswer(_ *actor.Context, msg any) (any, error) {
	if n, ok := msg.(int); ok {
		return n + 1, nil
	}
	return nil, nil
}

// troupeAsk: the calling goroutine asks one actor p.N times in sequence.
func troupeAsk(p Params) (measure.Figures, error) {
	s, err := troupeActorSystem()
	if err != nil {
		return measure.Figures{}, err
	}
	defer troupeActorShutdown(s)
	ref, _ := s.Spawn("answer", "a", func() actor.Actor { return actor.ActorFunc(troupeAnswer) })
	ctx := context.Background()
	m := measure.Start()
	for i := range p.N {
		got, err := actor.Ask[int](ctx, s, ref, i)
		if err != nil {
			return measure.Figures{}, fmt.Errorf("troupe: ask %d: %w", i, err)
		}
		if got != i+1 {
			return measure.Figures{}, fmt.Errorf("troupe: ask %d answered %d", i, got)
		}
	}
	return m.Stop(p.N), nil
}

// troupeSpawn: the calling goroutine spawns p.N actors, timed until the
// last Spawn returns (each actor's start runs on its loop, afterwards).
func troupeSpawn(p Params) (measure.Figures, error) {
	s, err := troupeActorSystem()
	if err != nil {
		return measure.Figures{}, err
	}
	defer troupeActorShutdown(s)
	f := func() actor.Actor { return actor.ActorFunc(troupeAnswer) }
	m := measure.Start()
	for i := range p.N {
		if _, err := s.Spawn("spawned", strconv.Itoa(i), f); err != nil {
			return measure.Figures{}, err
		}
	}
	fig := m.Stop(p.N)
	fig.Note = "spawn is timed until the last Spawn call returns; each actor's start runs on its loop afterwards"
	return fig, nil
}

// troupeIdleActors serves idle_actor and idle_1m as protoIdle does: p.N
// actors spawned (timed), each then handles one message (which starts a
// 1 ms keyed timer), the timer's message and one ask; then the footprint.
func troupeIdleActors(p Params) (measure.Figures, error) {
	s, err := troupeActorSystem()
	if err != nil {
		return measure.Figures{}, err
	}
	defer troupeActorShutdown(s)
	var fired sync.WaitGroup
	f := func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			switch msg.(type) {
			case *troupeMsg:
				return nil, c.Timers().StartSingle("tick", time.Millisecond, tick{})
			case tick:
				fired.Done()
				return nil, nil
			}
			return troupeAnswer(c, msg)
		})
	}
	spawn := func(refs []actor.Ref, from int) error {
		for i := range refs {
			r, err := s.Spawn("idle", strconv.Itoa(from+i), f)
			if err != nil {
				return err
			}
			refs[i] = r
		}
		return nil
	}
	use := func(refs []actor.Ref) error {
		fired.Add(len(refs))
		kick := &troupeMsg{}
		for i, r := range refs {
			if err := s.Tell(r, kick); err != nil {
				return err
			}
			if _, err := actor.Ask[int](context.Background(), s, r, i); err != nil {
				return err
			}
		}
		fired.Wait()
		return nil
	}
	warm := make([]actor.Ref, 1)
	if err := spawn(warm, -1); err != nil {
		return measure.Figures{}, err
	}
	if err := use(warm); err != nil {
		return measure.Figures{}, err
	}
	refs := make([]actor.Ref, p.N)
	time.Sleep(idleSettle)
	before := measure.TakeFootprint()
	m := measure.Start()
	if err := spawn(refs, 0); err != nil {
		return measure.Figures{}, err
	}
	spawned := m.Stop(p.N)
	if err := use(refs); err != nil {
		return measure.Figures{}, err
	}
	time.Sleep(idleSettle)
	after := measure.TakeFootprint()
	fig := measure.PerItem(before, after, p.N)
	fig.NsPerOp, fig.CPUNsPerOp, fig.AllocsPerOp = spawned.NsPerOp, spawned.CPUNsPerOp, spawned.AllocsPerOp
	fig.Note = "the fired timer is a 1 ms keyed actor timer (Context.Timers().StartSingle); asks are sequential from one goroutine"
	runtime.KeepAlive(refs)
	return fig, nil
}

// tick is the message of the idle actors' timer.
type tick struct{}
