//go:build linux || darwin || dragonfly || freebsd

package poller_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"sync"
	"sync/atomic"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/troupe-go/troupe/poller"
)

func TestPipeReadiness(t *testing.T) {
	tests := []struct {
		name string
		// setup registers one end with token 1 and makes it ready.
		setup func(t *testing.T, p *poller.Poller, r, w *osFD)
		want  poller.Events
	}{
		{"readable after write", func(t *testing.T, p *poller.Poller, r, w *osFD) {
			register(t, p, r, poller.Readable, 1)
			write(t, w, "x")
		}, poller.Readable},
		{"writable", func(t *testing.T, p *poller.Poller, r, w *osFD) {
			register(t, p, w, poller.Writable, 1)
		}, poller.Writable},
		{"hang-up when the writer closes", func(t *testing.T, p *poller.Poller, r, w *osFD) {
			register(t, p, r, poller.Readable, 1)
			w.close()
		}, poller.HangUp},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newPoller(t)
			r, w := newPipe(t)
			tt.setup(t, p, r, w)
			await(t, p, 1, tt.want)
		})
	}
}

func TestPipeNotReady(t *testing.T) {
	p := newPoller(t)
	r, _ := newPipe(t)
	register(t, p, r, poller.Readable, 1)
	quiet(t, p, 1, "empty pipe")
}

func TestSocketpairBothDirections(t *testing.T) {
	p := newPoller(t)
	a, b := newSocketpair(t)
	register(t, p, a, poller.Readable, 1)
	register(t, p, b, poller.Readable, 2)
	write(t, a, "a to b")
	await(t, p, 2, poller.Readable)
	quiet(t, p, 1, "a has no data")
	drain(t, b)
	write(t, b, "b to a")
	await(t, p, 1, poller.Readable)
	quiet(t, p, 2, "b was drained")
}

func TestEdgeTriggered(t *testing.T) {
	p := newPoller(t)
	a, b := newSocketpair(t)
	register(t, p, a, poller.Readable|poller.EdgeTriggered, 1)
	write(t, b, "first")
	await(t, p, 1, poller.Readable)
	quiet(t, p, 1, "no new data since the edge")
	write(t, b, "second")
	await(t, p, 1, poller.Readable)
	quiet(t, p, 1, "no new data since the second edge")
}

func TestOneShot(t *testing.T) {
	p := newPoller(t)
	a, b := newSocketpair(t)
	register(t, p, a, poller.Readable|poller.OneShot, 1)
	write(t, b, "x")
	await(t, p, 1, poller.Readable)
	quiet(t, p, 1, "one-shot fired, data still unread")
	write(t, b, "y")
	quiet(t, p, 1, "one-shot fired, more data")
	if err := p.Modify(a.u(), poller.Readable|poller.OneShot); err != nil {
		t.Fatalf("Modify re-arm: %v", err)
	}
	await(t, p, 1, poller.Readable)
	quiet(t, p, 1, "re-armed one-shot fired again")
}

func TestModify(t *testing.T) {
	p := newPoller(t)
	a, _ := newSocketpair(t)
	register(t, p, a, poller.Readable, 1)
	quiet(t, p, 1, "no data")
	if err := p.Modify(a.u(), poller.Writable); err != nil {
		t.Fatalf("Modify(Writable): %v", err)
	}
	if got := await(t, p, 1, poller.Writable); got&poller.Readable != 0 {
		t.Fatalf("got %v, want no Readable", got)
	}
	if err := p.Modify(a.u(), poller.Readable); err != nil {
		t.Fatalf("Modify(Readable): %v", err)
	}
	quiet(t, p, 1, "back to Readable, no data")
}

func TestUnregister(t *testing.T) {
	p := newPoller(t)
	a, b := newSocketpair(t)
	register(t, p, a, poller.Readable, 1)
	write(t, b, "x")
	await(t, p, 1, poller.Readable)
	if err := p.Unregister(a.u()); err != nil {
		t.Fatalf("Unregister: %v", err)
	}
	quiet(t, p, 1, "unregistered, data unread")
	if err := p.Unregister(a.u()); !errors.Is(err, poller.ErrNotRegistered) {
		t.Fatalf("second Unregister = %v, want ErrNotRegistered", err)
	}
	register(t, p, a, poller.Readable, 2) // registering again works
	await(t, p, 2, poller.Readable)
}

