package kv

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/examples/kvserver/resp"
	"github.com/troupe-go/troupe/loop"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// start runs a server with a virtual clock for the test.
func start(t *testing.T) (net.Addr, *loop.VirtualClock) {
	t.Helper()
	clk := loop.NewVirtualClock()
	sys, err := actor.NewSystem("kv", actor.WithClock(clk))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := sys.Shutdown(context.Background()); err != nil {
			t.Error(err)
		}
	})
	srv, err := Start(sys, "tcp", "127.0.0.1:0", 3)
	if err != nil {
		t.Fatal(err)
	}
	return srv.Addr(), clk
}

// client speaks RESP2 to the server.
type client struct {
	t *testing.T
	c net.Conn
	r *bufio.Reader
}

func dial(t *testing.T, addr net.Addr) *client {
	t.Helper()
	c, err := net.Dial("tcp", addr.String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return &client{t: t, c: c, r: bufio.NewReader(c)}
}

func encode(args ...string) []byte {
	b := resp.AppendArrayHeader(nil, len(args))
	for _, a := range args {
		b = resp.AppendBulkString(b, a)
	}
	return b
}

func (c *client) send(b []byte) {
	c.t.Helper()
	if _, err := c.c.Write(b); err != nil {
		c.t.Fatal(err)
	}
}

// reply reads one reply and renders it as text: +s, -s, :n, $s, nil, [a b].
func (c *client) reply() string {
	c.t.Helper()
	s, err := readReply(c.r)
	if err != nil {
		c.t.Fatalf("reading a reply: %v", err)
	}
	return s
}

func readReply(r *bufio.Reader) (string, error) {
	line, err := r.ReadString('\n')
	if err != nil {
		return "", err
	}
	line = strings.TrimSuffix(line, "\r\n")
	switch line[0] {
	case '+', '-', ':':
		return line, nil
	case '$':
		var n int
		fmt.Sscan(line[1:], &n)
		if n < 0 {
			return "nil", nil
		}
		b := make([]byte, n+2)
		if _, err := io.ReadFull(r, b); err != nil {
			return "", err
		}
		return "$" + string(b[:n]), nil
	case '*':
		var n int
		fmt.Sscan(line[1:], &n)
		parts := make([]string, n)
		for i := range parts {
			if parts[i], err = readReply(r); err != nil {
				return "", err
			}
		}
		return "[" + strings.Join(parts, " ") + "]", nil
	}
	return "", fmt.Errorf("bad reply line %q", line)
}

func (c *client) do(args ...string) string {
	c.t.Helper()
	c.send(encode(args...))
	return c.reply()
}

func TestCommands(t *testing.T) {
	addr, _ := start(t)
	c := dial(t, addr)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"PING"}, "+PONG"},
		{[]string{"ping", "hi"}, "$hi"},
		{[]string{"ECHO", "a\r\nb"}, "$a\r\nb"},
		{[]string{"GET", "k"}, "nil"},
		{[]string{"SET", "k", "v"}, "+OK"},
		{[]string{"GET", "k"}, "$v"},
		{[]string{"SET", "empty", ""}, "+OK"},
		{[]string{"GET", "empty"}, "$"},
		{[]string{"EXISTS", "k", "nope", "k"}, ":2"},
		{[]string{"INCR", "n"}, ":1"},
		{[]string{"INCR", "n"}, ":2"},
		{[]string{"INCR", "k"}, "-ERR value is not an integer or out of range"},
		{[]string{"SET", "big", "9223372036854775807"}, "+OK"},
		{[]string{"INCR", "big"}, "-ERR increment or decrement would overflow"},
		{[]string{"MSET", "a", "1", "b", "2", "c", "3"}, "+OK"},
		{[]string{"MGET", "a", "b", "zz", "c"}, "[$1 $2 nil $3]"},
		{[]string{"DEL", "a", "b", "zz"}, ":2"},
		{[]string{"TTL", "c"}, ":-1"},
		{[]string{"TTL", "zz"}, ":-2"},
		{[]string{"EXPIRE", "zz", "10"}, ":0"},
		{[]string{"EXPIRE", "c", "10"}, ":1"},
		{[]string{"TTL", "c"}, ":10"},
		{[]string{"EXPIRE", "c", "0"}, ":1"},
		{[]string{"GET", "c"}, "nil"},
		{[]string{"SET", "x", "1", "EX", "0"}, "-ERR invalid expire time in 'set' command"},
		{[]string{"SET", "x", "1", "EX"}, "-ERR syntax error"},
		{[]string{"SET", "x", "1", "EX", "5", "PX", "9"}, "-ERR syntax error"},
		{[]string{"SET", "x", "1", "XX"}, "-ERR syntax error"},
		{[]string{"SET", "x", "1", "PX", "abc"}, "-ERR value is not an integer or out of range"},
		{[]string{"GET"}, "-ERR wrong number of arguments for 'get' command"},
		{[]string{"MSET", "a", "1", "b"}, "-ERR wrong number of arguments for 'mset' command"},
		{[]string{"NOPE", "x"}, "-ERR unknown command 'NOPE'"},
		{[]string{"CONFIG", "GET", "save"}, "[$save $]"},
		{[]string{"CONFIG", "GET", "appendonly"}, "[$appendonly $no]"},
		{[]string{"CONFIG", "GET", "nothing"}, "[]"},
		{[]string{"CONFIG", "SET", "save", ""}, "-ERR only CONFIG GET <parameter> is supported"},
	} {
		if got := c.do(tc.args...); got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.args, got, tc.want)
		}
	}
}

