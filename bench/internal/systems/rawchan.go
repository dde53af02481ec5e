package systems

import (
	"fmt"

	"github.com/troupe-go/troupe/bench/internal/measure"
)

// rawChannels is the baseline of roundtrip (loop suite) and of pingpong,
// fanin and ask (actor suite): goroutines and channels, no loop, no actor.
var rawChannels = register(&System{
	Name: RawChannels,
	Cases: map[string]Case{
		"roundtrip": rawRoundtrip,
		"pingpong":  rawRoundtrip,
		"fanin":     rawFanin,
		"ask":       rawAsk,
	},
})

// rawFaninBuffer is the capacity of the fan-in baseline's one channel.
const rawFaninBuffer = 1024

// rawFanin: p.Senders goroutines send one preallocated pointer p.N times
// in all on one channel of capacity 1024, drained by one consumer goroutine;
// timed from their release until the consumer has received the last.
func rawFanin(p Params) (measure.Figures, error) {
	type msg struct{}
	m0 := &msg{}
	per := p.N / p.Senders
	total := per * p.Senders
	ch := make(chan *msg, rawFaninBuffer)
	done := make(chan struct{})
	go func() {
		for range total {
			<-ch
		}
		close(done)
	}()
	start := make(chan struct{})
	for range p.Senders {
		go func() {
			<-start
			for range per {
				ch <- m0
			}
		}()
	}
	m := measure.Start()
	close(start)
	<-done
	return m.Stop(total), nil
}

// rawAsk: the calling goroutine sends n on one unbuffered channel and
// waits for n+1 on another, from a partner goroutine, p.N times.
func rawAsk(p Params) (measure.Figures, error) {
	req := make(chan int)
	rep := make(chan int)
	go func() {
		for n := range req {
			rep <- n + 1
		}
	}()
	m := measure.Start()
	for i := range p.N {
		req <- i
		if got := <-rep; got != i+1 {
			return measure.Figures{}, fmt.Errorf("raw channels: ask %d answered %d", i, got)
		}
	}
	f := m.Stop(p.N)
	close(req)
	return f, nil
}

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