func TestRegisterErrors(t *testing.T) {
	p := newPoller(t)
	r, _ := newPipe(t)
	register(t, p, r, poller.Readable, 1)
	if err := p.Register(r.u(), poller.Readable, 2); !errors.Is(err, poller.ErrRegistered) {
		t.Errorf("second Register = %v, want ErrRegistered", err)
	}
	if err := p.Register(1<<30, poller.Readable, 3); err == nil {
		t.Errorf("Register(fd not open) = nil, want an error")
	}
	if err := p.Register(1<<40, poller.Readable, 4); err == nil {
		t.Errorf("Register(fd out of range) = nil, want an error")
	}
}

func TestUnregisterAfterClose(t *testing.T) {
	p := newPoller(t)
	r, _ := newPipe(t)
	fd := r.u()
	register(t, p, r, poller.Readable, 1)
	r.close()
	if err := p.Unregister(fd); err != nil {
		t.Fatalf("Unregister of a closed fd = %v, want nil", err)
	}
}

// TestStaleAfterUnregister: an fd unregistered and closed, its number
// reused by a new registration: the old token is never reported.
func TestStaleAfterUnregister(t *testing.T) {
	p := newPoller(t)
	r, w := newPipe(t)
	register(t, p, r, poller.Readable, 1)
	write(t, w, "old")
	old := r.n
	if err := p.Unregister(r.u()); err != nil {
		t.Fatal(err)
	}
	r.close()
	w.close()
	r2, w2 := newPipe(t)
	if r2.n != old {
		t.Skipf("fd %d was not reused (got %d); cannot build the reuse", old, r2.n)
	}
	register(t, p, r2, poller.Readable, 2)
	quiet(t, p, 1, "old registration")
	quiet(t, p, 2, "new pipe is empty")
	write(t, w2, "new")
	for _, ev := range poll(t, p) {
		if ev.Token != 2 {
			t.Fatalf("got token %d, want only 2", ev.Token)
		}
	}
	await(t, p, 2, poller.Readable)
}

func TestTCPLoopback(t *testing.T) {
	p := newPoller(t)
	lfd, port := listenLoopback(t)
	register(t, p, lfd, poller.Readable, 1)
	conn, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	defer conn.Close()
	await(t, p, 1, poller.Readable)

	nfd, _, err := unix.Accept(lfd.n)
	if err != nil {
		t.Fatalf("accept: %v", err)
	}
	sfd := track(t, nfd)
	register(t, p, sfd, poller.Readable|poller.Writable, 2)
	if got := await(t, p, 2, poller.Writable); got&poller.Readable != 0 {
		t.Fatalf("fresh connection: got %v, want no Readable", got)
	}
	if _, err := conn.Write([]byte("ping")); err != nil {
		t.Fatal(err)
	}
	await(t, p, 2, poller.Readable)
	drain(t, sfd)
	if err := p.Modify(sfd.u(), poller.Readable); err != nil {
		t.Fatal(err)
	}
	conn.Close()
	await(t, p, 2, poller.Readable|poller.HangUp)
}

func listenLoopback(t *testing.T) (*osFD, int) {
	t.Helper()
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM, 0)
	if err != nil {
		t.Fatalf("socket: %v", err)
	}
	lfd := track(t, fd)
	if err := unix.Bind(fd, &unix.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatalf("bind: %v", err)
	}
	if err := unix.Listen(fd, 16); err != nil {
		t.Fatalf("listen: %v", err)
	}
	sa, err := unix.Getsockname(fd)
	if err != nil {
		t.Fatalf("getsockname: %v", err)
	}
	return lfd, sa.(*unix.SockaddrInet4).Port
}

