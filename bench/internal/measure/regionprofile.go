package measure

import (
	"os"
	"runtime/pprof"
)

// regionProfileEnv, when set, names a file the CPU profile of the region a
// Meter times is written to: unlike the whole-process profile of
// TROUPE_BENCH_CPUPROFILE, it leaves out a case's set-up and tear-down
// (spawning a million actors, shutting them down), which can outweigh the
// region itself:
//
//	TROUPE_BENCH_REGIONPROFILE=/tmp/r compare -child scenario=idle_timers_1m,system=troupe
//
// A case that times several regions writes the last one.
const regionProfileEnv = "TROUPE_BENCH_REGIONPROFILE"

// startRegionProfile starts the region's CPU profile if regionProfileEnv
// asks for one, and returns the function that stops it (a no-op
// otherwise).
func startRegionProfile() (stop func()) { return StartCPUProfile(os.Getenv(regionProfileEnv)) }

// StartCPUProfile starts a CPU profile of this process written to path
// and returns the function that stops it; with no path, or if the profile
// cannot start (one is running already), it does nothing and returns a
// no-op.
func StartCPUProfile(path string) (stop func()) {
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		_ = f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		_ = f.Close()
	}
}
