package systems

import (
	"strconv"
	"sync"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/loop"

	"github.com/troupe-go/troupe/bench/internal/measure"
)

// troupe's mesh and idle_timers cases.
func init() {
	for _, n := range []string{"mesh_100", "mesh_10k", "mesh_1m"} {
		troupe.Cases[n] = troupeMesh
	}
	troupe.Cases["idle_timers_10k"] = troupeIdleTimersRearm
	troupe.Cases["idle_timers_1m"] = troupeIdleTimersRearm
	troupe.Cases["idle_timers_fire_10k"] = troupeIdleTimersFire
	troupe.Cases["idle_timers_fire_1m"] = troupeIdleTimersFire
}

// troupeMesh: p.Actors actors forward MeshTokens messages to random peers
// until p.N hops have been handled.
func troupeMesh(p Params) (measure.Figures, error) {
	s, err := troupeActorSystem()
	if err != nil {
		return measure.Figures{}, err
	}
	defer troupeActorShutdown(s)
	n := max(p.Actors, 1)
	refs := make([]actor.Ref, n) // written before the first tell, read-only after
	var done sync.WaitGroup
	for i := range refs {
		rng := newXorshift(i)
		refs[i], err = s.Spawn("mesh", strconv.Itoa(i), func() actor.Actor {
			return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
				h, ok := msg.(*meshHop)
				if !ok {
					return nil, nil
				}
				if h.left == 0 {
					done.Done()
					return nil, nil
				}
				h.left--
				return nil, c.Tell(refs[rng.intn(n)], h)
			})
		})
		if err != nil {
			return measure.Figures{}, err
		}
	}
	hops, total := meshTokens(p)
	done.Add(len(hops))
	m := measure.Start()
	for i, h := range hops {
		if err := s.Tell(refs[i%n], h); err != nil {
			return measure.Figures{}, err
		}
	}
	done.Wait()
	return m.Stop(total), nil
}

// troupeTimerKick makes an idle_timers actor (re-)arm its keyed timer.
type troupeTimerKick struct{}

// troupeTimerActors spawns p.Actors actors on s, each arming its timer
// (key "t", a random deadline in the next 10 min) on every kick and
// counting kicks, and fires if countFires, on the returned wait groups.
// The re-arm case leaves fires uncounted: a few of the random deadlines
// fall within its run, and a Done the wait group never expected would
// panic in the handler and fail the actor.
func troupeTimerActors(s *actor.System, p Params, countFires bool) (refs []actor.Ref, kicked, fired *sync.WaitGroup, err error) {
	kicked, fired = new(sync.WaitGroup), new(sync.WaitGroup)
	refs = make([]actor.Ref, max(p.Actors, 1))
	for i := range refs {
		rng := newXorshift(i)
		refs[i], err = s.Spawn("timed", strconv.Itoa(i), func() actor.Actor {
			return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
				switch msg.(type) {
				case *troupeTimerKick:
					err := c.Timers().StartSingle("t", rng.deadline(), tick{})
					kicked.Done()
					return nil, err
				case tick:
					if countFires {
						fired.Done()
					}
				}
				return nil, nil
			})
		})
		if err != nil {
			return nil, nil, nil, err
		}
	}
	return refs, kicked, fired, nil
}

// troupeTimersArmed spawns the actors and arms every one (untimed), then
// re-arms p.N random ones, timed; it returns the re-arm's figures.
func troupeTimersArmed(s *actor.System, p Params, countFires bool) (measure.Figures, *sync.WaitGroup, []actor.Ref, error) {
	refs, kicked, fired, err := troupeTimerActors(s, p, countFires)
	if err != nil {
		return measure.Figures{}, nil, nil, err
	}
	kick := &troupeTimerKick{}
	kicked.Add(len(refs))
	for _, r := range refs {
		if err := s.Tell(r, kick); err != nil {
			return measure.Figures{}, nil, nil, err
		}
	}
	kicked.Wait()
	rng := newXorshift(-1)
	kicked.Add(p.N)
	m := measure.Start()
	for range p.N {
		if err := s.Tell(refs[rng.intn(len(refs))], kick); err != nil {
			return measure.Figures{}, nil, nil, err
		}
	}
	kicked.Wait()
	return m.Stop(p.N), fired, refs, nil
}

// troupeIdleTimersRearm: idle_timers on the real clock, timing the re-arms.
func troupeIdleTimersRearm(p Params) (measure.Figures, error) {
	s, err := troupeActorSystem()
	if err != nil {
		return measure.Figures{}, err
	}
	defer troupeActorShutdown(s)
	f, _, _, err := troupeTimersArmed(s, p, false)
	f.Note = "keyed timers: Context.Timers().StartSingle under one key per actor; re-arms are tells from one goroutine"
	return f, err
}

// troupeIdleTimersFire: idle_timers on a virtual clock, timing the firing
// of every actor's timer after one 10 min advance.
func troupeIdleTimersFire(p Params) (measure.Figures, error) {
	vc := loop.NewVirtualClock()
	s, err := actor.NewSystem("bench", actor.WithClock(vc))
	if err != nil {
		return measure.Figures{}, err
	}
	defer troupeActorShutdown(s)
	_, fired, refs, err := troupeTimersArmed(s, p, true)
	if err != nil {
		return measure.Figures{}, err
	}
	fired.Add(len(refs))
	m := measure.Start()
	vc.Advance(idleTimerWindow + time.Millisecond)
	fired.Wait()
	f := m.Stop(len(refs))
	f.Note = "virtual clock (actor.WithClock): one Advance of 10 min, timed until every timer's message is handled"
	return f, nil
}