// TestManyFDs registers 10,000 fds (5,000 pipes), makes a random subset
// ready and checks that exactly those tokens are reported.
func TestManyFDs(t *testing.T) {
	const pipes = 5000
	raiseNoFile(t, 2*pipes+100)
	p := newPoller(t)
	reads := make([]*osFD, pipes)
	writes := make([]*osFD, pipes)
	for i := range pipes {
		reads[i], writes[i] = newPipe(t)
		register(t, p, reads[i], poller.Readable, uint64(i))
		register(t, p, writes[i], poller.Readable, uint64(pipes+i)) // never readable
	}
	rng := rand.New(rand.NewPCG(1, 2))
	want := map[uint64]bool{}
	for _, i := range rng.Perm(pipes)[:pipes/10] {
		want[uint64(i)] = true
		write(t, writes[i], "x")
	}
	got := map[uint64]bool{}
	buf := make([]poller.Event, 256)
	for len(got) < len(want) {
		n, err := p.Wait(buf, patience)
		if err != nil || n == 0 {
			t.Fatalf("Wait = %d, %v after %d of %d tokens", n, err, len(got), len(want))
		}
		for _, ev := range buf[:n] {
			if !want[ev.Token] {
				t.Fatalf("token %d reported, but its fd is not ready", ev.Token)
			}
			got[ev.Token] = true
		}
	}
}

func raiseNoFile(t *testing.T, need uint64) {
	t.Helper()
	var lim unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatalf("getrlimit: %v", err)
	}
	if uint64(lim.Cur) >= need {
		return
	}
	if uint64(lim.Max) < need {
		t.Skipf("RLIMIT_NOFILE hard limit %d is below the %d fds this test needs", lim.Max, need)
	}
	lim.Cur = lim.Max
	if err := unix.Setrlimit(unix.RLIMIT_NOFILE, &lim); err != nil {
		t.Skipf("cannot raise RLIMIT_NOFILE: %v", err)
	}
}

// TestStress runs Register/Unregister/Wake from several goroutines while
// one goroutine Waits; under -race it checks the locking. It also checks
// that a Wait that starts after an Unregister returned never reports the
// unregistered token.
func TestStress(t *testing.T) {
	const workers, rounds = 4, 300
	p := newPoller(t)
	var unregistered [workers]atomic.Int64 // last round whose Unregister returned
	for w := range unregistered {
		unregistered[w].Store(-1)
	}
	stop := make(chan struct{})
	waiter := make(chan error, 1)
	go func() { waiter <- waitLoop(p, unregistered[:], stop) }()

	var wg sync.WaitGroup
	for w := range workers {
		r, wr := newPipe(t)
		wg.Go(func() {
			for i := range rounds {
				if err := p.Register(r.u(), poller.Readable, uint64(w)<<32|uint64(i)); err != nil {
					t.Errorf("Register: %v", err)
					return
				}
				_, _ = unix.Write(wr.n, []byte("x"))
				_ = p.Wake()
				if err := p.Unregister(r.u()); err != nil {
					t.Errorf("Unregister: %v", err)
					return
				}
				unregistered[w].Store(int64(i))
				drainQuiet(r)
			}
		})
	}
	wg.Wait()
	close(stop)
	_ = p.Wake()
	if err := <-waiter; err != nil {
		t.Fatal(err)
	}
}

func waitLoop(p *poller.Poller, unregistered []atomic.Int64, stop <-chan struct{}) error {
	buf := make([]poller.Event, 16)
	snap := make([]int64, len(unregistered))
	for {
		for w := range unregistered {
			snap[w] = unregistered[w].Load()
		}
		n, err := p.Wait(buf, -1)
		if err != nil {
			return err
		}
		for _, ev := range buf[:n] {
			w, i := ev.Token>>32, int64(uint32(ev.Token))
			if i <= snap[w] {
				return fmt.Errorf("worker %d round %d reported after its Unregister returned", w, i)
			}
		}
		select {
		case <-stop:
			return nil
		default:
		}
	}
}

func drainQuiet(f *osFD) {
	buf := make([]byte, 64)
	for {
		if _, err := unix.Read(f.n, buf); err != nil {
			return
		}
	}
}

// TestTCPReset: a peer that aborts the connection (RST, through a zero
// linger) makes the socket report Error and HangUp.
func TestTCPReset(t *testing.T) {
	p := newPoller(t)
	lfd, port := listenLoopback(t)
	conn, err := net.DialTCP("tcp", nil, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: port})
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	defer conn.Close()
	register(t, p, lfd, poller.Readable, 1)
	await(t, p, 1, poller.Readable)
	nfd, _, err := unix.Accept(lfd.n)
	if err != nil {
		t.Fatalf("accept: %v", err)
	}
	sfd := track(t, nfd)
	register(t, p, sfd, poller.Readable, 2)
	if err := conn.SetLinger(0); err != nil {
		t.Fatal(err)
	}
	conn.Close()
	await(t, p, 2, poller.Error|poller.HangUp)
}
