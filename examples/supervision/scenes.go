package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/troupe-go/troupe/actor"
)

// oneForOne: a crashed worker restarts alone, from a fresh instance.
func (d *demo) oneForOne() error {
	team, err := d.team("one-for-one", actor.OneForOne)
	if err != nil {
		return err
	}
	ws, err := d.hire(team, 2, "a", "b")
	if err != nil {
		return err
	}
	if err := ws[0].Crash("bad input"); err != nil {
		return err
	}
	if _, err := d.awaitRestarts(ws[0].Ref()); err != nil {
		return err
	}
	done, err := d.done(ws...)
	fmt.Fprintf(d.out, "one-for-one: a crashed and restarted alone; jobs done: %s\n", done)
	return err
}

// allForOne: a crashed worker takes its siblings down with it.
func (d *demo) allForOne() error {
	team, err := d.team("all-for-one", actor.AllForOne)
	if err != nil {
		return err
	}
	ws, err := d.hire(team, 2, "c", "d")
	if err != nil {
		return err
	}
	if err := ws[0].Crash("bad input"); err != nil {
		return err
	}
	rs, err := d.awaitRestarts(ws[0].Ref(), ws[1].Ref())
	if err != nil {
		return err
	}
	done, err := d.done(ws...)
	fmt.Fprintf(d.out, "all-for-one: c crashed and both restarted; jobs done: %s\n", done)
	fmt.Fprintf(d.out, "  d restarted because: %v\n", rs[ws[1].Ref()].Reason)
	return err
}

// escalation: restarts back off exponentially; past its limit the worker
// stops, its team's Terminated handler hears of it, and the team, failed
// by the escalation, restarts.
func (d *demo) escalation() error {
	team, err := d.team("strict", actor.OneForOne,
		actor.WithBackoff(backoffMin, backoffMax), actor.WithRestartLimit(restartLimit, time.Minute))
	if err != nil {
		return err
	}
	ws, err := d.hire(team, 1, "fragile")
	if err != nil {
		return err
	}
	w := ws[0]
	for i := range restartLimit {
		crashed := d.now()
		if err := w.Crash(fmt.Sprintf("crash %d", i+1)); err != nil {
			return err
		}
		backoff := backoffMin << i
		if err := d.wait(backoff); err != nil {
			return err
		}
		rs, err := d.awaitRestarts(w.Ref())
		if err != nil {
			return err
		}
		d.backoffs = append(d.backoffs, rs[w.Ref()].at-crashed)
		fmt.Fprintf(d.out, "escalation: fragile crash %d, restarted after a %v backoff\n", i+1, backoff)
	}
	if err := w.Crash(fmt.Sprintf("crash %d", restartLimit+1)); err != nil {
		return err
	}
	rs, err := d.awaitRestarts(team.Ref())
	if err != nil {
		return err
	}
	fmt.Fprintf(d.out, "escalation: fragile crash %d is past its limit of %d restarts; team restarted: %v\n",
		restartLimit+1, restartLimit, rs[team.Ref()].Reason)
	return d.printNotes("worker fragile stopped")
}

// printNotes prints the team's notes until one contains last, and those
// that came before it.
func (d *demo) printNotes(last string) error {
	seen := false
	err := d.await(func() bool {
		select {
		case n := <-d.notes:
			fmt.Fprintln(d.out, "  "+n)
			seen = seen || strings.Contains(n, last)
		default:
		}
		return seen
	})
	for len(d.notes) > 0 {
		fmt.Fprintln(d.out, "  "+<-d.notes)
	}
	return err
}
