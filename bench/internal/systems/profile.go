package systems

import (
	"os"

	"github.com/troupe-go/troupe/bench/internal/measure"
)

// profileEnv, when set, names a file prefix: a case's process writes its
// CPU profile to prefix.main and a remote peer process to prefix.peer, so
// that both ends of a remote case can be profiled:
//
//	TROUPE_BENCH_CPUPROFILE=/tmp/p go run ./cmd/compare -suite remote -runs 1 -scenarios remote_tell
const profileEnv = "TROUPE_BENCH_CPUPROFILE"

// StartProfile starts the CPU profile of this process in role ("main" or
// "peer") if profileEnv asks for one, and returns the function that stops
// it (a no-op otherwise).
func StartProfile(role string) (stop func()) {
	prefix := os.Getenv(profileEnv)
	if prefix == "" {
		return func() {}
	}
	return measure.StartCPUProfile(prefix + "." + role)
}
