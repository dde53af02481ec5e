//go:build unix

package netactor_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"strings"
	"time"

	"github.com/troupe-go/troupe/actor"

	"github.com/troupe-go/troupe/loop"
	"github.com/troupe-go/troupe/netactor"
)

// A server and a client on one standalone loop: the loop runs until the
// sockets are closed, and no goroutine waits on any of them.
func ExampleListen() {
	l, _ := loop.New(loop.WithRunUntilIdle())
	_ = l.Submit(func() {
		var ln *netactor.Listener
		ln, err := netactor.Listen(l, "tcp", "127.0.0.1:0", func(s netactor.Socket, err error) {
			if err != nil {
				return
			}
			_ = ln.Close() // one connection is enough
			_, _ = netactor.Open(l, s.FD(), s.Network(), netactor.Callbacks{
				Data: func(c *netactor.Conn, p []byte) { _, _ = c.WriteString(strings.ToUpper(string(p))) },
			})
		})
		if err != nil {
			fmt.Println(err)
			return
		}
		_, _ = netactor.Dial(l, "tcp", ln.Addr().String(), netactor.Callbacks{
			Opened: func(c *netactor.Conn) { _, _ = c.WriteString("hello") },
			Data: func(c *netactor.Conn, p []byte) {
				fmt.Printf("%s\n", p)
				_ = c.Close()
			},
			Closed: func(c *netactor.Conn, err error) { fmt.Println("closed", err) },
		})
	})
	_ = l.Run(context.Background())
	_ = l.Close() // releases the loop's own poller
	// Output:
	// HELLO
	// closed <nil>
}

// upper is a connection actor: it answers each read with the same bytes
// in upper case.
type upper struct{}

func (upper) Receive(*actor.Context, any) (any, error) { return nil, nil }

func (upper) Data(_ *actor.Context, conn *netactor.Conn, p []byte) {
	_, _ = conn.Write(bytes.ToUpper(p))
}

// A listener actor spawning one connection actor per client.
func ExampleServe() {
	sys, _ := actor.NewSystem("example")
	defer sys.Shutdown(context.Background())

	srv, err := netactor.Serve(sys, "upper", "server", "tcp", "127.0.0.1:0",
		func() netactor.ConnActor { return upper{} }, netactor.WithIdleTimeout(time.Minute))
	if err != nil {
		fmt.Println(err)
		return
	}
	c, _ := net.Dial("tcp", srv.Addr().String())
	defer c.Close()
	_, _ = c.Write([]byte("hello"))
	reply := make([]byte, 5)
	_, _ = io.ReadFull(c, reply)
	fmt.Printf("%s\n", reply)
	// Output:
	// HELLO
}

// A connection actor that dials: it sends a line, half-closes, and
// reports what came back when the server closes.
func ExampleSpawnDial() {
	sys, _ := actor.NewSystem("example")
	defer sys.Shutdown(context.Background())
	srv, _ := netactor.Serve(sys, "upper", "server", "tcp", "127.0.0.1:0",
		func() netactor.ConnActor { return upper{} })

	done := make(chan string)
	_, _ = netactor.SpawnDial(sys, "client", "1", "tcp", srv.Addr().String(), func() netactor.ConnActor {
		return &dialer{done: done}
	})
	fmt.Println(<-done)
	// Output:
	// got "PING"
}

type dialer struct {
	got  []byte
	done chan<- string
}

func (d *dialer) Receive(*actor.Context, any) (any, error) { return nil, nil }

func (d *dialer) Opened(_ *actor.Context, conn *netactor.Conn) {
	_, _ = conn.WriteString("ping")
	_ = conn.CloseWrite()
}

func (d *dialer) Data(_ *actor.Context, _ *netactor.Conn, p []byte) { d.got = append(d.got, p...) }

func (d *dialer) Closed(_ *actor.Context, _ *netactor.Conn, err error) {
	d.done <- fmt.Sprintf("got %q", d.got)
}
