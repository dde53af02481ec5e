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
