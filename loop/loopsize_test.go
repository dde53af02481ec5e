package loop

import (
	"testing"
	"unsafe"

	"github.com/troupe-go/troupe/internal/looplayout"
)

// maxLoopSize bounds the loop, which an actor's cell embeds (see the actor
// package's TestCellSize): a driven loop alone is in the allocator's
// 240-byte class.
const maxLoopSize = 240

// The loop stays within its budget, in five groups: what every producer
// touches (the ingress, with the wake-up word and the first letter) in its
// first 64 bytes; 56 bytes written only when the loop is set up or shuts
// down, its side state made or its scheduler's list changes beside it
// (state, config, host, side state, list links); then what only a loop's
// timers, promises and microtasks write; then what the loop writes once a
// round or an activation; then what it writes with every callback.
func TestLoopLayout(t *testing.T) {
	var l Loop
	if got := unsafe.Sizeof(l); got > maxLoopSize {
		t.Fatalf("Loop is %d bytes, over %d: an actor's cell moves up a size class; "+
			"move what an idle loop does not need to its side state", got, maxLoopSize)
	}
	fields := []struct {
		name     string
		off      uintptr
		from, to uintptr
	}{
		{"cfg", unsafe.Offsetof(l.cfg), looplayout.ReadOnlyFrom, looplayout.WrittenFrom},
		{"host", unsafe.Offsetof(l.host), looplayout.ReadOnlyFrom, looplayout.WrittenFrom},
		{"side", unsafe.Offsetof(l.side), looplayout.ReadOnlyFrom, looplayout.WrittenFrom},
		{"schedNext", unsafe.Offsetof(l.schedNext), looplayout.ReadOnlyFrom, looplayout.WrittenFrom},
		{"state", unsafe.Offsetof(l.state), looplayout.ReadOnlyFrom, looplayout.WrittenFrom},
		{"owner", unsafe.Offsetof(l.owner), looplayout.PerRoundFrom, looplayout.PerCallFrom},
		{"in (end)", unsafe.Offsetof(l.in) + unsafe.Sizeof(l.in) - 1, looplayout.ProducersFrom, looplayout.ReadOnlyFrom},
		{"nextDue", unsafe.Offsetof(l.nextDue), looplayout.WrittenFrom, looplayout.PerRoundFrom},
		{"micro (end)", unsafe.Offsetof(l.micro) + unsafe.Sizeof(l.micro) - 1, looplayout.WrittenFrom, looplayout.PerRoundFrom},
		{"tb", unsafe.Offsetof(l.tb), looplayout.PerRoundFrom, looplayout.PerCallFrom},
		{"pub (end)", unsafe.Offsetof(l.pub) + unsafe.Sizeof(l.pub) - 1, looplayout.PerRoundFrom, looplayout.PerCallFrom},
		{"flags", unsafe.Offsetof(l.flags), looplayout.PerCallFrom, maxLoopSize},
		{"nowStale", unsafe.Offsetof(l.nowStale), looplayout.PerCallFrom, maxLoopSize},
		{"delta", unsafe.Offsetof(l.delta), looplayout.PerCallFrom, maxLoopSize},
	}
	for _, f := range fields {
		if f.off < f.from || f.off >= f.to {
			t.Errorf("Loop.%s at %d, outside its group [%d, %d)", f.name, f.off, f.from, f.to)
		}
	}
	if got := unsafe.Sizeof(l.in); got != looplayout.ProducerBytes {
		t.Errorf("the producers' group is %d bytes, not %d", got, looplayout.ProducerBytes)
	}
}
