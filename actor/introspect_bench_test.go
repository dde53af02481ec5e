package actor_test

import "testing"

// BenchmarkMetricsOverhead runs the hot-path benchmarks with detailed
// metrics off and on, in one run, so their ratio is the overhead.
func BenchmarkMetricsOverhead(b *testing.B) {
	for _, bench := range []struct {
		name string
		fn   func(*testing.B)
	}{{"pingpong", BenchmarkPingPong}, {"fanin", BenchmarkFanIn}} {
		for _, on := range []bool{false, true} {
			name := bench.name + "/off"
			if on {
				name = bench.name + "/on"
			}
			b.Run(name, func(b *testing.B) {
				benchDetailed = on
				defer func() { benchDetailed = false }()
				bench.fn(b)
			})
		}
	}
}
