package actor

import (
	"testing"
	"unsafe"
)

// maxCellSize bounds the cell, which holds the actor's loop: an idle actor
// costs the cell, rounded up to the allocator's size class, plus a few
// registry bytes. The classes around here are 320, 352, 384 and 416 bytes,
// so one field too many moves every actor up a class: 32 more bytes each,
// 32 MB more at a million actors.
const maxCellSize = 320

// The cell stays within its size class; what most actors never use
// belongs in cellRare or the loop's side state.
func TestCellSize(t *testing.T) {
	if got := unsafe.Sizeof(cell{}); got > maxCellSize {
		t.Fatalf("cell is %d bytes, over %d: every actor moves up a size class of the allocator "+
			"(320, 352, 384, 416 B), 32 B more each; move what an idle actor does not need out of line",
			got, maxCellSize)
	}
}

// The fields every sender reads start a cache line of their own, apart
// from what the loop writes as it handles messages (see cell). That holds
// while the cell's size class is a multiple of 64 bytes (320 is), so that
// every cell starts on a line.
func TestCellSenderLine(t *testing.T) {
	var c cell
	if got := unsafe.Offsetof(c.path); got%64 != 0 {
		t.Errorf("cell.path at offset %d, not at the start of a cache line", got)
	}
	if got := unsafe.Offsetof(c.state); got/64 == unsafe.Offsetof(c.path)/64 {
		t.Errorf("cell.state (written per message) shares a cache line with cell.path")
	}
	if maxCellSize%64 != 0 {
		t.Errorf("the cell's size class (%d B) does not keep cells on 64-byte lines", maxCellSize)
	}
}
