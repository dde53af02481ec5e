//go:build linux

package netactor_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest"
	"github.com/troupe-go/troupe/netactor"
)

func TestEchoSizes(t *testing.T) {
	checkFDs(t)
	sys, _ := newSystem(t)
	srv := serveEcho(t, sys)
	for _, tc := range []struct {
		name string
		size int
	}{
		{"one byte", 1},
		{"64 bytes", 64},
		{"read buffer", 64 << 10},
		{"just past read buffer", 64<<10 + 1},
		{"1 MB value", 1 << 20},
		{"past high water", 3 << 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := dial(t, srv.Addr())
			defer c.Close()
			roundTrip(t, c, pattern(tc.size))
			roundTrip(t, c, pattern(tc.size/2+1))
		})
	}
}

// lineConn answers each complete line with its length, whatever pieces it
// arrives in: it exercises partial reads.
type lineConn struct{ pending []byte }

func (l *lineConn) Receive(*actor.Context, any) (any, error) { return nil, nil }

func (l *lineConn) Data(_ *actor.Context, conn *netactor.Conn, p []byte) {
	l.pending = append(l.pending, p...)
	for {
		i := bytes.IndexByte(l.pending, '\n')
		if i < 0 {
			return
		}
		_, _ = conn.WriteString(string(rune('a'+i%26)) + "\n")
		l.pending = l.pending[i+1:]
	}
}

func TestPartialReads(t *testing.T) {
	checkFDs(t)
	sys, _ := newSystem(t)
	srv, err := netactor.Serve(sys, "line", "l", "tcp", "127.0.0.1:0", func() netactor.ConnActor { return &lineConn{} })
	if err != nil {
		t.Fatal(err)
	}
	c := dial(t, srv.Addr())
	defer c.Close()
	lines := []string{"x\n", "hello world\n", string(bytes.Repeat([]byte("z"), 70000)) + "\n"}
	for _, line := range lines {
		// One byte, then the rest in pieces of growing size.
		for i, step := 0, 1; i < len(line); step *= 3 {
			end := min(i+step, len(line))
			if _, err := c.Write([]byte(line[i:end])); err != nil {
				t.Fatal(err)
			}
			i = end
		}
		got := make([]byte, 2)
		if _, err := io.ReadFull(c, got); err != nil {
			t.Fatal(err)
		}
		want := string(rune('a'+(len(line)-1)%26)) + "\n"
		if string(got) != want {
			t.Fatalf("line of %d: got %q, want %q", len(line), got, want)
		}
	}
}

func TestPartialWritesSmallSendBuffer(t *testing.T) {
	checkFDs(t)
	s := newKitSystem(t)
	srv, err := netactor.Serve(s.System, "echo", "l", "tcp", "127.0.0.1:0", func() netactor.ConnActor { return &smallBufEcho{} })
	if err != nil {
		t.Fatal(err)
	}
	c := dial(t, srv.Addr())
	defer c.Close()
	const size = 2 << 20
	roundTrip(t, c, pattern(size))
	st := actortest.Ask[netactor.Stats](s, srv.Ref().Child("echo.conn", "1"), statsReq{})
	if st.PeakBuffered == 0 || st.BytesWritten != size {
		t.Fatalf("stats %+v: want output that waited for a small send buffer", st)
	}
}

// smallBufEcho shrinks its socket's send buffer so that writes are partial.
type smallBufEcho struct{ echoConn }

func (s *smallBufEcho) Opened(c *actor.Context, conn *netactor.Conn) {
	setSendBuffer(conn.FD(), 16<<10)
	s.echoConn.Opened(c, conn)
}

func TestPeerCloseStopsActor(t *testing.T) {
	checkFDs(t)
	sys, ev := newSystem(t)
	srv := serveEcho(t, sys)
	for range 3 {
		c := dial(t, srv.Addr())
		roundTrip(t, c, []byte("ping"))
		_ = c.Close()
		stopped := ev.waitStopped(t, "echo.conn", 1)
		if stopped[0].Reason != nil {
			t.Errorf("connection actor stopped with %v, want a requested stop", stopped[0].Reason)
		}
	}
}

// halfConn answers a request only once the peer has closed its side.
type halfConn struct{ got []byte }

