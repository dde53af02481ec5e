package poller

// Internal hooks for the external tests.

// WakeWrites returns how many Wakes reached the OS.
func WakeWrites(p *Poller) uint64 { return p.wakeWrites.Load() }

// Interrupts returns how many times Wait resumed after EINTR.
func Interrupts(p *Poller) uint64 { return p.interrupts.Load() }

var (
	Remaining = remaining
	Millis    = millis
)
