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

// hangGuard bounds every wait for something that should happen at once.
const hangGuard = 10 * time.Second

var errHang = errors.New("supervision: gave up waiting (hang guard)")

// restart is a Restarted event and when it happened, since the demo began.
type restart struct {
	actor.Event
	at time.Duration
}

// demo runs the scenes on one system and records what happened.
type demo struct {
	sys      *actor.System
	out      io.Writer
	clock    loop.Clock
	vc       *loop.VirtualClock // nil on the real clock
	start    int64
	restarts chan restart
	notes    chan string
	cancel   func()

	// backoffs are the delays between each crash of the fragile worker
	// and its restart, for the tests.
	backoffs []time.Duration
}

// newDemo starts a system printing to out, on vc if not nil (tests) or
// the real clock.
func newDemo(out io.Writer, vc *loop.VirtualClock) (*demo, error) {
	d := &demo{out: out, vc: vc, clock: loop.RealClock(),
		restarts: make(chan restart, 256), notes: make(chan string, 256)}
	var opts []actor.Option
	if vc != nil {
		d.clock = vc
		opts = append(opts, actor.WithClock(vc))
	}
	sys, err := actor.NewSystem("supervision", opts...)
	if err != nil {
		return nil, err
	}
	d.sys, d.start = sys, d.clock.Now()
	d.cancel = sys.SubscribeEvents(func(e actor.Event) {
		if e.Kind == actor.Restarted {
			d.restarts <- restart{e, d.now()} // the demo makes far fewer than the buffer holds
		}
	})
	return d, nil
}

func (d *demo) now() time.Duration { return time.Duration(d.clock.Now() - d.start) }

// note is the Team's Note: it never blocks.
func (d *demo) note(s string) { d.notes <- s }

func (d *demo) shutdown(ctx context.Context) error {
	d.cancel()
	return d.sys.Shutdown(ctx)
}

// team spawns a Team named id supervising with strategy, whose workers
// get opts.
func (d *demo) team(id string, strategy actor.Strategy, opts ...actor.SpawnOption) (TeamRef, error) {
	return SpawnTeam(d.sys, id, func() *Team { return &Team{Options: opts, Note: d.note} },
		actor.WithChildStrategy(strategy))
}

// hire hires workers ids into team and has each do jobs jobs.
func (d *demo) hire(team TeamRef, jobs int, ids ...string) ([]WorkerRef, error) {
	ctx := context.Background()
	var ws []WorkerRef
	for _, id := range ids {
		w, err := team.Hire(ctx, id)
		if err != nil {
			return nil, err
		}
		for range jobs {
			if _, err := w.Work(ctx); err != nil {
				return nil, err
			}
		}
		ws = append(ws, w)
	}
	return ws, nil
}

// done returns what each worker reports as done, "a=0 b=2".
func (d *demo) done(ws ...WorkerRef) (string, error) {
	var parts []string
	for _, w := range ws {
		n, err := w.Done(context.Background())
		if err != nil {
			return "", err
		}
		parts = append(parts, fmt.Sprintf("%s=%d", w.Ref().ID(), n))
	}
	return strings.Join(parts, " "), nil
}

// awaitRestarts waits for a Restarted event of each of refs.
func (d *demo) awaitRestarts(refs ...actor.Ref) (map[actor.Ref]restart, error) {
	got := map[actor.Ref]restart{}
	want := map[actor.Ref]bool{}
	for _, r := range refs {
		want[r] = true
	}
	err := d.await(func() bool {
		select {
		case r := <-d.restarts:
			if want[r.Actor] {
				got[r.Actor] = r
			}
		default:
		}
		return len(got) == len(want)
	})
	return got, err
}

// await calls cond until it holds. On the virtual clock it advances time
// by nothing meanwhile: a loop that armed its wake-up for a time the clock
// had passed already is woken by the next Advance.
func (d *demo) await(cond func() bool) error {
	deadline := time.Now().Add(hangGuard)
	for !cond() {
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
	return nil
}

// wait lets a backoff timer of length dur, which a message just sent arms,
// run out: on the real clock time passes by itself; on the virtual clock
// it waits until the timer is armed, then advances by exactly dur.
func (d *demo) wait(dur time.Duration) error {
	if d.vc == nil {
		return nil
	}
	if err := d.await(func() bool { return d.vc.Pending() > 0 }); err != nil {
		return err
	}
	d.vc.Advance(dur)
	return nil
}