func (h *halfConn) Receive(*actor.Context, any) (any, error) { return nil, nil }

func (h *halfConn) Data(_ *actor.Context, _ *netactor.Conn, p []byte) {
	h.got = append(h.got, p...)
}

func (h *halfConn) PeerClosed(_ *actor.Context, conn *netactor.Conn) bool {
	_, _ = conn.WriteString("got " + string(h.got))
	_ = conn.Close()
	return true
}

func TestPeerHalfClose(t *testing.T) {
	checkFDs(t)
	sys, ev := newSystem(t)
	srv, err := netactor.Serve(sys, "half", "l", "tcp", "127.0.0.1:0", func() netactor.ConnActor { return &halfConn{} })
	if err != nil {
		t.Fatal(err)
	}
	c := dial(t, srv.Addr())
	defer c.Close()
	if _, err := c.Write([]byte("request")); err != nil {
		t.Fatal(err)
	}
	if err := c.CloseWrite(); err != nil {
		t.Fatal(err)
	}
	reply, err := io.ReadAll(c)
	if err != nil {
		t.Fatal(err)
	}
	if string(reply) != "got request" {
		t.Fatalf("reply %q", reply)
	}
	ev.waitStopped(t, "half.conn", 1)
}

// greeterConn says hello, half-closes, and keeps reading until EOF.
type greeterConn struct {
	got  chan<- string
	data []byte
}

func (g *greeterConn) Receive(*actor.Context, any) (any, error) { return nil, nil }

func (g *greeterConn) Opened(_ *actor.Context, conn *netactor.Conn) {
	_, _ = conn.WriteString("hello")
	if err := conn.CloseWrite(); err != nil {
		panic(err)
	}
	if _, err := conn.WriteString("late"); !errors.Is(err, netactor.ErrWriteClosed) {
		panic("write after CloseWrite: " + errString(err))
	}
}

func (g *greeterConn) Data(_ *actor.Context, _ *netactor.Conn, p []byte) {
	g.data = append(g.data, p...)
}

func (g *greeterConn) Closed(_ *actor.Context, _ *netactor.Conn, err error) {
	g.got <- string(g.data) + "|" + errString(err)
}

func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

func TestServerHalfClose(t *testing.T) {
	checkFDs(t)
	sys, ev := newSystem(t)
	got := make(chan string, 1)
	srv, err := netactor.Serve(sys, "greet", "l", "tcp", "127.0.0.1:0", func() netactor.ConnActor { return &greeterConn{got: got} })
	if err != nil {
		t.Fatal(err)
	}
	c := dial(t, srv.Addr())
	defer c.Close()
	hello, err := io.ReadAll(c) // EOF after the server's CloseWrite
	if err != nil || string(hello) != "hello" {
		t.Fatalf("read %q, %v", hello, err)
	}
	if _, err := c.Write([]byte("still reading?")); err != nil {
		t.Fatal(err)
	}
	_ = c.CloseWrite()
	if s := <-got; s != "still reading?|<nil>" {
		t.Fatalf("server got %q", s)
	}
	ev.waitStopped(t, "greet.conn", 1)
}

func TestSlowReaderBackpressure(t *testing.T) {
	checkFDs(t)
	const highWater = 128 << 10
	s := newKitSystem(t)
	paused := s.NewProbe("paused")
	srv, err := netactor.Serve(s.System, "echo", "l", "tcp", "127.0.0.1:0",
		func() netactor.ConnActor { return &echoConn{paused: paused.Ref()} }, netactor.WithHighWater(highWater))
	if err != nil {
		t.Fatal(err)
	}
	c := dial(t, srv.Addr())
	defer c.Close()
	const total = 32 << 20
	msg := pattern(total)
	var wg sync.WaitGroup
	wg.Go(func() { _, _ = c.Write(msg) })
	// The client reads nothing until the server has stopped reading.
	st := actortest.ExpectMessageType[netactor.Stats](paused)
	const bound = highWater + 64<<10 // one read's echo past the mark
	if st.PeakBuffered > bound {
		t.Fatalf("buffered %d bytes before pausing, bound %d", st.PeakBuffered, bound)
	}
	got := make([]byte, total)
	if _, err := io.ReadFull(c, got); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if !bytes.Equal(got, msg) {
		t.Fatal("echo differs")
	}
	conn := actortest.Ask[netactor.Stats](s, srv.Ref().Child("echo.conn", "1"), statsReq{})
	if conn.PeakBuffered > bound {
		t.Fatalf("peak buffered %d, bound %d", conn.PeakBuffered, bound)
	}
	if conn.Pauses == 0 || conn.BytesRead != total || conn.BytesWritten != total {
		t.Fatalf("stats %+v", conn)
	}
	t.Logf("32 MiB echoed to a slow reader: peak buffered %d bytes, %d pauses", conn.PeakBuffered, conn.Pauses)
}

