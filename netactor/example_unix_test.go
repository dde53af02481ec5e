//go:build unix

package netactor_test

import (
	"context"
	"fmt"
	"strings"

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
