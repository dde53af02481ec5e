package systems

import (
	"context"
	"time"

	"github.com/troupe-go/troupe/bench/internal/measure"
	"github.com/troupe-go/troupe/loop"
)

var troupe = register(&System{
	Name: Troupe,
	Cases: map[string]Case{
		"submit_exec":       troupeSubmitExec,
		"roundtrip":         troupeRoundtrip,
		"timer_onloop_p0":   troupeTimerOnLoop,
		"timer_onloop_p10k": troupeTimerOnLoop,
		"timer_onloop_p1m":  troupeTimerOnLoop,
		"timer_external":    troupeTimerExternal,
		"fire_1m_due":       troupeFireDue,
		"microtask":         troupeMicrotask,
		"promise_then":      troupePromiseThen,
		"idle_loop":         func(p Params) (measure.Figures, error) { return troupeIdle(p, false) },
		"idle_loop_timer":   func(p Params) (measure.Figures, error) { return troupeIdle(p, true) },
	},
})

// troupeStart creates a standalone loop, runs it on its own goroutine and
// returns once the loop has executed a first task, with a stop function.
func troupeStart(opts ...loop.Option) (*loop.Loop, func(), error) {
	l, err := loop.New(opts...)
	if err != nil {
		return nil, nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { _ = l.Run(ctx) }()
	ready := make(chan struct{})
	if err := l.Submit(func() { close(ready) }); err != nil {
		cancel()
		return nil, nil, err
	}
	<-ready
	return l, func() { cancel(); _ = l.Close() }, nil
}

func troupeSubmitExec(p Params) (measure.Figures, error) {
	l, stop, err := troupeStart()
	if err != nil {
		return measure.Figures{}, err
	}
	defer stop()
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

func troupeRoundtrip(p Params) (measure.Figures, error) {
	l, stop, err := troupeStart()
	if err != nil {
		return measure.Figures{}, err
	}
	defer stop()
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

func troupeTimerOnLoop(p Params) (measure.Figures, error) {
	l, stop, err := troupeStart()
	if err != nil {
		return measure.Figures{}, err
	}
	defer stop()
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

// troupeTimerExternal times until a task queued after the last pair has run,
// since off-loop cancels are asynchronous.
func troupeTimerExternal(p Params) (measure.Figures, error) {
	l, stop, err := troupeStart()
	if err != nil {
		return measure.Figures{}, err
	}
	defer stop()
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
	return m.Stop(p.N), nil
}

// troupeFireDue schedules p.N timers of 1 ms on a loop with a virtual clock,
// then times from advancing the clock past them to the last callback.
func troupeFireDue(p Params) (measure.Figures, error) {
	vc := loop.NewVirtualClock()
	l, stop, err := troupeStart(loop.WithClock(vc))
	if err != nil {
		return measure.Figures{}, err
	}
	defer stop()
	var (
		m         *measure.Meter
		f         measure.Figures
		done      = make(chan struct{})
		scheduled = make(chan error, 1)
	)
	cd := &countdown{left: p.N, fn: func() { f = m.Stop(p.N); close(done) }}
	tick := cd.tick
	err = l.Submit(func() {
		for range p.N {
			if _, err := l.ScheduleTimer(time.Millisecond, tick); err != nil {
				scheduled <- err
				return
			}
		}
		scheduled <- nil
	})
	if err == nil {
		err = <-scheduled
	}
	if err != nil {
		return measure.Figures{}, err
	}
	m = measure.Start()
	vc.Advance(2 * time.Millisecond)
	<-done
	f.Note = "virtual clock"
	return f, nil
}

func troupeMicrotask(p Params) (measure.Figures, error) {
	l, stop, err := troupeStart()
	if err != nil {
		return measure.Figures{}, err
	}
	defer stop()
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
			if err := l.QueueMicrotask(noop); err != nil && first == nil {
				first = err
			}
		}
		r++
		if r < rounds {
			_ = l.Submit(round)
		} else {
			_ = l.QueueMicrotask(finish)
		}
	}
	m = measure.Start()
	if err := l.Submit(round); err != nil {
		return measure.Figures{}, err
	}
	<-done
	return f, first
}

func troupePromiseThen(p Params) (measure.Figures, error) {
	l, stop, err := troupeStart()
	if err != nil {
		return measure.Figures{}, err
	}
	defer stop()
	var (
		m    *measure.Meter
		f    measure.Figures
		i    int
		step func(int) (int, error)
		done = make(chan struct{})
	)
	iterate := func() {
		pr, r := loop.NewPromise[int](l)
		pr.Then(step)
		r.Resolve(i)
	}
	step = func(v int) (int, error) {
		i++
		if i < p.N {
			iterate()
		} else {
			f = m.Stop(p.N)
			close(done)
		}
		return v, nil
	}
	if err := l.Submit(func() { m = measure.Start(); iterate() }); err != nil {
		return measure.Figures{}, err
	}
	<-done
	return f, nil
}

// troupeIdle measures driven loops of one shared scheduler; the scheduler is
// shared infrastructure, created before the baseline reading.
func troupeIdle(p Params, pendingTimer bool) (measure.Figures, error) {
	s, err := loop.NewScheduler()
	if err != nil {
		return measure.Figures{}, err
	}
	defer func() { _ = s.Shutdown(context.Background()) }()
	use := func(done func()) (any, error) {
		l, err := loop.New(loop.WithScheduler(s))
		if err != nil {
			return nil, err
		}
		err = l.Submit(func() {
			done()
			_, _ = l.ScheduleTimer(time.Millisecond, done)
			pr, r := loop.NewPromise[int](l)
			pr.Then(func(v int) (int, error) { done(); return v, nil })
			r.Resolve(1)
			if pendingTimer {
				_, _ = l.ScheduleTimer(hour, noop)
			}
		})
		return l, err
	}
	return measureIdle(p.N, use)
}
