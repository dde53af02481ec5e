package systems

import (
	"errors"
	"time"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/eventloop"

	"github.com/troupe-go/troupe/bench/internal/measure"
)

var gojaNodejs = register(&System{
	Name: GojaNodejs,
	Cases: map[string]Case{
		"submit_exec":       gojaSubmitExec,
		"roundtrip":         gojaRoundtrip,
		"timer_onloop_p0":   gojaTimerOnLoop,
		"timer_onloop_p10k": gojaTimerOnLoop,
		"timer_onloop_p1m":  gojaTimerOnLoop,
		"timer_external":    gojaTimerExternal,
		"fire_1m_due":       gojaFireDue,
		"idle_loop":         func(p Params) (measure.Figures, error) { return gojaIdle(p, false) },
		"idle_loop_timer":   func(p Params) (measure.Figures, error) { return gojaIdle(p, true) },
	},
	NA: map[string]string{
		"microtask":    "no Go API to queue a microtask (goja's job queue is reachable only through JavaScript promises)",
		"promise_then": "no Go-side Then: a reaction must be a JavaScript function, which would measure the JS engine",
	},
})

var errGojaTerminated = errors.New("goja_nodejs: loop terminated")

// gojaNoop is the no-op task and timer callback in goja_nodejs's signature.
func gojaNoop(*goja.Runtime) {}

func gojaStart() *eventloop.EventLoop {
	l := eventloop.NewEventLoop()
	l.Start()
	return l
}

// gojaRun submits fn and reports a terminated loop as an error.
func gojaRun(l *eventloop.EventLoop, fn func(*goja.Runtime)) error {
	if !l.RunOnLoop(fn) {
		return errGojaTerminated
	}
	return nil
}

func gojaSubmitExec(p Params) (measure.Figures, error) {
	l := gojaStart()
	defer l.Terminate()
	done := make(chan struct{})
	m := measure.Start()
	for range p.N - 1 {
		if err := gojaRun(l, gojaNoop); err != nil {
			return measure.Figures{}, err
		}
	}
	if err := gojaRun(l, func(*goja.Runtime) { close(done) }); err != nil {
		return measure.Figures{}, err
	}
	<-done
	return m.Stop(p.N), nil
}

func gojaRoundtrip(p Params) (measure.Figures, error) {
	l := gojaStart()
	defer l.Terminate()
	back := make(chan struct{})
	signal := func(*goja.Runtime) { back <- struct{}{} }
	m := measure.Start()
	for range p.N {
		if err := gojaRun(l, signal); err != nil {
			return measure.Figures{}, err
		}
		<-back
	}
	return m.Stop(p.N), nil
}

// gojaTimerOnLoop: goja_nodejs's SetTimeout and ClearTimeout queue their
// work even on the loop, so the timed region runs from the first call to a
// task queued after the last, which runs once all that work is done. The
// pending timers are installed (and their queued work done) before timing.
func gojaTimerOnLoop(p Params) (measure.Figures, error) {
	l := gojaStart()
	defer l.Terminate()
	ready := make(chan struct{})
	err := gojaRun(l, func(*goja.Runtime) {
		for range p.Pending {
			l.SetTimeout(gojaNoop, hour)
		}
		l.RunOnLoop(func(*goja.Runtime) { close(ready) })
	})
	if err != nil {
		return measure.Figures{}, err
	}
	<-ready
	res := make(chan measure.Figures, 1)
	err = gojaRun(l, func(*goja.Runtime) {
		m := measure.Start()
		for range p.N {
			l.ClearTimeout(l.SetTimeout(gojaNoop, hour))
		}
		l.RunOnLoop(func(*goja.Runtime) { res <- m.Stop(p.N) })
	})
	if err != nil {
		return measure.Figures{}, err
	}
	f := <-res
	f.Note = "on-loop SetTimeout/ClearTimeout are queued; timed until the queued work ran"
	return f, nil
}

func gojaTimerExternal(p Params) (measure.Figures, error) {
	l := gojaStart()
	defer l.Terminate()
	done := make(chan struct{})
	m := measure.Start()
	for range p.N {
		l.ClearTimeout(l.SetTimeout(gojaNoop, hour))
	}
	if err := gojaRun(l, func(*goja.Runtime) { close(done) }); err != nil {
		return measure.Figures{}, err
	}
	<-done
	return m.Stop(p.N), nil
}

// gojaFireDue has no virtual clock: it schedules p.N timers of 1 ms, and a
// task queued after their installation spins until every deadline has
// passed and starts the clock; the drain ends at the last callback.
func gojaFireDue(p Params) (measure.Figures, error) {
	l := gojaStart()
	defer l.Terminate()
	var (
		m    *measure.Meter
		f    measure.Figures
		done = make(chan struct{})
	)
	cd := &countdown{left: p.N, fn: func() { f = m.Stop(p.N); close(done) }}
	tick := func(*goja.Runtime) { cd.tick() }
	err := gojaRun(l, func(*goja.Runtime) {
		for range p.N {
			l.SetTimeout(tick, time.Millisecond)
		}
		l.RunOnLoop(func(*goja.Runtime) {
			spinPast(time.Now(), 2*time.Millisecond)
			m = measure.Start()
		})
	})
	if err != nil {
		return measure.Figures{}, err
	}
	<-done
	f.Note = "real clock: 1 ms timers (one runtime timer and one goroutine per fire), timed once all deadlines had passed"
	return f, nil
}

// gojaIdle uses each loop as goja_nodejs is used: a started loop running one
// task, one short timer, and one promise settled through the Go API (goja
// has no Go-side Then, so nothing reacts to it).
func gojaIdle(p Params, pendingTimer bool) (measure.Figures, error) {
	use := func(done func()) (any, error) {
		l := gojaStart()
		fired := func(*goja.Runtime) { done() }
		err := gojaRun(l, func(vm *goja.Runtime) {
			done()
			l.SetTimeout(fired, time.Millisecond)
			_, resolve, _ := vm.NewPromise()
			_ = resolve(1)
			done()
			if pendingTimer {
				l.SetTimeout(gojaNoop, hour)
			}
		})
		return l, err
	}
	return measureIdle(p.N, use)
}
