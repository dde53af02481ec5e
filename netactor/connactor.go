package netactor

import (
	"errors"

	"go.uber.org/zap"

	"github.com/troupe-go/troupe/actor"
)

// ConnActor is a connection actor: an ordinary actor (Receive gets the
// messages sent to its ref, its timers are the actor's timers) that also
// owns one connection, whose data reaches Data on the actor's loop. Write
// to the connection from any of its handlers; keep the *Conn given to
// OpenedHook to write from Receive.
//
// The connection lives and dies with the actor: when the peer closes (or
// the connection fails, or the actor calls Close) the actor stops; when
// the actor stops, its buffered output is flushed (within the linger
// timeout, [WithLinger]) and the socket closed; when a handler panics the
// socket is closed at once and the actor stops instead of restarting,
// since a fresh instance could not resume the peer's byte stream.
//
// A ConnActor may also implement the actor hooks (actor.StartedHook,
// actor.StoppingHook, actor.StoppedHook, actor.RestartingHook) and the
// connection hooks below.
type ConnActor interface {
	actor.Actor
	// Data gets bytes read from the peer; p is valid only during the call.
	Data(c *actor.Context, conn *Conn, p []byte)
}

// Connection hooks a ConnActor may implement.
type (
	// OpenedHook runs once the connection is served (accepted, or dialed
	// and established), after actor.StartedHook.
	OpenedHook interface {
		Opened(c *actor.Context, conn *Conn)
	}
	// PeerClosedHook runs when the peer closed its write side; returning
	// true keeps the connection open for writing (half-open) until the
	// actor calls Close. Without it the connection closes.
	PeerClosedHook interface {
		PeerClosed(c *actor.Context, conn *Conn) (keepWriting bool)
	}
	// DrainedHook runs when output past the high-water mark has drained
	// and reading resumed.
	DrainedHook interface {
		Drained(c *actor.Context, conn *Conn)
	}
	// ClosedHook runs when the connection closed while the actor runs
	// (err is nil for a close by either side); the actor then stops.
	ClosedHook interface {
		Closed(c *actor.Context, conn *Conn, err error)
	}
)

// errConnActorFailed is logged when a connection actor's handler panicked.
var errConnActorFailed = errors.New("netactor: connection actor failed; socket closed")

// idleTimeout is the idle timer's message (and key).
type idleTimeout struct{}

// connShared is a connection actor's state that outlives its instances.
type connShared struct {
	sock    Socket  // accepted socket, or network for a dial
	address string  // dial address ("" for an accepted socket)
	cfg     *config // shared by a server's connections
	conn    *Conn
	dead    bool // the connection is gone: instances stop at once
	newConn func() ConnActor
}

// connActor wraps the user's ConnActor with the connection's lifecycle.
type connActor struct {
	sh   *connShared
	user ConnActor
	ctx  *actor.Context
}

func (sh *connShared) factory() actor.Actor {
	if sh.dead {
		return &connActor{sh: sh}
	}
	return &connActor{sh: sh, user: sh.newConn()}
}

// Started opens the connection on the actor's loop.
func (a *connActor) Started(c *actor.Context) {
	a.ctx = c
	if a.sh.dead || a.user == nil {
		c.Stop(c.Self())
		return
	}
	if h, ok := a.user.(actor.StartedHook); ok {
		h.Started(c)
	}
	if err := a.openConn(c); err != nil {
		a.sh.dead = true
		c.Logger().Warn("netactor: connection not served", zap.Error(err))
		a.closed(a.sh.conn, err)
		return
	}
	if a.sh.address == "" {
		a.opened(a.sh.conn)
	}
}

func (a *connActor) openConn(c *actor.Context) error {
	sh := a.sh
	var err error
	if sh.address != "" {
		sh.conn, err = dial(c.Loop(), sh.sock.network, sh.address, a, sh.cfg)
	} else {
		sh.conn, err = open(c.Loop(), sh.sock.fd, sh.sock.network, a, sh.cfg, stateOpen)
		if err != nil {
			_ = sh.sock.Close()
		}
	}
	return err
}

func (a *connActor) opened(conn *Conn) {
	a.touch()
	if h, ok := a.user.(OpenedHook); ok {
		h.Opened(a.ctx, conn)
	}
}

func (a *connActor) data(conn *Conn, p []byte) {
	a.touch()
	a.user.Data(a.ctx, conn, p)
}

// touch restarts the idle timer.
func (a *connActor) touch() {
	if a.sh.cfg.idle > 0 {
		_ = a.ctx.Timers().StartSingle(idleTimeout{}, a.sh.cfg.idle, idleTimeout{})
	}
}

func (a *connActor) peerClosed(conn *Conn) bool {
	if h, ok := a.user.(PeerClosedHook); ok {
		return h.PeerClosed(a.ctx, conn)
	}
	return false
}

func (a *connActor) drained(conn *Conn) {
	if h, ok := a.user.(DrainedHook); ok {
		h.Drained(a.ctx, conn)
	}
}

func (a *connActor) closed(conn *Conn, err error) {
	a.sh.dead = true
	if h, ok := a.user.(ClosedHook); ok && conn != nil {
		h.Closed(a.ctx, conn, err)
	}
	a.ctx.Stop(a.ctx.Self())
}

// Receive handles the idle timer and hands other messages to the user.
func (a *connActor) Receive(c *actor.Context, msg any) (any, error) {
	if _, ok := msg.(idleTimeout); ok {
		if conn := a.sh.conn; conn != nil && !conn.Closed() {
			c.Logger().Debug("netactor: idle timeout, closing")
			_ = conn.Close()
		}
		return nil, nil
	}
	if a.user == nil {
		return nil, ErrClosed
	}
	return a.user.Receive(c, msg)
}

// Stopping forwards the hook.
func (a *connActor) Stopping(c *actor.Context) {
	if h, ok := a.user.(actor.StoppingHook); ok {
		h.Stopping(c)
	}
}

// Stopped forwards the hook, then flushes and closes the socket.
func (a *connActor) Stopped(c *actor.Context) {
	if h, ok := a.user.(actor.StoppedHook); ok {
		h.Stopped(c)
	}
	a.sh.dead = true
	if conn := a.sh.conn; conn != nil {
		if err := conn.closeLinger(); err != nil {
			c.Logger().Warn("netactor: closing connection", zap.Error(err))
		}
	}
}

// Restarting closes the socket of a failed connection actor: the fresh
// instance stops at once.
func (a *connActor) Restarting(c *actor.Context, reason error) {
	if h, ok := a.user.(actor.RestartingHook); ok {
		h.Restarting(c, reason)
	}
	a.sh.dead = true
	if conn := a.sh.conn; conn != nil && !conn.Closed() {
		conn.release()
	}
	c.Logger().Warn(errConnActorFailed.Error(), zap.Error(reason))
}
