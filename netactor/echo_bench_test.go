//go:build linux

package netactor_test

import (
	"context"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/netactor"
)

// BenchmarkEcho mirrors the io suite's echo scenario in one process: 64
// client connections, each writing a 64-byte message and reading it back,
// against connection actors echoing it. One op is one round trip; allocs
// and CPU per op are the server's plus the clients' (net.Conn reads and
// writes allocate nothing).
func BenchmarkEcho(b *testing.B) {
	const conns, size = 64, 64
	sys, err := actor.NewSystem("bench")
	if err != nil {
		b.Fatal(err)
	}
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_ = sys.Shutdown(ctx)
	}()
	srv, err := netactor.Serve(sys, "echo", "l", "tcp", "127.0.0.1:0", func() netactor.ConnActor { return &echoConn{} })
	if err != nil {
		b.Fatal(err)
	}
	cs := make([]net.Conn, conns)
	for i := range cs {
		if cs[i], err = net.Dial("tcp", srv.Addr().String()); err != nil {
			b.Fatal(err)
		}
		defer cs[i].Close()
	}
	msg := make([]byte, size)
	b.ReportAllocs()
	b.ResetTimer()
	var wg sync.WaitGroup
	for i, c := range cs {
		n := b.N / conns
		if i < b.N%conns {
			n++
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			got := make([]byte, size)
			for range n {
				if _, err := c.Write(msg); err != nil {
					b.Error(err)
					return
				}
				if _, err := io.ReadFull(c, got); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
}