func TestTTLExpiresByActorTimers(t *testing.T) {
	addr, clk := start(t)
	c := dial(t, addr)
	for _, tc := range []struct{ args []string }{
		{[]string{"SET", "ex", "1", "EX", "10"}},
		{[]string{"SET", "px", "1", "PX", "1500"}},
		{[]string{"SET", "keep", "1", "EX", "10"}},
		{[]string{"SET", "keep", "2"}}, // a SET without EX clears the TTL
	} {
		if got := c.do(tc.args...); got != "+OK" {
			t.Fatalf("%q: %q", tc.args, got)
		}
	}
	clk.Advance(1499 * time.Millisecond)
	if got := c.do("MGET", "ex", "px", "keep"); got != "[$1 $1 $2]" {
		t.Fatalf("before expiry: %q", got)
	}
	clk.Advance(time.Millisecond)
	if got := c.do("MGET", "ex", "px", "keep"); got != "[$1 nil $2]" {
		t.Fatalf("at 1.5 s: %q", got)
	}
	if got := c.do("TTL", "ex"); got != ":9" {
		t.Fatalf("TTL at 1.5 s: %q", got)
	}
	clk.Advance(10 * time.Second)
	if got := c.do("EXISTS", "ex", "px", "keep"); got != ":1" {
		t.Fatalf("after 11.5 s: %q", got)
	}
}

func TestPipelineKeepsOrder(t *testing.T) {
	addr, _ := start(t)
	c := dial(t, addr)
	var req []byte
	const n = 2000
	for i := range n {
		req = append(req, encode("SET", fmt.Sprint("k", i), fmt.Sprint(i))...)
		req = append(req, encode("GET", fmt.Sprint("k", i))...)
		req = append(req, encode("INCR", "counter")...)
	}
	go func() { _, _ = c.c.Write(req) }()
	for i := range n {
		if got := c.reply(); got != "+OK" {
			t.Fatalf("SET %d: %q", i, got)
		}
		if got := c.reply(); got != fmt.Sprint("$", i) {
			t.Fatalf("GET %d: %q", i, got)
		}
		if got := c.reply(); got != fmt.Sprint(":", i+1) {
			t.Fatalf("INCR %d: %q", i, got)
		}
	}
}

func TestBigValue(t *testing.T) {
	addr, _ := start(t)
	c := dial(t, addr)
	val := strings.Repeat("0123456789abcdef", 1<<16) // 1 MiB
	go c.send(encode("SET", "big", val))
	if got := c.reply(); got != "+OK" {
		t.Fatal(got)
	}
	if got := c.do("GET", "big"); got != "$"+val {
		t.Fatalf("GET returned %d bytes", len(got)-1)
	}
}

func TestMalformedInputGetsProtocolError(t *testing.T) {
	addr, _ := start(t)
	for _, tc := range []struct {
		name, in, want string
	}{
		{"bad multibulk length", "*x\r\n", "-ERR Protocol error: invalid multibulk length"},
		{"not a bulk", "*1\r\n:1\r\n", "-ERR Protocol error: expected '$', got ':'"},
		{"bad bulk length", "*1\r\n$-5\r\n", "-ERR Protocol error: invalid bulk length"},
		{"no CRLF after bulk", "*1\r\n$1\r\nabc\r\n", "-ERR Protocol error: bulk string not terminated by CRLF"},
		{"after a good command", "PING\r\n*1\r\n$z\r\n", "+PONG"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := dial(t, addr)
			c.send([]byte(tc.in))
			if got := c.reply(); got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
			// Then the server closes the connection (after any error reply).
			rest, err := io.ReadAll(c.r)
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == "+PONG" && !strings.HasPrefix(string(rest), "-ERR Protocol error") {
				t.Fatalf("after PONG: %q", rest)
			}
		})
	}
	// The server still serves.
	if got := dial(t, addr).do("PING"); got != "+PONG" {
		t.Fatal(got)
	}
}

func TestQuitCloses(t *testing.T) {
	addr, _ := start(t)
	c := dial(t, addr)
	c.send(append(encode("QUIT"), encode("PING")...))
	if got := c.reply(); got != "+OK" {
		t.Fatal(got)
	}
	if rest, _ := io.ReadAll(c.r); len(rest) != 0 {
		t.Fatalf("after QUIT: %q", rest)
	}
}

func TestInlineCommands(t *testing.T) {
	addr, _ := start(t)
	c := dial(t, addr)
	c.send([]byte("SET a hello\r\n\r\nGET a\n"))
	if got := c.reply(); got != "+OK" {
		t.Fatal(got)
	}
	if got := c.reply(); got != "$hello" {
		t.Fatal(got)
	}
}

func TestRepliesAfterClientHalfClose(t *testing.T) {
	addr, _ := start(t)
	c := dial(t, addr)
	c.send(append(encode("SET", "a", "1"), encode("GET", "a")...))
	if err := c.c.(*net.TCPConn).CloseWrite(); err != nil {
		t.Fatal(err)
	}
	rest, err := io.ReadAll(c.r)
	if err != nil {
		t.Fatal(err)
	}
	if string(rest) != "+OK\r\n$1\r\n1\r\n" {
		t.Fatalf("replies %q", rest)
	}
}
