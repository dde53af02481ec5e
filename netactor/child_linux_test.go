//go:build linux

package netactor_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
)

// The client process of TestManyConnections: the test binary started again
// with childEnv set to the server's address and childConnsEnv to the
// number of connections. It opens them all, makes one round trip on each,
// prints "ready", waits for its stdin to close, then closes them all.

const (
	childEnv      = "TROUPE_NETACTOR_CHILD"
	childConnsEnv = "TROUPE_NETACTOR_CONNS"
)

func runChild() int {
	addr := os.Getenv(childEnv)
	n, err := strconv.Atoi(os.Getenv(childConnsEnv))
	if err != nil {
		fmt.Fprintln(os.Stderr, "child: bad connection count:", err)
		return 2
	}
	conns := make([]net.Conn, 0, n)
	for range n {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			fmt.Fprintf(os.Stderr, "child: dial %d: %v\n", len(conns), err)
			return 1
		}
		conns = append(conns, c)
	}
	msg := []byte("12345678")
	for _, c := range conns {
		if _, err := c.Write(msg); err != nil {
			fmt.Fprintln(os.Stderr, "child: write:", err)
			return 1
		}
	}
	buf := make([]byte, len(msg))
	for _, c := range conns {
		if _, err := io.ReadFull(c, buf); err != nil || string(buf) != string(msg) {
			fmt.Fprintf(os.Stderr, "child: echo %q, %v\n", buf, err)
			return 1
		}
	}
	fmt.Println("ready")
	_, _ = io.Copy(io.Discard, bufio.NewReader(os.Stdin))
	for _, c := range conns {
		_ = c.Close()
	}
	return 0
}