func TestCrashClosesSocket(t *testing.T) {
	checkFDs(t)
	s := newKitSystem(t)
	srv := serveEcho(t, s.System)
	c := dial(t, srv.Addr())
	defer c.Close()
	roundTrip(t, c, []byte("ping"))
	if _, err := c.Write([]byte("boom")); err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadAll(c); err != nil && !errors.Is(err, io.EOF) && !isReset(err) {
		t.Fatalf("after the crash the client read %v, want EOF or reset", err)
	}
	// The socket closed on the actor's loop as it failed: settled, the
	// failure is handled. (The actor's events say it restarted: its fresh
	// instance stops at once, for good.)
	s.Settle()
	f := s.TakeFailures()
	if len(f) != 1 || f[0].Actor.Kind() != "echo.conn" || !strings.Contains(f[0].Reason.Error(), "boom") {
		t.Fatalf("failures %v, want the connection actor's panic", f)
	}
	s.Tell(f[0].Actor, statsReq{})
	if d := s.ExpectDeadLetter(); !errors.Is(d.Reason, actor.ErrNotFound) {
		t.Fatalf("dead letter %+v: the connection actor is still there", d)
	}
	// The listener is unaffected.
	c2 := dial(t, srv.Addr())
	defer c2.Close()
	roundTrip(t, c2, []byte("still serving"))
}

func isReset(err error) bool {
	var op *net.OpError
	return errors.As(err, &op)
}

// bigWriter writes a payload larger than the socket buffers as soon as it
// is opened, so most of it is still buffered when the system shuts down.
type bigWriter struct {
	payload []byte
	opened  chan<- struct{}
}

func (b *bigWriter) Receive(*actor.Context, any) (any, error)    { return nil, nil }
func (b *bigWriter) Data(*actor.Context, *netactor.Conn, []byte) {}
func (b *bigWriter) Opened(_ *actor.Context, conn *netactor.Conn) {
	_, _ = conn.Write(b.payload)
	b.opened <- struct{}{}
}

func TestShutdownFlushesOpenConnections(t *testing.T) {
	checkFDs(t)
	sys, err := actor.NewSystem("net")
	if err != nil {
		t.Fatal(err)
	}
	payload := pattern(8 << 20)
	const conns = 4
	opened := make(chan struct{}, conns)
	srv, err := netactor.Serve(sys, "big", "l", "tcp", "127.0.0.1:0", func() netactor.ConnActor {
		return &bigWriter{payload: payload, opened: opened}
	})
	if err != nil {
		t.Fatal(err)
	}
	var clients []net.Conn
	for range conns {
		clients = append(clients, dial(t, srv.Addr()))
	}
	for range conns {
		<-opened
	}
	var wg sync.WaitGroup
	results := make([][]byte, conns)
	for i, c := range clients {
		wg.Go(func() { results[i], _ = io.ReadAll(c); _ = c.Close() })
	}
	if err := sys.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	for i, r := range results {
		if !bytes.Equal(r, payload) {
			t.Errorf("client %d got %d of %d bytes", i, len(r), len(payload))
		}
	}
	if c, err := net.Dial("tcp", srv.Addr().String()); err == nil {
		_ = c.Close()
		t.Error("the listener still accepts after shutdown")
	}
}

