package isolate

import (
	"context"
	"fmt"

	"github.com/troupe-go/troupe/actor"
)

// supervisor is the parent's actor for a group: each of its instances
// runs one child process, started by its Started hook; the process's
// exit fails it, so supervision restarts it with a fresh process.
type supervisor struct {
	g *Group
	p *process // nil once it exited
}

// Messages the process's watcher sends the supervisor.
type (
	childReady  struct{ p *process }
	childExited struct{ p *process }
)

// Started starts the process, and the goroutine that watches it.
func (s *supervisor) Started(c *actor.Context) {
	p, err := s.g.startProcess()
	if err != nil {
		s.g.failed(err)
		c.Fail(err)
	}
	s.p = p
	go s.g.watch(p, c.Self())
}

// Receive handles what the watcher reports about the current process;
// reports about an earlier one are stale and ignored.
func (s *supervisor) Receive(c *actor.Context, msg any) (any, error) {
	switch m := msg.(type) {
	case childReady:
		if m.p == s.p {
			s.g.ready(m.p.pid())
		}
	case childExited:
		if m.p == s.p {
			s.p = nil
			err := m.p.exitError()
			s.g.failed(err)
			c.Fail(err)
		}
	default:
		return nil, fmt.Errorf("%w: %T (a group's supervisor takes no messages)", actor.ErrUnhandled, msg)
	}
	return nil, nil
}

// Restarting ends the process of the failed instance, if it still runs.
func (s *supervisor) Restarting(*actor.Context, error) { s.retire() }

// Stopped ends the process and tells the group it is gone.
func (s *supervisor) Stopped(*actor.Context) {
	s.retire()
	s.g.gone()
}

// retire stops the current process and waits for it and its watcher.
func (s *supervisor) retire() {
	if s.p == nil {
		return
	}
	p := s.p
	s.p = nil
	p.retired.Store(true)
	p.stop(s.g.cfg.stopGrace)
	<-p.watched
}

// watch waits for the process to be ready, then for its exit, and tells
// the supervisor of both, unless it was retired meanwhile.
func (g *Group) watch(p *process, self actor.Ref) {
	defer close(p.watched)
	err := p.awaitReady(g.cfg.startTimeout)
	if err == nil {
		// Ready once the host hears the child's node too, so that a
		// watch or ask made right after Spawn finds it.
		ctx, cancel := context.WithTimeout(p.ctx, g.cfg.startTimeout)
		err = g.h.node.WaitPeer(ctx, g.name)
		cancel()
		if err != nil {
			p.end(fmt.Errorf("%w: its node was not heard: %w", ErrStartTimeout, err))
		}
	}
	if err == nil && !p.retired.Load() {
		_ = g.h.sys.Tell(self, childReady{p})
	}
	<-p.done
	if !p.retired.Load() {
		_ = g.h.sys.Tell(self, childExited{p})
	}
}
