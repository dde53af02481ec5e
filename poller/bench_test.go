package poller_test

import (
	"testing"

	"github.com/troupe-go/troupe/poller"
)

// BenchmarkWake measures one Wake and the Wait that consumes it.
func BenchmarkWake(b *testing.B) {
	p := newPoller(b)
	buf := make([]poller.Event, 8)
	for b.Loop() {
		if err := p.Wake(); err != nil {
			b.Fatal(err)
		}
		if _, err := p.Wait(buf, -1); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWakeCoalesced measures a Wake that finds one already pending:
// the cost every Wake but the first pays until Wait consumes it.
func BenchmarkWakeCoalesced(b *testing.B) {
	p := newPoller(b)
	if err := p.Wake(); err != nil {
		b.Fatal(err)
	}
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			_ = p.Wake()
		}
	})
}
