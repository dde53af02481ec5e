package actor

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"go.uber.org/zap"

	"github.com/troupe-go/troupe/internal/actorhook"
	"github.com/troupe-go/troupe/loop"
)

// The test kit's window on the runtime; see internal/actorhook.
func init() {
	actorhook.Scheduler = func(sys any) *loop.Scheduler { return sys.(*System).sched }
	actorhook.NewContext = newHarnessContext
	actorhook.OrderlyStop = orderlyStop
	actorhook.Failed = func(r any) (error, bool) {
		if f, ok := r.(*failure); ok {
			return f.err, true
		}
		return nil, false
	}
}

// orderlyStop: see actorhook.OrderlyStop.
func orderlyStop(reason error) bool {
	return errors.Is(reason, errParentStopping) || errors.Is(reason, errParentRestarting) ||
		errors.Is(reason, ErrSystemClosed) || errors.Is(reason, ErrStartFailed)
}

// Cells driven by a test harness, with where their effects go. The count
// keeps the check to one atomic load for every other cell.
var (
	harnessed atomic.Int32
	harnesses sync.Map // *cell -> *harness
)

// harness is where a harnessed cell's effects go: fx, for what its handlers
// do through their Context, and sends, the System they see
// ([Context.System]), for what they do through a System (typed refs send
// there).
type harness struct {
	fx    actorhook.Effects
	sends *System
}

// harnessOf returns a harnessed cell's harness, nil for a cell of a
// running system.
func harnessOf(c *cell) *harness {
	if harnessed.Load() == 0 {
		return nil
	}
	h, ok := harnesses.Load(c)
	if !ok {
		return nil
	}
	return h.(*harness)
}

// effectsOf returns where a harnessed cell's effects go, nil for a cell of
// a running system.
func effectsOf(c *cell) actorhook.Effects {
	if h := harnessOf(c); h != nil {
		return h.fx
	}
	return nil
}

// harnessSends is what makes a System record, for a test harness, the
// sends made through it. Such a System hosts no actor and is named "" for
// the runtime, so that every send through it takes the path of a send to
// another system, which hands it to record (sendRemote, systemRemote);
// System.Name says name.
type harnessSends struct {
	name string
	fx   actorhook.Effects
}

// newHarnessSends returns the System through which a harnessed actor of
// the system named name, with effects fx, sends.
func newHarnessSends(name string, log *zap.Logger, fx actorhook.Effects) *System {
	base := defaultSpawnConfig
	s := &System{log: log, reg: newRegistry(), spawnBase: &base, harness: &harnessSends{name: name, fx: fx}}
	base.sys = s
	s.closed.Store(true) // it spawns nothing
	return s
}

// send records a tell made through a harness's System; an ask fails, as
// it would from a handler of a running system. Its error is the send's.
func (h *harnessSends) send(to Ref, msg any, reply replyFunc) error {
	if reply != nil {
		err := fmt.Errorf("%w: %s asked through the System in a behavior test, which answers no asks", ErrWouldBlock, to)
		reply(nil, err)
		return err
	}
	return h.fx.Tell(to, msg)
}

// system records a stop made through a harness's System; nothing else of
// a System's reaches another system.
func (h *harnessSends) system(to Ref, sig any) {
	if _, ok := sig.(stopSignal); ok {
		h.fx.Stop(to)
	}
}

// newHarnessContext makes a cell that belongs to no running system: an
// empty System (no scheduler, no actors) only names it and logs. A child's
// cell shares its parent's and is named under it, as spawn names it.
func newHarnessContext(parent any, system, kind, id string, log *zap.Logger, fx actorhook.Effects) (any, func()) {
	var c *cell
	if p, ok := parent.(*Context); ok && p != nil {
		pc := p.c()
		c = &cell{cfg: pc.cfg, state: cellRunning, parent: pc}
		name(c, childRef(pc, kind, id))
	} else {
		base := defaultSpawnConfig
		sys := &System{name: system, log: log.With(zap.String("system", system)), reg: newRegistry(), spawnBase: &base}
		base.sys = sys
		sys.closed.Store(true)
		c = &cell{cfg: &base, state: cellRunning}
		name(c, NewRef(system, kind, id))
	}
	sys := c.system()
	harnesses.Store(c, &harness{fx: fx, sends: newHarnessSends(sys.name, sys.log, fx)})
	harnessed.Add(1)
	var once sync.Once
	return c.context(), func() {
		once.Do(func() {
			harnesses.Delete(c)
			harnessed.Add(-1)
		})
	}
}

// name gives a harnessed cell its identity, as newCell does.
func name(c *cell, r Ref) { c.path = r.path }

// childRef is the ref a spawn from parent gives the child, as spawn does.
func childRef(parent *cell, kind, id string) Ref { return parent.system().nameOf(parent, kind, id) }

// spawnEffect records a harnessed spawn.
func spawnEffect(c *cell, fx actorhook.Effects, kind, id string, f Factory, opts []SpawnOption) (Ref, error) {
	ref := childRef(c, kind, id)
	if err := fx.Spawn(ref, f, opts); err != nil {
		return Ref{}, err
	}
	return ref, nil
}
