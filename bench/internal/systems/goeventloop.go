package systems

import (
	"context"
	"fmt"
	"time"

	eventloop "github.com/joeycumines/go-eventloop"

	"github.com/troupe-go/troupe/bench/internal/measure"
)

// gelMaxIdleLoops caps go-eventloop's idle scenarios: each loop holds an
// eventfd and an epoll fd and about 1.2 MB, so 10k loops exceed the fd limit
// and a reasonable memory budget.
const gelMaxIdleLoops = 1000

var goEventloop = register(&System{
	Name: GoEventloop,
	Cases: map[string]Case{
		"submit_exec":       gelSubmitExec,
		"roundtrip":         gelRoundtrip,
		"timer_onloop_p0":   gelTimerOnLoop,
		"timer_onloop_p10k": gelTimerOnLoop,
		"timer_onloop_p1m":  gelTimerOnLoop,
		"timer_external":    gelTimerExternal,
		"fire_1m_due":       gelFireDue,
		"microtask":         gelMicrotask,
		"promise_then":      gelPromiseThen,
		"idle_loop":         func(p Params) (measure.Figures, error) { return gelIdle(p, false) },
		"idle_loop_timer":   func(p Params) (measure.Figures, error) { return gelIdle(p, true) },
	},
})

// gelStart creates a go-eventloop loop, runs it on its own goroutine and
// returns once the loop has executed a first task.
func gelStart() (*eventloop.Loop, error) {
	l, err := eventloop.New()
	if err != nil {
		return nil, err
	}
	go func() { _ = l.Run(context.Background()) }()
	ready := make(chan struct{})
	if err := l.Submit(func() { close(ready) }); err != nil {
		return nil, err
	}
	<-ready
	return l, nil
}

func gelSubmitExec(p Params) (measure.Figures, error) {
	l, err := gelStart()
	if err != nil {
		return measure.Figures{}, err
	}
	defer l.Close()
	done := make(chan struct{})
	m := measure.Start()
	for range p.N - 1 {
		if err := l.Submit(noop); err != nil {
			return measure.Figures{}, err
		}
	}
	if err := l.Submit(func() { close(done) }); err != nil {
		return measure.Figures{}, err
	}
	<-done
	return m.Stop(p.N), nil
}

func gelRoundtrip(p Params) (measure.Figures, error) {
	l, err := gelStart()
	if err != nil {
		return measure.Figures{}, err
	}
	defer l.Close()
	back := make(chan struct{})
	signal := func() { back <- struct{}{} }
	m := measure.Start()
	for range p.N {
		if err := l.Submit(signal); err != nil {
			return measure.Figures{}, err
		}
		<-back
	}
	return m.Stop(p.N), nil
}

func gelTimerOnLoop(p Params) (measure.Figures, error) {
	l, err := gelStart()
	if err != nil {
		return measure.Figures{}, err
	}
	defer l.Close()
	type result struct {
		f   measure.Figures
		err error
	}
	res := make(chan result, 1)
	err = l.Submit(func() {
		for range p.Pending {
			if _, err := l.ScheduleTimer(hour, noop); err != nil {
				res <- result{err: err}
				return
			}
		}
		m := measure.Start()
		for range p.N {
			id, err := l.ScheduleTimer(hour, noop)
			if err == nil {
				err = l.CancelTimer(id)
			}
			if err != nil {
				res <- result{err: err}
				return
			}
		}
		res <- result{f: m.Stop(p.N)}
	})
	if err != nil {
		return measure.Figures{}, err
	}
	r := <-res
	return r.f, r.err
}

// gelTimerExternal: go-eventloop's CancelTimer off the loop is synchronous
// (it waits for the loop to apply it); that is its API, so it is measured.
func gelTimerExternal(p Params) (measure.Figures, error) {
	l, err := gelStart()
	if err != nil {
		return measure.Figures{}, err
	}
	defer l.Close()
	done := make(chan struct{})
	m := measure.Start()
	for range p.N {
		id, err := l.ScheduleTimer(hour, noop)
		if err == nil {
			err = l.CancelTimer(id)
		}
		if err != nil {
			return measure.Figures{}, err
		}
	}
	if err := l.Submit(func() { close(done) }); err != nil {
		return measure.Figures{}, err
	}
	<-done
	f := m.Stop(p.N)
	f.Note = "CancelTimer off the loop is synchronous: each pair waits for the loop"
	return f, nil
}

