package postgres_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest"
	"github.com/troupe-go/troupe/persist"
	"github.com/troupe-go/troupe/remote/wire"
)

// outageProxy relays TCP connections to a PostgreSQL server until it is
// taken down: then it closes every connection it relays and closes each
// new one at once, as a server that stopped would be seen.
type outageProxy struct {
	ln     net.Listener
	target string

	mu       sync.Mutex
	down     bool
	conns    map[net.Conn]bool
	refusals int
	wg       sync.WaitGroup
}

func startProxy(t *testing.T, target string) *outageProxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &outageProxy{ln: ln, target: target, conns: map[net.Conn]bool{}}
	p.wg.Add(1)
	go p.accept()
	t.Cleanup(func() {
		ln.Close()
		p.setDown(true)
		p.wg.Wait()
	})
	return p
}

func (p *outageProxy) accept() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		down := p.down
		if down {
			p.refusals++
		} else {
			p.conns[c] = true
		}
		p.mu.Unlock()
		if down {
			c.Close()
			continue
		}
		p.wg.Add(1)
		go p.relay(c)
	}
}

// relay copies bytes both ways between c and a connection to the server.
func (p *outageProxy) relay(c net.Conn) {
	defer p.wg.Done()
	s, err := net.Dial("tcp", p.target)
	if err != nil {
		c.Close()
		return
	}
	p.mu.Lock()
	if p.down {
		p.mu.Unlock()
		c.Close()
		s.Close()
		return
	}
	p.conns[s] = true
	p.mu.Unlock()
	done := make(chan struct{}, 2)
	go func() { _, _ = io.Copy(s, c); done <- struct{}{} }()
	go func() { _, _ = io.Copy(c, s); done <- struct{}{} }()
	<-done
	c.Close()
	s.Close()
	<-done
	p.mu.Lock()
	delete(p.conns, c)
	delete(p.conns, s)
	p.mu.Unlock()
}

// setDown takes the server away (closing every connection) or brings it
// back.
func (p *outageProxy) setDown(down bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = down
	if down {
		for c := range p.conns {
			c.Close()
		}
	}
}

func (p *outageProxy) refused() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.refusals
}

// proxied returns rawURL with its host and port replaced by addr's.
func proxied(t *testing.T, rawURL, addr string) (target, through string) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" {
		t.Skipf("TROUPE_POSTGRES_URL %q is not a postgres:// URL with a host: cannot put a proxy before it", rawURL)
	}
	target = u.Host
	if u.Port() == "" {
		target = net.JoinHostPort(u.Hostname(), "5432")
	}
	u.Host = addr
	return target, u.String()
}

// PostgreSQL stops while an event-sourced actor runs: its persists fail
// with an error the handler sees, its recovery retries with backoff until
// the server is back, and no event is stored twice.
func TestEventSourcedWhilePostgresIsDown(t *testing.T) {
	sys := actortest.NewSystem(t) // first, so its goroutine check runs after the proxy and pool closed
	target, _ := proxied(t, serverURL(t), "")
	px := startProxy(t, target)
	_, through := proxied(t, serverURL(t), px.ln.Addr().String())
	store := openStoreAt(t, through)
	reg := wire.NewRegistry()
	if err := wire.Register[added](reg, "added"); err != nil {
		t.Fatal(err)
	}
	handlerSaw := make(chan error, 10) // what the handler's Persist promise settles with
	def := &persist.EventSourced[int64, int64, added]{
		Store: store, Schema: persist.NewSchema(reg),
		RetryMin: time.Second, RetryMax: 4 * time.Second, Timeout: 5 * time.Second,
		Command: func(c *persist.Command[int64, added], n int64) (any, error) {
			if n < 0 { // a read
				return c.State(), nil
			}
			p := c.Persist(added{n})
			p.WhenSettled(func(_ any, err error) { handlerSaw <- err })
			return p, nil
		},
		Apply: func(s int64, e added) int64 { return s + e.N },
	}
	f, err := def.Factory()
	if err != nil {
		t.Fatal(err)
	}
	ref, err := sys.Spawn("counter", "1", f)
	if err != nil {
		t.Fatal(err)
	}
	ask := func(n int64) (int64, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		return actor.Ask[int64](ctx, sys.System, ref, n)
	}
	if got, err := ask(1); err != nil || got != 1 {
		t.Fatalf("first persist: %d, %v", got, err)
	}

	px.setDown(true)
	if _, err := ask(2); err == nil || errors.Is(err, persist.ErrFenced) {
		t.Fatalf("persist while PostgreSQL is down: %v, want a store error", err)
	}
	<-handlerSaw // the first persist's
	if err := <-handlerSaw; err == nil || errors.Is(err, persist.ErrFenced) {
		t.Fatalf("the handler's Persist promise: %v, want the store's error", err)
	}
	replied := make(chan error, 1)
	var state int64
	go func() {
		var err error
		state, err = ask(-1) // waits for the recovery, which retries
		replied <- err
	}()
	for px.refused() < 3 { // the recovery's first attempt, then retries on virtual time
		sys.Advance(time.Second)
	}
	px.setDown(false)
	for done := false; !done; {
		select {
		case err := <-replied:
			if err != nil {
				t.Fatalf("read after PostgreSQL came back: %v", err)
			}
			done = true
		default:
			sys.Advance(time.Second)
		}
	}
	if state != 1 {
		t.Fatalf("recovered %d, want 1 (the write that failed never reached the server)", state)
	}
	if got, err := ask(3); err != nil || got != 4 {
		t.Fatalf("persist after PostgreSQL came back: %d, %v; want 4", got, err)
	}
	var seqs []uint64
	if _, err := store.Read(context.Background(), "counter/1", persist.Cursor{}, func(e persist.Event) error {
		seqs = append(seqs, e.Seq)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(seqs) != 2 || seqs[0] != 1 || seqs[1] != 2 {
		t.Fatalf("journal holds events %v, want [1 2]: each stored once", seqs)
	}
}
