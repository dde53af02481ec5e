package poller_test

import (
	"errors"
	"net"
	"syscall"
	"testing"

	"github.com/troupe-go/troupe/poller"
)

// These tests were written for windows and compile there, but have not
// run: the project's machines are linux (see the package doc).

// rawHandle returns the socket handle behind c.
func rawHandle(t *testing.T, c syscall.Conn) uintptr {
	t.Helper()
	rc, err := c.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var h uintptr
	if err := rc.Control(func(fd uintptr) { h = fd }); err != nil {
		t.Fatal(err)
	}
	return h
}

// tcpPair returns both ends of a loopback TCP connection.
func tcpPair(t *testing.T) (client, server *net.TCPConn) {
	t.Helper()
	ln, err := net.ListenTCP("tcp4", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	client, err = net.DialTCP("tcp4", nil, ln.Addr().(*net.TCPAddr))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Close() })
	server, err = ln.AcceptTCP()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { server.Close() })
	return client, server
}

func TestWindowsTCP(t *testing.T) {
	p := newPoller(t)
	client, server := tcpPair(t)
	h := rawHandle(t, server)
	registerFD(t, p, h, poller.Readable|poller.Writable, 1)
	if got := await(t, p, 1, poller.Writable); got&poller.Readable != 0 {
		t.Fatalf("fresh connection: got %v, want no Readable", got)
	}
	if err := p.Modify(h, poller.Readable); err != nil {
		t.Fatal(err)
	}
	quiet(t, p, 1, "no data yet")
	if _, err := client.Write([]byte("ping")); err != nil {
		t.Fatal(err)
	}
	await(t, p, 1, poller.Readable)
	client.Close()
	await(t, p, 1, poller.HangUp)
	if err := p.Unregister(h); err != nil {
		t.Fatal(err)
	}
}

func TestWindowsOneShot(t *testing.T) {
	p := newPoller(t)
	client, server := tcpPair(t)
	h := rawHandle(t, server)
	registerFD(t, p, h, poller.Readable|poller.OneShot, 1)
	if _, err := client.Write([]byte("x")); err != nil {
		t.Fatal(err)
	}
	await(t, p, 1, poller.Readable)
	quiet(t, p, 1, "one-shot fired")
	if err := p.Modify(h, poller.Readable|poller.OneShot); err != nil {
		t.Fatal(err)
	}
	await(t, p, 1, poller.Readable)
}

func TestWindowsErrors(t *testing.T) {
	p := newPoller(t)
	_, server := tcpPair(t)
	h := rawHandle(t, server)
	if err := p.Register(h, poller.Readable|poller.EdgeTriggered, 1); !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("EdgeTriggered = %v, want ErrUnsupported", err)
	}
	registerFD(t, p, h, poller.Readable, 1)
	if err := p.Register(h, poller.Readable, 2); !errors.Is(err, poller.ErrRegistered) {
		t.Errorf("second Register = %v, want ErrRegistered", err)
	}
}
