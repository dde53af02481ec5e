//go:build linux || darwin || dragonfly || freebsd

package poller_test

import (
	"testing"

	"golang.org/x/sys/unix"

	"github.com/troupe-go/troupe/poller"
)

// BenchmarkWaitReady measures a pipe round: write a byte, Wait reports the
// read end, read the byte.
func BenchmarkWaitReady(b *testing.B) {
	p := newPoller(b)
	r, w := newPipe(b)
	register(b, p, r, poller.Readable, 1)
	events := make([]poller.Event, 8)
	one := []byte{1}
	for b.Loop() {
		if _, err := unix.Write(w.n, one); err != nil {
			b.Fatal(err)
		}
		if n, err := p.Wait(events, -1); err != nil || n != 1 {
			b.Fatalf("Wait = %d, %v", n, err)
		}
		if _, err := unix.Read(r.n, one); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRegisterUnregister measures one Register plus one Unregister.
func BenchmarkRegisterUnregister(b *testing.B) {
	p := newPoller(b)
	r, _ := newPipe(b)
	for b.Loop() {
		if err := p.Register(r.u(), poller.Readable, 1); err != nil {
			b.Fatal(err)
		}
		if err := p.Unregister(r.u()); err != nil {
			b.Fatal(err)
		}
	}
}
