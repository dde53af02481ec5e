// Command echo is an echo server and client made of connection actors.
//
//	go run ./examples/echo                           # both, in one process
//	go run ./examples/echo -listen 127.0.0.1:7000    # a server
//	go run ./examples/echo -connect 127.0.0.1:7000 hello world
//
// The server spawns one actor per connection that writes back what it
// reads and closes an idle connection after a minute (an actor timer). The
// client is a connection actor that dials, sends its words one per line,
// half-closes, and prints what comes back until the server closes.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/netactor"
)

func main() {
	listen := flag.String("listen", "", "serve on this TCP address")
	connect := flag.String("connect", "", "send the arguments to the echo server at this address")
	flag.Parse()
	var err error
	switch {
	case *listen != "":
		err = serveUntilSignal(*listen)
	case *connect != "":
		err = runClient(os.Stdout, *connect, flag.Args())
	default:
		err = demo(os.Stdout, append([]string{"hello", "from", "troupe"}, flag.Args()...))
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "echo:", err)
		os.Exit(1)
	}
}

// echoConn writes back what it reads.
type echoConn struct{}

func (echoConn) Receive(*actor.Context, any) (any, error) { return nil, nil }

func (echoConn) Data(_ *actor.Context, conn *netactor.Conn, p []byte) { _, _ = conn.Write(p) }

func serve(sys *actor.System, addr string) (*netactor.Server, error) {
	return netactor.Serve(sys, "echo", "server", "tcp", addr,
		func() netactor.ConnActor { return echoConn{} }, netactor.WithIdleTimeout(time.Minute))
}

func serveUntilSignal(addr string) error {
	sys, err := actor.NewSystem("echo")
	if err != nil {
		return err
	}
	defer func() { _ = sys.Shutdown(context.Background()) }()
	srv, err := serve(sys, addr)
	if err != nil {
		return err
	}
	fmt.Println("echo server on", srv.Addr())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	<-ctx.Done()
	return nil
}

// client sends its lines, half-closes, and collects the echo.
type client struct {
	lines []string
	got   []byte
	done  chan<- result
}

type result struct {
	text string
	err  error
}

func (c *client) Receive(*actor.Context, any) (any, error) { return nil, nil }

func (c *client) Opened(_ *actor.Context, conn *netactor.Conn) {
	for _, l := range c.lines {
		_, _ = conn.WriteString(l + "\n")
	}
	_ = conn.CloseWrite()
}

func (c *client) Data(_ *actor.Context, _ *netactor.Conn, p []byte) { c.got = append(c.got, p...) }

func (c *client) Closed(_ *actor.Context, _ *netactor.Conn, err error) {
	c.done <- result{string(c.got), err}
}

func runClient(w io.Writer, addr string, lines []string) error {
	sys, err := actor.NewSystem("echo-client")
	if err != nil {
		return err
	}
	defer func() { _ = sys.Shutdown(context.Background()) }()
	return dialAndPrint(sys, w, addr, lines)
}

func dialAndPrint(sys *actor.System, w io.Writer, addr string, lines []string) error {
	done := make(chan result, 1)
	_, err := netactor.SpawnDial(sys, "echo.client", "1", "tcp", addr,
		func() netactor.ConnActor { return &client{lines: lines, done: done} })
	if err != nil {
		return err
	}
	r := <-done
	if r.err != nil {
		return r.err
	}
	for _, l := range strings.SplitAfter(r.text, "\n") {
		if l != "" {
			fmt.Fprint(w, "echo: ", l)
		}
	}
	return nil
}

// demo runs a server and a client in one system.
func demo(w io.Writer, lines []string) error {
	sys, err := actor.NewSystem("echo")
	if err != nil {
		return err
	}
	defer func() { _ = sys.Shutdown(context.Background()) }()
	srv, err := serve(sys, "127.0.0.1:0")
	if err != nil {
		return err
	}
	return dialAndPrint(sys, w, srv.Addr().String(), lines)
}
