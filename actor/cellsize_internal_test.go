package actor

import (
	"testing"
	"unsafe"
)

// maxCellSize bounds the cell, which holds the actor's loop: an idle actor
// costs the cell, rounded up to the allocator's size class, plus a few
// registry bytes. The classes around here are 256, 288, 320 and 352 bytes,
// so one field too many moves every actor up a class: 32 more bytes each,
// 32 MB more at a million actors.
const maxCellSize = 288

// The loop's groups of fields, as the loop package's TestLoopLayout keeps
// them: read-only from 0, written by producers from loopProducerFrom,
// written by the loop once a round from loopWrittenFrom and with every
// callback from loopPerCallFrom.
const (
	loopProducerFrom = 32
	loopWrittenFrom  = 96
	loopPerCallFrom  = 184
)

// The cell stays within its size class; what most actors never use
// belongs in cellRare or the loop's side state.
func TestCellSize(t *testing.T) {
	if got := unsafe.Sizeof(cell{}); got > maxCellSize {
		t.Fatalf("cell is %d bytes, over %d: every actor moves up a size class of the allocator "+
			"(288, 320, 352 B), 32 B more each; move what an idle actor does not need out of line",
			got, maxCellSize)
	}
}

// Who writes a cell's byte once the actor runs.
type writer int

const (
	nobody    writer = iota
	producers        // senders: the loop's wake-up word and ingress
	perRound         // the loop, once a round or an activation
	perCall          // the loop, with every message
)

func (w writer) String() string {
	return [...]string{"nobody", "producers", "the loop once a round", "the loop with every message"}[w]
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
	case off < loopAt+loopProducerFrom || off >= loopAt+unsafe.Sizeof(c.l):
		return nobody
	case off < loopAt+loopWrittenFrom:
		return producers
	case off < loopAt+loopPerCallFrom:
		return perRound
	}
	return perCall
}

// What senders read first (path, cfg) shares its 64-byte lines only with
// bytes nobody writes, and the loop's ingress shares none with what the
// loop writes with every message, this cell's or a neighbour's, whether
// the cell starts on a line or 32 bytes into one (288-byte cells
// alternate).
func TestCellLines(t *testing.T) {
	var c cell
	loopAt := unsafe.Offsetof(c.l)
	checks := []struct {
		name     string
		off, len uintptr
		worst    writer // the most a writer of a byte on its lines may write
	}{
		{"path", unsafe.Offsetof(c.path), unsafe.Sizeof(c.path), nobody},
		{"cfg", unsafe.Offsetof(c.cfg), unsafe.Sizeof(c.cfg), nobody},
		{"the loop's ingress", loopAt + loopProducerFrom, loopWrittenFrom - loopProducerFrom, perRound},
	}
	for _, start := range []uintptr{0, 32} {
		for _, ck := range checks {
			for b := ck.off; b < ck.off+ck.len; b++ {
				line := (start + b) / 64 * 64
				for x := line; x < line+64; x++ {
					off := (x + maxCellSize - start) % maxCellSize // outside [0, class): a neighbour's
					if w := writerOf(off); w > ck.worst {
						t.Fatalf("cell at %d mod 64: %s (byte %d) shares a line with byte %d of a cell, written by %v",
							start, ck.name, b, off, w)
					}
				}
			}
		}
	}
	if maxCellSize%32 != 0 {
		t.Errorf("the cell's size class (%d B) does not keep cells at 0 or 32 mod 64", maxCellSize)
	}
}
