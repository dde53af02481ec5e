package main

import (
	"fmt"

	"github.com/troupe-go/troupe/actor"
)

// Worker does jobs and counts them. Its count lives in the instance, so a
// restart, which makes a fresh Worker, starts it from zero.
//
//troupe:actor kind=worker
type Worker struct{ done int }

// Work does a job and replies with the jobs done so far.
func (w *Worker) Work(*actor.Context) int {
	w.done++
	return w.done
}

// Done replies with the jobs done so far.
func (w *Worker) Done(*actor.Context) int { return w.done }

// Crash panics with why: a bug, which supervision turns into a restart.
func (w *Worker) Crash(_ *actor.Context, why string) { panic(why) }

// Team hires workers as its children: it supervises them with the
// strategy it was spawned with (actor.WithChildStrategy), spawns them with
// Options, and watches them, so that its handler of actor.Terminated
// learns when one stops for good.
//
//troupe:actor kind=team
type Team struct {
	// Options are the spawn options of every worker hired (backoff,
	// restart limit).
	Options []actor.SpawnOption
	// Note receives what the team sees happen; it must not block. It
	// belongs to the factory, so it survives the team's restarts.
	Note func(string)
}

// Hire spawns a worker named id and watches it.
func (t *Team) Hire(c *actor.Context, id string) (WorkerRef, error) {
	w, err := SpawnWorker(c, id, func() *Worker { return &Worker{} }, t.Options...)
	if err != nil {
		return WorkerRef{}, err
	}
	c.Watch(w.Ref())
	return w, nil
}

// WorkerStopped handles actor.Terminated: a watched worker stopped.
func (t *Team) WorkerStopped(c *actor.Context, term actor.Terminated) {
	t.Note(fmt.Sprintf("team %s: worker %s stopped: %v", c.Self().ID(), term.Actor.ID(), term.Reason))
}

// Restarting is the lifecycle hook run before the team is replaced, here
// because a worker escalated its failure.
func (t *Team) Restarting(c *actor.Context, reason error) {
	t.Note(fmt.Sprintf("team %s: restarting: %v", c.Self().ID(), reason))
}
