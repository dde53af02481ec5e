package loop

// loopSet is a scheduler's open loops, for Shutdown and the stall
// sampler. Each loop keeps its index (in its ingress's padding, see
// ingress.setIdx), so adding and removing are O(1) and the set costs a loop
// one slice word rather than two list pointers inside it: the loop's size
// decides an actor's size class. Under the scheduler's mutex.
type loopSet struct {
	loops []*Loop
}

// add puts l in the set.
func (s *loopSet) add(l *Loop) {
	l.in.setIdx = int32(len(s.loops))
	s.loops = append(s.loops, l)
}

// remove takes l out of the set, moving the last loop into its place; a
// loop not in the set is left alone. A set left at a quarter of its array
// or less moves to a smaller one, so a mass stop gives the memory back.
func (s *loopSet) remove(l *Loop) {
	i, last := l.in.setIdx, len(s.loops)-1
	if i < 0 || int(i) > last || s.loops[i] != l {
		return
	}
	moved := s.loops[last]
	s.loops[i], moved.in.setIdx = moved, i
	s.loops[last] = nil
	s.loops = s.loops[:last]
	l.in.setIdx = -1
	if c := cap(s.loops); c > minLoopSetCap && len(s.loops) <= c/4 {
		s.loops = append(make([]*Loop, 0, c/2), s.loops...)
	}
}

// minLoopSetCap is the array size below which a set never shrinks.
const minLoopSetCap = 64

// len returns the number of loops in the set.
func (s *loopSet) len() int { return len(s.loops) }
