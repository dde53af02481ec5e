package loop

import (
	"testing"
	"unsafe"
)

// maxLoopSize bounds the loop, which an actor's cell embeds: 208 bytes
// leave the cell room to fit the allocator's 288-byte class (see the
// actor package's TestCellSize).
const maxLoopSize = 208

// The loop stays within its budget, in three groups an embedding host can
// line up with cache lines: what every producer touches (the ingress and
// the wake-up word) in its first 64 bytes; then 32 bytes that are written
// only when the loop is set up or its side state made (config, host, side
// state), which producers read on a wake-up; then what the loop writes as
// it runs.
func TestLoopLayout(t *testing.T) {
	var l Loop
	if got := unsafe.Sizeof(l); got > maxLoopSize {
		t.Fatalf("Loop is %d bytes, over %d: an actor's cell moves up a size class; "+
			"move what an idle loop does not need to its side state", got, maxLoopSize)
	}
	if end := unsafe.Offsetof(l.in) + unsafe.Sizeof(l.in); end > 64 {
		t.Errorf("the ingress ends at %d, past the first 64 bytes", end)
	}
	for name, off := range map[string]uintptr{
		"cfg": unsafe.Offsetof(l.cfg), "host": unsafe.Offsetof(l.host), "side": unsafe.Offsetof(l.side),
	} {
		if off < 64 || off >= 96 {
			t.Errorf("Loop.%s at %d, outside the read-mostly bytes [64, 96)", name, off)
		}
	}
	if off := unsafe.Offsetof(l.tb); off < 96 {
		t.Errorf("Loop.tb (written as the loop runs) at %d, before 96", off)
	}
}
