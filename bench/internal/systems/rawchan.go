package systems

import "github.com/troupe-go/troupe/bench/internal/measure"

// rawChannels is the baseline of roundtrip (loop suite) and pingpong (actor
// suite): two goroutines and unbuffered channels, no loop, no actor.
var rawChannels = register(&System{
	Name: RawChannels,
	Cases: map[string]Case{
		"roundtrip": rawRoundtrip,
		"pingpong":  rawRoundtrip,
	},
})

// rawRoundtrip ping-pongs over two unbuffered channels between the calling
// goroutine and one partner goroutine, p.N times.
func rawRoundtrip(p Params) (measure.Figures, error) {
	ping := make(chan struct{})
	pong := make(chan struct{})
	go func() {
		for range ping {
			pong <- struct{}{}
		}
	}()
	m := measure.Start()
	for range p.N {
		ping <- struct{}{}
		<-pong
	}
	f := m.Stop(p.N)
	close(ping)
	return f, nil
}
