package netactor

import (
	"fmt"
	"net"
	"strconv"

	"go.uber.org/zap"

	"github.com/troupe-go/troupe/actor"
)

// Spawner spawns actors: an *actor.System (top-level actors) or an
// *actor.Context (children of the handler's actor).
type Spawner interface {
	Spawn(kind, id string, f actor.Factory, opts ...actor.SpawnOption) (actor.Ref, error)
}

var (
	_ Spawner = (*actor.System)(nil)
	_ Spawner = (*actor.Context)(nil)
)

// Server is a listener actor: it accepts connections on its own loop and
// spawns one connection actor per connection, as its supervised child
// (kind "<kind>.conn", ids "1", "2", ...). Stopping it (or shutting the
// system down) closes the listening socket first, then stops the
// connection actors, each flushing its accepted output before closing.
type Server struct {
	ref  actor.Ref
	addr net.Addr
}

// Ref returns the listener actor's ref.
func (s *Server) Ref() actor.Ref { return s.ref }

// Addr returns the address listened on (with the port picked for port 0).
func (s *Server) Addr() net.Addr { return s.addr }

// Serve listens on a TCP or unix address and spawns the listener actor
// kind/id with sp, serving each connection with a ConnActor from
// newConn. The socket is bound before Serve returns, so its errors are
// Serve's. Safe from any goroutine (and from a handler, with its Context
// as sp).
func Serve(sp Spawner, kind, id, network, address string, newConn func() ConnActor, opts ...Option) (*Server, error) {
	if newConn == nil {
		return nil, fmt.Errorf("netactor: Serve with a nil connection factory")
	}
	cfg, err := buildConfig(opts)
	if err != nil {
		return nil, err
	}
	ln, err := newListener(network, address, cfg)
	if err != nil {
		return nil, err
	}
	st := &serverState{ln: ln, cfg: cfg, newConn: newConn, connKind: kind + ".conn"}
	ref, err := sp.Spawn(kind, id, func() actor.Actor { return &listenerActor{st: st} })
	if err != nil {
		ln.closeSocket()
		return nil, err
	}
	return &Server{ref: ref, addr: ln.addr}, nil
}

// SpawnDial spawns a connection actor kind/id with sp that dials address
// and serves the connection with the ConnActor from newConn (its
// OpenedHook runs once connected; a failed dial runs ClosedHook with the
// error and stops the actor).
func SpawnDial(sp Spawner, kind, id, network, address string, newConn func() ConnActor, opts ...Option) (actor.Ref, error) {
	if newConn == nil {
		return actor.Ref{}, fmt.Errorf("netactor: SpawnDial with a nil connection factory")
	}
	cfg, err := buildConfig(opts)
	if err != nil {
		return actor.Ref{}, err
	}
	if !supported {
		return actor.Ref{}, ErrUnsupported
	}
	sh := &connShared{sock: Socket{fd: -1, network: network}, address: address, cfg: &cfg, newConn: newConn}
	return sp.Spawn(kind, id, sh.factory, cfg.connOptions...)
}

// serverState is the listener actor's state that outlives its instances.
type serverState struct {
	ln       *Listener
	cfg      config
	newConn  func() ConnActor
	connKind string
	seq      uint64
	serving  bool
}

// listenerActor accepts connections and spawns their actors.
type listenerActor struct {
	st  *serverState
	ctx *actor.Context
}

// Started serves the listening socket on the actor's loop (once: a
// restarted instance keeps it).
func (a *listenerActor) Started(c *actor.Context) {
	a.ctx = c
	if a.st.serving {
		a.st.ln.accept = a.accepted
		return
	}
	if err := a.st.ln.serve(c.Loop(), a.accepted); err != nil {
		c.Logger().Error("netactor: listener not served", zap.Error(err))
		a.st.ln.closeSocket()
		c.Stop(c.Self())
		return
	}
	a.st.serving = true
	c.Logger().Debug("netactor: listening", zap.Stringer("addr", a.st.ln.addr))
}

// accepted spawns the connection actor of an accepted socket.
func (a *listenerActor) accepted(s Socket, err error) {
	if err != nil {
		a.ctx.Logger().Warn("netactor: accept", zap.Error(err))
		return
	}
	a.st.seq++
	sh := &connShared{sock: s, cfg: &a.st.cfg, newConn: a.st.newConn}
	if _, err := a.ctx.Spawn(a.st.connKind, strconv.FormatUint(a.st.seq, 10), sh.factory, a.st.cfg.connOptions...); err != nil {
		_ = s.Close()
		a.ctx.Logger().Warn("netactor: connection actor not spawned", zap.Error(err))
	}
}

// Receive answers no messages: a listener is driven by its socket.
func (a *listenerActor) Receive(_ *actor.Context, msg any) (any, error) {
	return nil, fmt.Errorf("netactor: listener actor got unexpected message %T", msg)
}

// Stopping closes the listening socket before the connection actors stop.
func (a *listenerActor) Stopping(*actor.Context) {
	if !a.st.ln.closed {
		_ = a.st.ln.Close()
	}
}

// Stopped closes the listening socket if Stopping did not run (an actor
// stopped while failed).
func (a *listenerActor) Stopped(*actor.Context) {
	if !a.st.ln.closed {
		_ = a.st.ln.Close()
	}
}
