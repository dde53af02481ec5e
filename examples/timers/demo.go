package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/loop"
)

// hangGuard bounds every wait for something that should happen soon.
const hangGuard = 10 * time.Second

var errHang = errors.New("timers: gave up waiting (hang guard)")

// demo drives one Reminders actor through the scenes, on the real clock
// or a virtual one.
type demo struct {
	sys     *actor.System
	r       RemindersRef
	out     io.Writer
	vc      *loop.VirtualClock // nil on the real clock
	logs    chan string
	release chan struct{}
}

// newDemo starts a system printing to out, on vc if not nil (tests) or
// the real clock.
func newDemo(out io.Writer, vc *loop.VirtualClock) (*demo, error) {
	d := &demo{out: out, vc: vc, logs: make(chan string, 256), release: make(chan struct{})}
	var opts []actor.Option
	if vc != nil {
		opts = append(opts, actor.WithClock(vc))
	}
	sys, err := actor.NewSystem("timers", opts...)
	if err != nil {
		return nil, err
	}
	d.sys = sys
	d.r, err = SpawnReminders(sys, "r", func() *Reminders {
		return &Reminders{Log: func(s string) { d.logs <- s }, Release: d.release}
	})
	if err != nil {
		_ = sys.Shutdown(context.Background())
		return nil, err
	}
	return d, nil
}

// shutdown stops the system. It first ends any Busy spell, so that a run
// that failed half-way cannot hold the actor, and the shutdown, forever.
func (d *demo) shutdown(ctx context.Context) error {
	close(d.release)
	return d.sys.Shutdown(ctx)
}

// pass lets n units of time pass: the virtual clock advances at once, the
// real one takes its time.
func (d *demo) pass(n float64) {
	dur := time.Duration(n * float64(unit))
	if d.vc == nil {
		time.Sleep(dur) // a demo on the real clock; the tests use the virtual one
		return
	}
	d.vc.Advance(dur)
}

// await calls cond until it holds. On the virtual clock it advances time
// by nothing meanwhile: a loop that armed its wake-up for a time the clock
// had passed already is woken by the next Advance.
func (d *demo) await(cond func() (bool, error)) error {
	deadline := time.Now().Add(hangGuard)
	for {
		ok, err := cond()
		if ok || err != nil {
			return err
		}
		if time.Now().After(deadline) {
			return errHang
		}
		if d.vc == nil {
			time.Sleep(time.Millisecond) // polling a condition on the real clock, not timing
			continue
		}
		d.vc.Advance(0)
		runtime.Gosched()
	}
}

// expect prints the actor's log lines until one that begins with want.
func (d *demo) expect(want string) error {
	return d.await(func() (bool, error) {
		select {
		case line := <-d.logs:
			fmt.Fprintln(d.out, "  actor: "+line)
			return strings.HasPrefix(line, want), nil
		default:
			return false, nil
		}
	})
}

// ticks waits until the ticks of the rate and delay keys reach at least
// the given counts, and returns them.
func (d *demo) ticks(rate, delay int) (gotRate, gotDelay int, err error) {
	ctx := context.Background()
	err = d.await(func() (bool, error) {
		var err error
		if gotRate, err = d.r.Ticks(ctx, "rate"); err != nil {
			return false, err
		}
		gotDelay, err = d.r.Ticks(ctx, "delay")
		return gotRate >= rate && gotDelay >= delay, err
	})
	return gotRate, gotDelay, err
}

// say prints a line of the story.
func (d *demo) say(format string, args ...any) { fmt.Fprintf(d.out, format+"\n", args...) }

// run plays the scenes.
func (d *demo) run() error {
	for _, scene := range []func(context.Context) error{d.single, d.cancelDue, d.rateVersusDelay, d.receiveTimeout} {
		if err := scene(context.Background()); err != nil {
			return err
		}
	}
	return nil
}
