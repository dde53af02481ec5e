package observe

import (
	"sync"
	"time"

	"github.com/troupe-go/troupe/loop"
)

// historySample is how often the observer records the message rates
// while no page is live, so that a page opened later plots the last
// minutes at once. A live page records them every interval.
const historySample = 5 * time.Second

// sampleShare bounds the background sampling to 1/sampleShare of a core:
// a reading visits every actor (about 100 ms at 100k actors), so the
// period stretches past historySample when readings take longer than
// historySample/sampleShare.
const sampleShare = 50

// sampler records the rates in the background: one clock timer per
// observer, no goroutine of its own.
type sampler struct {
	mu     sync.Mutex // held while sampling, so that stopping waits for a reading in progress
	timer  loop.ClockTimer
	closed bool
}

// startSampler records a first reading, the baseline of the first rate,
// and arms the timer.
func (o *Observer) startSampler() {
	o.sampler.mu.Lock()
	defer o.sampler.mu.Unlock()
	o.recordRates(o.sys.Totals().Kinds)
	o.sampler.timer = o.clock.AfterFunc(o.clock.Now()+int64(historySample), o.sample)
}

// sample records the rates unless a reading was recorded less than
// historySample ago (a live page records its own), and re-arms.
func (o *Observer) sample() {
	o.sampler.mu.Lock()
	defer o.sampler.mu.Unlock()
	if o.sampler.closed {
		return
	}
	next := historySample
	if last := o.hist.lastAt(); o.now().Sub(last) >= historySample {
		cost := measureCost(func() { o.recordRates(o.sys.Totals().Kinds) })
		next = max(next, sampleShare*cost)
	} else {
		next -= o.now().Sub(last) // historySample after the last reading
	}
	o.sampler.timer.Reset(o.clock.Now() + int64(next))
}

// stopSampler stops the timer, waiting for a reading in progress.
func (o *Observer) stopSampler() {
	o.sampler.mu.Lock()
	defer o.sampler.mu.Unlock()
	o.sampler.closed = true
	o.sampler.timer.Stop()
}
