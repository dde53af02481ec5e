package measure

import (
	"os"
	"runtime"
	"syscall"
	"time"
)

// Figures is what one case reports. Per-operation fields are divided by Ops.
// Fields a case does not measure stay zero and are marked absent by the
// scenario's metrics, never by their value.
type Figures struct {
	Ops             int     `json:"ops"`
	NsPerOp         float64 `json:"ns_per_op"`
	CPUNsPerOp      float64 `json:"cpu_ns_per_op"`
	AllocsPerOp     float64 `json:"allocs_per_op"`
	BytesPerOp      float64 `json:"bytes_per_op"`
	GoroutinesPerOp float64 `json:"goroutines_per_op"`
	FDsPerOp        float64 `json:"fds_per_op"`
	// Note qualifies the figures (a scaled count, a substitute clock).
	Note string `json:"note,omitempty"`
	// Extra holds figures particular to a scenario (the js suite's
	// random10k: schedule time, lateness percentiles, inversions), by name.
	Extra map[string]float64 `json:"extra,omitempty"`
}

// Meter times a region of code. Start and Stop may be called on different
// goroutines (for example, Start on an external goroutine and Stop in the
// last callback on a loop), provided the two calls are ordered by a
// happens-before edge.
type Meter struct {
	mallocs uint64
	cpu     time.Duration
	wall    time.Time
	profile func() // stops the region's CPU profile, if one was asked for
}

// Start reads the allocation counter, then the CPU clock, then the wall
// clock, so the region measured starts as late as possible.
func Start() *Meter {
	m := &Meter{profile: startRegionProfile()}
	m.mallocs = mallocs()
	m.cpu = CPUTime()
	m.wall = time.Now()
	return m
}

// Stop ends the region and returns the figures for ops operations.
func (m *Meter) Stop(ops int) Figures {
	wall := time.Since(m.wall)
	cpu := CPUTime() - m.cpu
	allocs := mallocs() - m.mallocs
	m.profile()
	n := float64(ops)
	return Figures{
		Ops:         ops,
		NsPerOp:     float64(wall.Nanoseconds()) / n,
		CPUNsPerOp:  float64(cpu.Nanoseconds()) / n,
		AllocsPerOp: float64(allocs) / n,
	}
}

// CPUTime returns the user+system CPU time consumed by this process so far.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func mallocs() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.Mallocs
}

// Footprint is the process's live memory, goroutines and open file
// descriptors at one moment.
type Footprint struct {
	Bytes      uint64
	Goroutines int
	FDs        int
}

// TakeFootprint collects garbage twice (the second pass frees what the
// first pass's finalizers released) and then reads HeapInuse+StackInuse,
// the goroutine count and the entries of /proc/self/fd.
func TakeFootprint() Footprint {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return Footprint{
		Bytes:      ms.HeapInuse + ms.StackInuse,
		Goroutines: runtime.NumGoroutine(),
		FDs:        countFDs(),
	}
}

// PerItem returns the growth from before to after, divided by n items.
func PerItem(before, after Footprint, n int) Figures {
	d := float64(n)
	return Figures{
		Ops:             n,
		BytesPerOp:      (float64(after.Bytes) - float64(before.Bytes)) / d,
		GoroutinesPerOp: float64(after.Goroutines-before.Goroutines) / d,
		FDsPerOp:        float64(after.FDs-before.FDs) / d,
	}
}

// countFDs counts the entries of /proc/self/fd; the directory handle used to
// read it is counted every time, so it cancels out of a difference.
func countFDs() int {
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return -1
	}
	return len(entries)
}
