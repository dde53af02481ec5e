package loop

import (
	"math"
	"testing"
)

func TestDeadlineAfter(t *testing.T) {
	tests := []struct{ now, d, want int64 }{
		{0, 5, 5},
		{100, math.MaxInt64, math.MaxInt64},
		{math.MaxInt64 - 1, 2, math.MaxInt64},
		{-10, 5, -5},                             // a clock below zero
		{-10, math.MaxInt64, math.MaxInt64 - 10}, // no overflow below zero
		{math.MinInt64, math.MaxInt64, -1},
	}
	for _, tt := range tests {
		if got := deadlineAfter(tt.now, tt.d); got != tt.want {
			t.Errorf("deadlineAfter(%d, %d) = %d, want %d", tt.now, tt.d, got, tt.want)
		}
	}
}
