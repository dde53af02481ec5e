package systems

import (
	"sync"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/scheduler"

	"github.com/troupe-go/troupe/bench/internal/measure"
)

// Proto.Actor's mesh and idle_timers cases.
func init() {
	for _, n := range []string{"mesh_100", "mesh_10k", "mesh_1m"} {
		protoActor.Cases[n] = protoMesh
	}
	protoActor.Cases["idle_timers_10k"] = protoIdleTimers
	protoActor.Cases["idle_timers_1m"] = protoIdleTimers
	protoActor.cannotRun("no virtual clock: its timers are runtime timers (time.AfterFunc), and firing them would take 10 min of real time",
		"idle_timers_fire_10k", "idle_timers_fire_1m")
}

// protoMesh: p.Actors actors forward MeshTokens messages to random peers
// until p.N hops have been handled.
func protoMesh(p Params) (measure.Figures, error) {
	sys := protoSystem()
	defer sys.Shutdown()
	n := max(p.Actors, 1)
	pids := make([]*actor.PID, n) // written before the first send, read-only after
	var done sync.WaitGroup
	for i := range pids {
		rng := newXorshift(i)
		pids[i] = sys.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
			h, ok := ctx.Message().(*meshHop)
			if !ok {
				return
			}
			if h.left == 0 {
				done.Done()
				return
			}
			h.left--
			ctx.Send(pids[rng.intn(n)], h)
		}))
	}
	hops, total := meshTokens(p)
	done.Add(len(hops))
	m := measure.Start()
	for i, h := range hops {
		sys.Root.Send(pids[i%n], h)
	}
	done.Wait()
	return m.Stop(total), nil
}

// protoIdleTimers: idle_timers' re-arms. Each actor keeps the CancelFunc
// of its one SendOnce and cancels it before arming anew: Proto.Actor's
// equivalent of a keyed timer.
func protoIdleTimers(p Params) (measure.Figures, error) {
	sys := protoSystem()
	defer sys.Shutdown()
	timers := scheduler.NewTimerScheduler(sys.Root)
	var kicked sync.WaitGroup
	kick, tick := &protoMsg{}, &protoTick{}
	pids := make([]*actor.PID, max(p.Actors, 1))
	for i := range pids {
		rng := newXorshift(i)
		var cancel scheduler.CancelFunc
		pids[i] = sys.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
			if _, ok := ctx.Message().(*protoMsg); !ok {
				return
			}
			if cancel != nil {
				cancel()
			}
			cancel = timers.SendOnce(rng.deadline(), ctx.Self(), tick)
			kicked.Done()
		}))
	}
	kicked.Add(len(pids))
	for _, pid := range pids {
		sys.Root.Send(pid, kick)
	}
	kicked.Wait()
	rng := newXorshift(-1)
	kicked.Add(p.N)
	m := measure.Start()
	for range p.N {
		sys.Root.Send(pids[rng.intn(len(pids))], kick)
	}
	kicked.Wait()
	f := m.Stop(p.N)
	f.Note = "a scheduler.TimerScheduler.SendOnce per actor (a time.AfterFunc), the previous one cancelled; re-arms are sends from one goroutine"
	return f, nil
}
