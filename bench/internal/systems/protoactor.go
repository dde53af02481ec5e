package systems

import (
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/scheduler"

	"github.com/troupe-go/troupe/bench/internal/measure"
)

// protoActor runs the actor suite on Proto.Actor Go through its one-item
// API: RootContext.Spawn, Send and RequestFuture(...).Result(), with
// actors made by PropsFromFunc and the default mailbox and dispatcher.
var protoActor = register(&System{
	Name: ProtoActor,
	Cases: map[string]Case{
		"pingpong":   protoPingpong,
		"fanin":      protoFanin,
		"ask":        protoAsk,
		"spawn":      protoSpawn,
		"idle_actor": protoIdle,
		"idle_1m":    protoIdle,
	},
})

// protoMsg is the preallocated pointer message of the tell scenarios.
type protoMsg struct{}

// protoAskTimeout bounds one ask; no ask comes near it.
const protoAskTimeout = 30 * time.Second

// protoSystem starts an actor system that logs warnings and errors only
// (its default logs every start at Info level on stderr).
func protoSystem() *actor.ActorSystem {
	quiet := func(*actor.ActorSystem) *slog.Logger {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	return actor.NewActorSystem(actor.WithLoggerFactory(quiet))
}

// protoShutdown stops the given actors, waiting for each, then the system.
func protoShutdown(sys *actor.ActorSystem, pids ...*actor.PID) {
	for _, pid := range pids {
		_ = sys.Root.StopFuture(pid).Wait()
	}
	sys.Shutdown()
}

// protoPingpong: actor a tells b, b tells a back, p.N round trips. The
// first tell comes from the root context inside the timed region.
func protoPingpong(p Params) (measure.Figures, error) {
	sys := protoSystem()
	msg := &protoMsg{}
	done := make(chan struct{})
	left := p.N // touched only by a's handler
	var a, b *actor.PID
	a = sys.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		if _, ok := ctx.Message().(*protoMsg); !ok {
			return
		}
		if left--; left == 0 {
			close(done)
			return
		}
		ctx.Send(b, msg)
	}))
	b = sys.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		if _, ok := ctx.Message().(*protoMsg); ok {
			ctx.Send(a, msg)
		}
	}))
	m := measure.Start()
	sys.Root.Send(b, msg)
	<-done
	f := m.Stop(p.N)
	protoShutdown(sys, a, b)
	return f, nil
}

// protoFanin: p.Senders goroutines tell one actor p.N messages in all,
// timed from their release until the actor has handled the last.
func protoFanin(p Params) (measure.Figures, error) {
	sys := protoSystem()
	msg := &protoMsg{}
	per := p.N / p.Senders
	total := per * p.Senders
	done := make(chan struct{})
	left := total // touched only by the actor's handler
	pid := sys.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		if _, ok := ctx.Message().(*protoMsg); ok {
			if left--; left == 0 {
				close(done)
			}
		}
	}))
	start := make(chan struct{})
	for range p.Senders {
		go func() {
			<-start
			for range per {
				sys.Root.Send(pid, msg)
			}
		}()
	}
	m := measure.Start()
	close(start)
	<-done
	f := m.Stop(total)
	protoShutdown(sys, pid)
	return f, nil
}

// protoAsk: the calling goroutine asks one actor p.N times in sequence;
// the actor answers n with n+1.
func protoAsk(p Params) (measure.Figures, error) {
	sys := protoSystem()
	pid := sys.Root.Spawn(actor.PropsFromFunc(protoAnswer))
	m := measure.Start()
	for i := range p.N {
		if err := protoCheckAnswer(sys.Root.RequestFuture(pid, i, protoAskTimeout), i); err != nil {
			return measure.Figures{}, err
		}
	}
	f := m.Stop(p.N)
	protoShutdown(sys, pid)
	return f, nil
}

// protoAnswer answers an int question n with n+1 and ignores the rest.
func protoAnswer(ctx actor.Context) {
	if n, ok := ctx.Message().(int); ok {
		ctx.Respond(n + 1)
	}
}

func protoCheckAnswer(f *actor.Future, n int) error {
	res, err := f.Result()
	if err != nil {
		return fmt.Errorf("Proto.Actor: ask %d: %w", n, err)
	}
	if got, _ := res.(int); got != n+1 {
		return fmt.Errorf("Proto.Actor: ask %d answered %v, want %d", n, res, n+1)
	}
	return nil
}

