package loop

import "iter"

// loopSet is a scheduler's open loops, for Shutdown and the stall
// sampler. Each loop keeps its index (in its ingress's padding, see
// ingress.setIdx), so adding and removing are O(1) and the set costs a loop
// one word rather than two list pointers inside it: the loop's size
// decides an actor's size class. The words lie in chunks of a fixed size,
// so the set never copies itself as it grows, nor asks for the fresh pages
// of one ever larger array. Under the scheduler's mutex.
type loopSet struct {
	chunks []*loopChunk
	n      int
}

// loopChunkLen is the number of loops in a chunk: 2 KB of pointers.
const loopChunkLen = 256

type loopChunk [loopChunkLen]*Loop

// slot returns the place of the loop at index i.
func (s *loopSet) slot(i int) **Loop { return &s.chunks[i/loopChunkLen][i%loopChunkLen] }

// add puts l in the set.
func (s *loopSet) add(l *Loop) {
	if s.n == len(s.chunks)*loopChunkLen {
		s.chunks = append(s.chunks, new(loopChunk))
	}
	*s.slot(s.n) = l
	l.in.setIdx = int32(s.n)
	s.n++
}

// remove takes l out of the set, moving the last loop into its place; a
// loop not in the set is left alone. Chunks emptied beyond one spare are
// given back, so a mass stop returns the memory.
func (s *loopSet) remove(l *Loop) {
	i := int(l.in.setIdx)
	if i < 0 || i >= s.n || *s.slot(i) != l {
		return
	}
	s.n--
	last := s.slot(s.n)
	moved := *last
	*s.slot(i), moved.in.setIdx = moved, int32(i)
	*last = nil
	l.in.setIdx = -1
	if k := len(s.chunks); k > 1 && s.n <= (k-2)*loopChunkLen {
		s.chunks[k-1] = nil
		s.chunks = s.chunks[:k-1]
	}
}

// len returns the number of loops in the set.
func (s *loopSet) len() int { return s.n }

// all yields the loops of the set.
func (s *loopSet) all() iter.Seq[*Loop] {
	return func(yield func(*Loop) bool) {
		for i := range s.n {
			if !yield(*s.slot(i)) {
				return
			}
		}
	}
}
