package loop

import "math"

// deadlineAfter returns now+d for a non-negative d, saturated at
// math.MaxInt64: a deadline too far to represent is "never" rather than
// a negative time that would fire at once (and, for an interval, on every
// round).
func deadlineAfter(now, d int64) int64 {
	// A Clock may read below zero, where MaxInt64-now itself overflows;
	// now+d cannot overflow then.
	if now > 0 && d > math.MaxInt64-now {
		return math.MaxInt64
	}
	return now + d
}
