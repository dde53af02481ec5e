package actor

import (
	"errors"
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
	harnesses sync.Map // *cell -> actorhook.Effects
)

// effectsOf returns where a harnessed cell's effects go, nil for a cell of
// a running system.
func effectsOf(c *cell) actorhook.Effects {
	if harnessed.Load() == 0 {
		return nil
	}
	fx, ok := harnesses.Load(c)
	if !ok {
		return nil
	}
	return fx.(actorhook.Effects)
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
	harnesses.Store(c, fx)
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
