package e2e_test

import (
	"bufio"
	"context"
	"io"
	"net"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/gen/internal/e2e"
	"github.com/troupe-go/troupe/netactor"
)

// TestConnectionActor serves a generated connection actor with
// netactor.Serve: the adapter forwards the connection hooks, and the
// session's typed ref sends it messages that write to the peer.
func TestConnectionActor(t *testing.T) {
	sys, err := actor.NewSystem("e2e")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sys.Shutdown(context.Background()) })
	opened := make(chan actor.Ref, 1)
	srv, err := netactor.Serve(sys, "echo", "srv", "tcp", "127.0.0.1:0",
		e2e.SessionConn(func() *e2e.Session { return &e2e.Session{Announce: opened} }))
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", srv.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(20 * time.Second))
	in := bufio.NewReader(conn)
	readN := func(n int) string {
		t.Helper()
		buf := make([]byte, n)
		if _, err := io.ReadFull(in, buf); err != nil {
			t.Fatal(err)
		}
		return string(buf)
	}
	if _, err := conn.Write([]byte("ping")); err != nil {
		t.Fatal(err)
	}
	if got := readN(4); got != "ping" {
		t.Fatalf("echo %q, want ping", got)
	}
	session := e2e.SessionRefOf(sys, <-opened)
	ctx := context.Background()
	if err := session.Say(ctx, "hello"); err != nil {
		t.Fatal(err)
	}
	if got := readN(5); got != "hello" {
		t.Fatalf("Say wrote %q, want hello", got)
	}
	if n, err := session.Reads(ctx); err != nil || n < 1 {
		t.Fatalf("Reads: %d, %v; want at least 1", n, err)
	}
	if e2e.SessionConn(nil) != nil {
		t.Fatal("SessionConn(nil) made a factory")
	}
}
