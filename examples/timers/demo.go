package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/troupe-go/troupe/actor"
)

var errNoLine = errors.New("timers: the actor did not log the line")

// demo drives one Reminders actor through the scenes, on the real clock
// or, in the tests, on the test kit's virtual time.
type demo struct {
	sys  *actor.System
	r    RemindersRef
	out  io.Writer
	logs chan string
	time timeKeeper
}

// timeKeeper says how time passes for the scenes.
type timeKeeper struct {
	// pass lets d pass between two steps of a scene; with the test kit,
	// every timer due by then has been handled when it returns.
	pass func(d time.Duration)
	// stall holds the actor's loop for d, inside a handler.
	stall func(d time.Duration)
	// patience is how long expect waits for a line: on virtual time, a
	// line not logged once the system has settled never will be.
	patience time.Duration
}

// realTime is the command's own time keeping.
var realTime = timeKeeper{pass: time.Sleep, stall: time.Sleep, patience: 10 * time.Second}

// newDemo starts the Reminders actor in sys, printing to out.
func newDemo(out io.Writer, sys *actor.System, tk timeKeeper) (*demo, error) {
	d := &demo{sys: sys, out: out, logs: make(chan string, 256), time: tk}
	var err error
	d.r, err = SpawnReminders(sys, "r", func() *Reminders {
		return &Reminders{Log: func(s string) { d.logs <- s }, Stall: tk.stall}
	})
	return d, err
}

// pass lets n units of time pass.
func (d *demo) pass(n float64) { d.time.pass(time.Duration(n * float64(unit))) }

// expect prints the actor's log lines until one that begins with want.
func (d *demo) expect(want string) error {
	var deadline <-chan time.Time
	if d.time.patience > 0 {
		deadline = time.After(d.time.patience)
	}
	for {
		var line string
		select {
		case line = <-d.logs:
		default:
			select {
			case line = <-d.logs:
			case <-deadline: // nil on virtual time: fall through at once
				return fmt.Errorf("%w: %q", errNoLine, want)
			}
		}
		fmt.Fprintln(d.out, "  actor: "+line)
		if strings.HasPrefix(line, want) {
			return nil
		}
	}
}

// ticks returns the ticks of the rate and delay keys.
func (d *demo) ticks(ctx context.Context) (rate, delay int, err error) {
	if rate, err = d.r.Ticks(ctx, "rate"); err != nil {
		return 0, 0, err
	}
	delay, err = d.r.Ticks(ctx, "delay")
	return rate, delay, err
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
