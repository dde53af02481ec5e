package actor

import (
	"testing"
	"unsafe"

	"github.com/troupe-go/troupe/internal/looplayout"
)

// maxCellSize bounds the cell, which holds the actor's loop: an idle actor
// costs the cell, rounded up to the allocator's size class, plus a few
// registry bytes. The classes around here are 256, 288, 320 and 352 bytes,
// so one field too many moves every actor up a class: 32 more bytes each,
// 32 MB more at a million actors. Only 256 and 320 keep cells on cache
// lines (see cell).
const maxCellSize = 320

// The cell stays within its size class; what most actors never use
// belongs in cellRare or the loop's side state.
func TestCellSize(t *testing.T) {
	if got := unsafe.Sizeof(cell{}); got > maxCellSize {
		t.Fatalf("cell is %d bytes, over %d: every actor moves up a size class of the allocator "+
			"(320, 352, 384 B), 32 B more each; move what an idle actor does not need out of line",
			got, maxCellSize)
	}
}

// Who writes a cell's byte once the actor runs.
type writer int

const (
	nobody    writer = iota
	producers        // senders: the loop's wake-up word and ingress
	quiet            // the loop, if it has timers, promises or microtasks
	perRound         // the loop, once a round or an activation
	perCall          // the loop, with every message
)

func (w writer) String() string {
	return [...]string{"nobody", "producers", "the loop's timers, promises and microtasks",
		"the loop once a round", "the loop with every message"}[w]
}

// writerOf says who writes the byte at off of a cell's size class.
func writerOf(off uintptr) writer {
	var c cell
	loopAt := unsafe.Offsetof(c.l)
	switch {
	case off >= unsafe.Sizeof(c): // padding up to the class
		return nobody
	case off >= unsafe.Offsetof(c.state) && off < unsafe.Offsetof(c.timers)+unsafe.Sizeof(c.timers):
		return perCall
	case off < loopAt || off >= loopAt+unsafe.Sizeof(c.l):
		return nobody
	case off < loopAt+looplayout.ReadOnlyFrom:
		return producers
	case off < loopAt+looplayout.WrittenFrom:
		return nobody
	case off < loopAt+looplayout.PerRoundFrom:
		return quiet
	case off < loopAt+looplayout.PerCallFrom:
		return perRound
	}
	return perCall
}

// What senders read first (path, cfg) shares its 64-byte line only with
// bytes nobody writes, and the loop's ingress and wake-up word share
// theirs with none the loop writes with every message or round (a loop
// that handles mail only writes nothing on their line). Cells start on a
// line: their size class is a multiple of 64.
func TestCellLines(t *testing.T) {
	var c cell
	loopAt := unsafe.Offsetof(c.l)
	checks := []struct {
		name     string
		off, len uintptr
		worst    writer // the most a writer of a byte on its line may write
	}{
		{"path", unsafe.Offsetof(c.path), unsafe.Sizeof(c.path), nobody},
		{"cfg", unsafe.Offsetof(c.cfg), unsafe.Sizeof(c.cfg), nobody},
		{"the loop's ingress and wake-up word", loopAt, looplayout.ReadOnlyFrom, quiet},
	}
	for _, ck := range checks {
		for b := ck.off; b < ck.off+ck.len; b++ {
			line := b / 64 * 64
			for x := line; x < line+64; x++ {
				if w := writerOf(x); w > ck.worst {
					t.Fatalf("%s (byte %d) shares a line with byte %d, written by %v", ck.name, b, x, w)
				}
			}
		}
	}
	if maxCellSize%64 != 0 {
		t.Errorf("the cell's size class (%d B) does not keep cells on 64-byte lines", maxCellSize)
	}
}
