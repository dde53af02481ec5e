//go:build linux

package netactor_test

import (
	"context"
	"errors"
	"io"
	"net"
	"testing"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/loop"
	"github.com/troupe-go/troupe/netactor"
)

// onLoop runs fn on a fresh standalone loop until the loop is idle.
func onLoop(t *testing.T, fn func(l *loop.Loop)) {
	t.Helper()
	l, err := loop.New(loop.WithRunUntilIdle())
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Submit(func() { fn(l) }); err != nil {
		t.Fatal(err)
	}
	if err := l.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestDialRefused(t *testing.T) {
	checkFDs(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close() // nothing listens there now
	var got error
	onLoop(t, func(l *loop.Loop) {
		_, err := netactor.Dial(l, "tcp", addr, netactor.Callbacks{
			Opened: func(*netactor.Conn) { t.Error("dial to a closed port opened") },
			Closed: func(_ *netactor.Conn, err error) { got = err },
		})
		if err != nil {
			got = err
		}
	})
	if got == nil {
		t.Fatal("dial to a closed port reported no error")
	}
}

func TestDialToNetServer(t *testing.T) {
	checkFDs(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	served := make(chan error, 2)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			served <- err
			return
		}
		// Echo until the dialer half-closes (not io.Copy: its splice keeps
		// pooled pipes open, which the fd check would count).
		err = echoUntilEOF(c)
		_ = c.Close()
		served <- err
	}()
	var reply []byte
	onLoop(t, func(l *loop.Loop) {
		c, err := netactor.Dial(l, "tcp", ln.Addr().String(), netactor.Callbacks{
			Data:   func(_ *netactor.Conn, p []byte) { reply = append(reply, p...) },
			Closed: func(_ *netactor.Conn, err error) { served <- err },
		})
		if err != nil {
			t.Error(err)
			return
		}
		// Written before the connect completes: sent once it does.
		_, _ = c.WriteString("early")
		_ = c.CloseWrite()
	})
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	if string(reply) != "early" {
		t.Fatalf("reply %q", reply)
	}
}

func TestErrors(t *testing.T) {
	checkFDs(t)
	l, err := loop.New()
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	accept := func(netactor.Socket, error) {}
	for _, tc := range []struct {
		name string
		err  error
		want error
	}{
		{"listen off the loop", listenErr(netactor.Listen(l, "tcp", "127.0.0.1:0", accept)), netactor.ErrNotOnLoop},
		{"dial off the loop", dialErr(netactor.Dial(l, "tcp", "127.0.0.1:1", netactor.Callbacks{})), netactor.ErrNotOnLoop},
		{"open off the loop", dialErr(netactor.Open(l, 0, "tcp", netactor.Callbacks{})), netactor.ErrNotOnLoop},
		{"unknown network", serveErr(netactor.Serve(nil, "k", "i", "udp", "127.0.0.1:0", echoFactory)), netactor.ErrNetwork},
		{"empty unix path", serveErr(netactor.Serve(nil, "k", "i", "unix", "", echoFactory)), netactor.ErrNetwork},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !errors.Is(tc.err, tc.want) {
				t.Fatalf("got %v, want %v", tc.err, tc.want)
			}
		})
	}
	for _, opt := range []netactor.Option{
		netactor.WithHighWater(0), netactor.WithLinger(0), netactor.WithBacklog(0), netactor.WithIdleTimeout(-1),
	} {
		if _, err := netactor.Serve(nil, "k", "i", "tcp", "127.0.0.1:0", echoFactory, opt); err == nil {
			t.Error("a bad option was accepted")
		}
	}
	if _, err := netactor.Serve(nil, "k", "i", "tcp", "127.0.0.1:0", nil); err == nil {
		t.Error("a nil factory was accepted")
	}
}

func echoFactory() netactor.ConnActor { return &echoConn{} }

func listenErr(_ *netactor.Listener, err error) error { return err }
func dialErr(_ *netactor.Conn, err error) error       { return err }
func serveErr(_ *netactor.Server, err error) error    { return err }

func TestConnCloseTwiceAndWriteAfterClose(t *testing.T) {
	checkFDs(t)
	sys, ev := newSystem(t)
	results := make(chan error, 3)
	srv, err := netactor.Serve(sys, "closer", "l", "tcp", "127.0.0.1:0", func() netactor.ConnActor {
		return &closer{results: results}
	})
	if err != nil {
		t.Fatal(err)
	}
	c := dial(t, srv.Addr())
	defer c.Close()
	if _, err := c.Write([]byte("x")); err != nil {
		t.Fatal(err)
	}
	if b, _ := io.ReadAll(c); string(b) != "bye" {
		t.Fatalf("read %q", b)
	}
	for _, want := range []error{nil, netactor.ErrClosed, netactor.ErrWriteClosed} {
		if got := <-results; !errors.Is(got, want) {
			t.Errorf("got %v, want %v", got, want)
		}
	}
	ev.waitStopped(t, "closer.conn", 1)
}

// closer says bye and closes on its first data, twice, then writes.
type closer struct{ results chan<- error }

func (c *closer) Receive(*actor.Context, any) (any, error) { return nil, nil }

func (c *closer) Data(_ *actor.Context, conn *netactor.Conn, _ []byte) {
	_, _ = conn.WriteString("bye")
	c.results <- conn.Close()
	c.results <- conn.Close()
	_, err := conn.WriteString("more")
	c.results <- err
}

func echoUntilEOF(c net.Conn) error {
	buf := make([]byte, 4096)
	for {
		n, err := c.Read(buf)
		if n > 0 {
			if _, werr := c.Write(buf[:n]); werr != nil {
				return werr
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