// protoSpawn: the calling goroutine spawns p.N actors, timed until the
// last Spawn returns. Each actor's Started message is handled
// asynchronously, on a goroutine of its own, partly after the timed region.
func protoSpawn(p Params) (measure.Figures, error) {
	sys := protoSystem()
	props := actor.PropsFromFunc(func(actor.Context) {})
	m := measure.Start()
	for range p.N {
		sys.Root.Spawn(props)
	}
	f := m.Stop(p.N)
	f.Note = "spawn is timed until the last Spawn call returns; Proto.Actor handles each actor's Started message afterwards, asynchronously"
	sys.Shutdown()
	return f, nil
}

// protoIdle serves idle_actor and idle_1m: p.N actors are spawned (timed:
// NsPerOp and CPUNsPerOp are the spawn's), then each handles one message,
// one fired timer and one ask, and the idle footprint is measured. One
// warm-up actor, used first and excluded, pays for shared state.
func protoIdle(p Params) (measure.Figures, error) {
	sys := protoSystem()
	defer sys.Shutdown()
	idle := newProtoIdler(sys)
	if err := idle.use(idle.spawn(make([]*actor.PID, 1))); err != nil {
		return measure.Figures{}, err
	}
	pids := make([]*actor.PID, p.N)
	time.Sleep(idleSettle)
	before := measure.TakeFootprint()
	m := measure.Start()
	idle.spawn(pids)
	spawned := m.Stop(p.N)
	if err := idle.use(pids); err != nil {
		return measure.Figures{}, err
	}
	time.Sleep(idleSettle)
	after := measure.TakeFootprint()
	f := measure.PerItem(before, after, p.N)
	f.NsPerOp, f.CPUNsPerOp, f.AllocsPerOp = spawned.NsPerOp, spawned.CPUNsPerOp, spawned.AllocsPerOp
	f.Note = "the fired timer is a 1 ms scheduler.TimerScheduler.SendOnce (a time.AfterFunc that sends the actor a message), from one scheduler on the root context shared by all actors"
	runtime.KeepAlive(pids)
	return f, nil
}

// protoIdler spawns the actors of the idle scenarios and puts each through
// its message, timer and ask.
type protoIdler struct {
	sys   *actor.ActorSystem
	props *actor.Props
	fired sync.WaitGroup
	kick  *protoMsg
	tick  *protoTick
}

// protoTick is the message the actor's timer sends it.
type protoTick struct{}

// protoAskBatch is how many asks are in flight at once while the idle
// actors are used: enough to keep both sides busy, few enough that the
// futures are garbage before the footprint is read.
const protoAskBatch = 1000

func newProtoIdler(sys *actor.ActorSystem) *protoIdler {
	d := &protoIdler{sys: sys, kick: &protoMsg{}, tick: &protoTick{}}
	timers := scheduler.NewTimerScheduler(sys.Root)
	d.props = actor.PropsFromFunc(func(ctx actor.Context) {
		switch ctx.Message().(type) {
		case *protoMsg:
			timers.SendOnce(time.Millisecond, ctx.Self(), d.tick)
		case *protoTick:
			d.fired.Done()
		default:
			protoAnswer(ctx)
		}
	})
	return d
}

// spawn fills pids with new actors and returns it.
func (d *protoIdler) spawn(pids []*actor.PID) []*actor.PID {
	for i := range pids {
		pids[i] = d.sys.Root.Spawn(d.props)
	}
	return pids
}

// use tells each actor one message (which starts its timer) and asks it
// once, then waits until every timer has fired.
func (d *protoIdler) use(pids []*actor.PID) error {
	d.fired.Add(len(pids))
	futures := make([]*actor.Future, 0, protoAskBatch)
	for i, pid := range pids {
		d.sys.Root.Send(pid, d.kick)
		futures = append(futures, d.sys.Root.RequestFuture(pid, i, protoAskTimeout))
		if len(futures) < protoAskBatch && i < len(pids)-1 {
			continue
		}
		for j, f := range futures {
			if err := protoCheckAnswer(f, i+1-len(futures)+j); err != nil {
				return err
			}
		}
		futures = futures[:0]
	}
	d.fired.Wait()
	return nil
}
