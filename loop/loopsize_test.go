package loop

import (
	"testing"
	"unsafe"
)

// maxLoopSize bounds the loop, which an actor's cell embeds: 208 bytes
// leave the cell room to fit the allocator's 288-byte class (see the
// actor package's TestCellSize).
const maxLoopSize = 208

// Where the loop's groups of fields begin: an embedding host lines them
// up with cache lines (the actor package's TestCellLines repeats them).
const (
	loopProducerFrom  = 32  // the wake-up word and the ingress: every producer writes them
	loopWrittenFrom   = 96  // written as the loop runs: once a round or an activation
	loopPerCallFrom   = 184 // written with every callback (flags to the end)
	loopProducerBytes = 64
)

// The loop stays within its budget, in four groups: 32 bytes written only
// when the loop is set up or its side state made (config, host, side
// state), which producers read on a wake-up; what every producer touches
// (the wake-up word and the ingress) in the next 64; then what the loop
// writes once a round or an activation; then what it writes with every
// callback.
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
		{"cfg", unsafe.Offsetof(l.cfg), 0, loopProducerFrom},
		{"host", unsafe.Offsetof(l.host), 0, loopProducerFrom},
		{"side", unsafe.Offsetof(l.side), 0, loopProducerFrom},
		{"status", unsafe.Offsetof(l.status), loopProducerFrom, loopWrittenFrom},
		{"owner", unsafe.Offsetof(l.owner), loopProducerFrom, loopWrittenFrom},
		{"in (end)", unsafe.Offsetof(l.in) + unsafe.Sizeof(l.in) - 1, loopProducerFrom, loopWrittenFrom},
		{"pub", unsafe.Offsetof(l.pub), loopWrittenFrom, loopPerCallFrom},
		{"mb", unsafe.Offsetof(l.mb), loopWrittenFrom, loopPerCallFrom},
		{"flags", unsafe.Offsetof(l.flags), loopPerCallFrom, maxLoopSize},
		{"nowStale", unsafe.Offsetof(l.nowStale), loopPerCallFrom, maxLoopSize},
		{"delta", unsafe.Offsetof(l.delta), loopPerCallFrom, maxLoopSize},
	}
	for _, f := range fields {
		if f.off < f.from || f.off >= f.to {
			t.Errorf("Loop.%s at %d, outside its group [%d, %d)", f.name, f.off, f.from, f.to)
		}
	}
	if got := unsafe.Offsetof(l.in) + unsafe.Sizeof(l.in) - loopProducerFrom; got != loopProducerBytes {
		t.Errorf("the producers' group is %d bytes, not %d", got, loopProducerBytes)
	}
}
