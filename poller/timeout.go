package poller

import (
	"math"
	"time"
)

// remaining returns what is left of timeout at now for a wait that began
// at start: timeout itself if it is negative (wait forever), otherwise the
// rest, never below 0. Wait uses it to resume a wait a signal interrupted.
func remaining(timeout time.Duration, start, now time.Time) time.Duration {
	if timeout < 0 {
		return timeout
	}
	return max(timeout-now.Sub(start), 0)
}

// millis converts a timeout to whole milliseconds for epoll_wait and
// GetQueuedCompletionStatusEx: -1 for negative (forever), rounded up so a
// short timeout does not turn into a busy poll, capped at MaxInt32.
func millis(d time.Duration) int {
	if d < 0 {
		return -1
	}
	ms := (d + time.Millisecond - 1) / time.Millisecond
	return int(min(ms, math.MaxInt32))
}