// gelFireDue has no virtual clock to advance, so it schedules p.N timers of
// 1 ms inside one task, spins in that task until every deadline has passed,
// and times from then to the last callback.
func gelFireDue(p Params) (measure.Figures, error) {
	l, err := gelStart()
	if err != nil {
		return measure.Figures{}, err
	}
	defer l.Close()
	var (
		m    *measure.Meter
		f    measure.Figures
		done = make(chan struct{})
		errc = make(chan error, 1)
	)
	cd := &countdown{left: p.N, fn: func() { f = m.Stop(p.N); close(done) }}
	tick := cd.tick
	err = l.Submit(func() {
		for range p.N {
			if _, err := l.ScheduleTimer(time.Millisecond, tick); err != nil {
				errc <- err
				return
			}
		}
		spinPast(time.Now(), 2*time.Millisecond)
		m = measure.Start()
	})
	if err != nil {
		return measure.Figures{}, err
	}
	select {
	case <-done:
	case err := <-errc:
		return measure.Figures{}, err
	}
	f.Note = "real clock: 1 ms timers, timed once all deadlines had passed"
	return f, nil
}

func gelMicrotask(p Params) (measure.Figures, error) {
	l, err := gelStart()
	if err != nil {
		return measure.Figures{}, err
	}
	defer l.Close()
	rounds := p.N / p.Batch
	var (
		m     *measure.Meter
		f     measure.Figures
		r     int
		first error
		round func()
		done  = make(chan struct{})
	)
	finish := func() { f = m.Stop(rounds * p.Batch); close(done) }
	round = func() {
		for range p.Batch {
			if err := l.ScheduleMicrotask(noop); err != nil && first == nil {
				first = err
			}
		}
		r++
		if r < rounds {
			_ = l.Submit(round)
		} else {
			_ = l.ScheduleMicrotask(finish)
		}
	}
	m = measure.Start()
	if err := l.Submit(round); err != nil {
		return measure.Figures{}, err
	}
	<-done
	return f, first
}

func gelPromiseThen(p Params) (measure.Figures, error) {
	l, err := gelStart()
	if err != nil {
		return measure.Figures{}, err
	}
	defer l.Close()
	js, err := eventloop.NewJS(l)
	if err != nil {
		return measure.Figures{}, err
	}
	var (
		m     *measure.Meter
		f     measure.Figures
		i     int
		step  func(any) any
		value any = 1
		done      = make(chan struct{})
	)
	iterate := func() {
		pr, resolve, _ := js.NewChainedPromise()
		pr.Then(step, nil)
		resolve(value)
	}
	step = func(v any) any {
		i++
		if i < p.N {
			iterate()
		} else {
			f = m.Stop(p.N)
			close(done)
		}
		return v
	}
	if err := l.Submit(func() { m = measure.Start(); iterate() }); err != nil {
		return measure.Figures{}, err
	}
	<-done
	return f, nil
}

// gelLoop is what a go-eventloop user keeps per loop: the loop and the JS
// adapter its promises need.
type gelLoop struct {
	l  *eventloop.Loop
	js *eventloop.JS
}

func gelIdle(p Params, pendingTimer bool) (measure.Figures, error) {
	n := min(p.N, gelMaxIdleLoops)
	use := func(done func()) (any, error) {
		l, err := eventloop.New()
		if err != nil {
			return nil, err
		}
		js, err := eventloop.NewJS(l)
		if err != nil {
			return nil, err
		}
		go func() { _ = l.Run(context.Background()) }()
		err = l.Submit(func() {
			done()
			_, _ = l.ScheduleTimer(time.Millisecond, done)
			pr, resolve, _ := js.NewChainedPromise()
			pr.Then(func(v any) any { done(); return v }, nil)
			resolve(nil)
			if pendingTimer {
				_, _ = l.ScheduleTimer(hour, noop)
			}
		})
		return gelLoop{l, js}, err
	}
	f, err := measureIdle(n, use)
	if n < p.N {
		f.Note = fmt.Sprintf("scaled to %d loops (2 fds and ~1.2 MB each; %d would pass the fd limit)", n, p.N)
	}
	return f, err
}
