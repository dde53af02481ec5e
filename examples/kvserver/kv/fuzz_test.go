package kv

import (
	"context"
	"io"
	"net"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
)

// FuzzServerInput sends arbitrary bytes to a running server, half-closes,
// and reads every reply: the server must answer (or close) and keep
// serving, whatever it was sent.
func FuzzServerInput(f *testing.F) {
	for _, s := range []string{
		"*2\r\n$3\r\nGET\r\n$1\r\nk\r\n", "PING\r\n", "*1\r\n$-1\r\n", "*-1\r\n", "SET a b EX 1\r\nINCR a\r\n",
		"*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$5\r\nvalue\r\n", "$3\r\nabc\r\n", "*1\r\n$99\r\n", "MSET a\r\nMGET a b c\r\n",
	} {
		f.Add([]byte(s))
	}
	sys, err := actor.NewSystem("kvfuzz")
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { _ = sys.Shutdown(context.Background()) })
	srv, err := Start(sys, "tcp", "127.0.0.1:0", 2)
	if err != nil {
		f.Fatal(err)
	}
	addr := srv.Addr().String()
	f.Fuzz(func(t *testing.T, in []byte) {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		_ = c.SetDeadline(time.Now().Add(10 * time.Second)) // a hang guard only
		if _, err := c.Write(in); err != nil {
			t.Fatal(err)
		}
		_ = c.(*net.TCPConn).CloseWrite()
		if _, err := io.ReadAll(c); err != nil {
			t.Fatalf("reading the replies: %v", err)
		}
		// The server still serves.
		p, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		_, _ = p.Write([]byte("PING\r\n"))
		got := make([]byte, 7)
		if _, err := io.ReadFull(p, got); err != nil || string(got) != "+PONG\r\n" {
			t.Fatalf("after the input, PING got %q, %v", got, err)
		}
	})
}