// TestIdleTimeoutIsAnActorTimer: on virtual time, the connection closes
// exactly when its idle timeout runs out. The connection opening is real
// I/O: the probe waits for it in real time.
func TestIdleTimeoutIsAnActorTimer(t *testing.T) {
	checkFDs(t)
	s := newKitSystem(t)
	opened := s.NewProbe("opened")
	srv, err := netactor.Serve(s.System, "idle", "l", "tcp", "127.0.0.1:0",
		func() netactor.ConnActor { return &echoConn{opened: opened.Ref()} }, netactor.WithIdleTimeout(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	c := dial(t, srv.Addr())
	defer c.Close()
	conn := actortest.ExpectMessageType[actor.Ref](opened)
	opened.Watch(conn)
	opened.ExpectNoMessage(time.Minute - time.Nanosecond)
	s.Advance(time.Nanosecond)
	opened.ExpectTerminated(conn)
	if n, err := c.Read(make([]byte, 1)); n != 0 || !errors.Is(err, io.EOF) {
		t.Fatalf("read %d, %v after the idle timeout; want EOF", n, err)
	}
}

func TestUnixSocket(t *testing.T) {
	checkFDs(t)
	sys, ev := newSystem(t)
	path := t.TempDir() + "/echo.sock"
	srv, err := netactor.Serve(sys, "echo", "u", "unix", path, func() netactor.ConnActor { return &echoConn{} })
	if err != nil {
		t.Fatal(err)
	}
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	roundTrip(t, c, pattern(300<<10))
	_ = c.Close()
	ev.waitStopped(t, "echo.conn", 1)
	sys.Stop(srv.Ref())
	ev.waitStopped(t, "echo", 1)
	if _, err := net.Dial("unix", path); err == nil {
		t.Fatal("unix socket path still served after the listener stopped")
	}
}

// notifier writes whatever string it is told to its connection: messages
// to a connection actor's ref reach its Receive, on the same loop as its
// socket.
type notifier struct {
	conn   *netactor.Conn
	opened actor.Ref // told the actor's ref when it opens
}

func (n *notifier) Receive(_ *actor.Context, msg any) (any, error) {
	s, ok := msg.(string)
	if !ok {
		return nil, errors.New("notifier: want a string")
	}
	_, err := n.conn.WriteString(s)
	return nil, err
}

func (n *notifier) Opened(c *actor.Context, conn *netactor.Conn) {
	n.conn = conn
	_ = c.Tell(n.opened, c.Self())
}

func (n *notifier) Data(*actor.Context, *netactor.Conn, []byte) {}

func TestMessagesWriteAndStopClosesSocket(t *testing.T) {
	checkFDs(t)
	s := newKitSystem(t)
	opened := s.NewProbe("opened")
	srv, err := netactor.Serve(s.System, "note", "l", "tcp", "127.0.0.1:0", func() netactor.ConnActor {
		return &notifier{opened: opened.Ref()}
	})
	if err != nil {
		t.Fatal(err)
	}
	c := dial(t, srv.Addr())
	defer c.Close()
	ref := actortest.ExpectMessageType[actor.Ref](opened)
	opened.Watch(ref)
	for _, msg := range []string{"one ", "two ", "three"} {
		if err := s.Tell(ref, msg); err != nil {
			t.Fatal(err)
		}
	}
	// Poison: stop after the queued tells; stopping flushes what they wrote.
	if err := s.Poison(ref); err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(c)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "one two three" {
		t.Fatalf("read %q", got)
	}
	opened.ExpectTerminated(ref)
}

func TestLingerBoundsShutdownFlush(t *testing.T) {
	checkFDs(t)
	sys, err := actor.NewSystem("net")
	if err != nil {
		t.Fatal(err)
	}
	payload := pattern(16 << 20) // more than the socket buffers hold: 4 MiB to send, and a receive buffer that grows only as its reader reads
	opened := make(chan struct{}, 1)
	srv, err := netactor.Serve(sys, "big", "l", "tcp", "127.0.0.1:0", func() netactor.ConnActor {
		return &bigWriter{payload: payload, opened: opened}
	}, netactor.WithLinger(50*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	c := dial(t, srv.Addr())
	defer c.Close()
	<-opened
	// The client reads nothing: the shutdown's flush gives up at the linger
	// timeout instead of blocking forever.
	if err := sys.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(c) // EOF or a reset, after what the kernel held
	if len(got) >= len(payload) {
		t.Fatalf("read %d bytes: the whole payload, despite the linger timeout", len(got))
	}
	if !bytes.Equal(got, payload[:len(got)]) {
		t.Fatal("the bytes read are not a prefix of the payload")
	}
}
