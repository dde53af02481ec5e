//go:build linux

package netactor_test

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest"
	"github.com/troupe-go/troupe/netactor"
)

// prepare starts the runtime's network poller once, so that its epoll fd
// is not counted as a leak by the first test that dials.
func prepare() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err == nil {
		_ = ln.Close()
	}
}

// openFDs counts the process's open file descriptors.
func openFDs(t testing.TB) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatalf("reading /proc/self/fd: %v", err)
	}
	return len(ents)
}

// checkFDs fails the test if it ends with more fds open than it began.
// Register it before anything the test must clean up, so it runs last.
func checkFDs(t *testing.T) {
	t.Helper()
	before := openFDs(t)
	t.Cleanup(func() {
		if after := openFDs(t); after != before {
			t.Errorf("fd leak: %d open before the test, %d after", before, after)
		}
	})
}

// newSystem starts a system shut down at the end of the test, and a
// recorder of its lifecycle events.
func newSystem(t *testing.T, opts ...actor.Option) (*actor.System, *events) {
	t.Helper()
	sys, err := actor.NewSystem("net", opts...)
	if err != nil {
		t.Fatal(err)
	}
	ev := &events{stopped: make(chan actor.Event, 1<<16)}
	cancel := sys.SubscribeEvents(func(e actor.Event) {
		if e.Kind == actor.Stopped {
			ev.stopped <- e
		}
	})
	t.Cleanup(func() {
		ctx, done := context.WithTimeout(context.Background(), 30*time.Second)
		defer done()
		if err := sys.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
		cancel()
	})
	return sys, ev
}

// newKitSystem starts a test system of the kit (actortest) on virtual
// time. Connections open and close by real I/O, outside its loops: its
// probes wait up to 30 s of real time for what that causes.
func newKitSystem(t *testing.T) *actortest.System {
	t.Helper()
	return actortest.NewSystem(t, actortest.WithName("net"), actortest.WithOutsideWait(30*time.Second),
		actortest.WithoutLeakCheck()) // TestMain checks leaks, once the runtime's poller started
}

type events struct{ stopped chan actor.Event }

// waitStopped waits for n actors of kind to stop.
func (e *events) waitStopped(t *testing.T, kind string, n int) []actor.Event {
	t.Helper()
	var got []actor.Event
	timeout := time.After(60 * time.Second) // a hang guard, not a timing assertion
	for len(got) < n {
		select {
		case ev := <-e.stopped:
			if ev.Actor.Kind() == kind {
				got = append(got, ev)
			}
		case <-timeout:
			t.Fatalf("%d of %d %s actors stopped", len(got), n, kind)
		}
	}
	return got
}

// echoConn echoes what it reads; it reports its connection's stats on
// request and panics on "boom".
type echoConn struct {
	conn   *netactor.Conn
	paused actor.Ref // told the conn's Stats once, when backpressure first pauses reading
	opened actor.Ref // told the actor's ref when it opens, if not zero
}

type statsReq struct{}

func (e *echoConn) Receive(_ *actor.Context, msg any) (any, error) {
	if _, ok := msg.(statsReq); ok {
		return e.conn.Stats(), nil
	}
	return nil, errors.New("echoConn: unexpected message")
}

func (e *echoConn) Opened(c *actor.Context, conn *netactor.Conn) {
	e.conn = conn
	if !e.opened.IsZero() {
		_ = c.Tell(e.opened, c.Self())
	}
}

func (e *echoConn) Data(c *actor.Context, conn *netactor.Conn, p []byte) {
	if string(p) == "boom" {
		panic("boom")
	}
	_, _ = conn.Write(p)
	if conn.ReadPaused() && !e.paused.IsZero() {
		_ = c.Tell(e.paused, conn.Stats())
		e.paused = actor.Ref{}
	}
}

// serveEcho serves echoConn actors on a loopback port.
func serveEcho(t *testing.T, sys *actor.System, opts ...netactor.Option) *netactor.Server {
	t.Helper()
	srv, err := netactor.Serve(sys, "echo", "l", "tcp", "127.0.0.1:0", func() netactor.ConnActor { return &echoConn{} }, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

func dial(t *testing.T, addr net.Addr) *net.TCPConn {
	t.Helper()
	c, err := net.Dial(addr.Network(), addr.String())
	if err != nil {
		t.Fatal(err)
	}
	return c.(*net.TCPConn)
}

// roundTrip writes msg and reads as many bytes back.
func roundTrip(t *testing.T, c net.Conn, msg []byte) {
	t.Helper()
	errc := make(chan error, 1)
	go func() { _, err := c.Write(msg); errc <- err }()
	got := make([]byte, len(msg))
	if _, err := io.ReadFull(c, got); err != nil {
		t.Fatalf("reading the echo: %v", err)
	}
	if err := <-errc; err != nil {
		t.Fatalf("writing: %v", err)
	}
	if string(got) != string(msg) {
		t.Fatalf("echo differs (len %d)", len(msg))
	}
}

// pattern returns n bytes that are not all equal.
func pattern(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + i/251)
	}
	return b
}
