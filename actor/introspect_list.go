package actor

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/troupe-go/troupe/loop"
)

// ErrBadCursor: [System.Actors] was given a cursor it did not return.
var ErrBadCursor = errors.New("actor: bad cursor")

// ListOptions selects a page of actors for [System.Actors].
type ListOptions struct {
	// Parent selects the children of this actor; the zero Ref selects
	// top-level actors. Ignored when All is set.
	Parent Ref
	// All selects every actor, whatever its parent.
	All bool
	// Kind, if set, selects actors of this kind only.
	Kind string
	// After is the cursor a previous page returned: the page starts after
	// it. Empty: the first page.
	After string
	// Limit bounds the page (default and maximum 1000).
	Limit int
}

// Actors returns a page of the actors opts selects, and the cursor of
// the next page ("" after the last). Pages follow a fixed order (by a
// hash of the actor's name, not alphabetical), so paging stays cheap and
// stable while actors come and go: an actor spawned meanwhile shows up
// if it sorts after the cursor. A page costs about as much as reading
// Limit actors when no filter applies; a Parent or Kind filter reads the
// whole system (about a millisecond per 100k actors). It returns
// [ErrNotFound] if opts names a Parent that does not live, and
// [ErrSystemClosed] once a Shutdown has stopped every actor (while they
// stop, it lists those left). Safe from any goroutine; it takes no lock
// and never waits for an actor.
func (s *System) Actors(opts ListOptions) (page []ActorInfo, next string, err error) {
	if s.down() {
		return nil, "", ErrSystemClosed
	}
	limit := opts.Limit
	if limit <= 0 || limit > 1000 {
		limit = 1000
	}
	var after uint64
	if opts.After != "" {
		if after, err = strconv.ParseUint(opts.After, 16, 64); err != nil {
			return nil, "", fmt.Errorf("%w: %q", ErrBadCursor, opts.After)
		}
	}
	var parent *cell
	if !opts.All && !opts.Parent.IsZero() {
		if parent = s.lookup(opts.Parent); parent == nil {
			return nil, "", s.closedErr(opts.Parent, fmt.Errorf("%w: %s", ErrNotFound, opts.Parent))
		}
	}
	keep := func(c *cell) bool {
		return (opts.All || c.parent == parent) && (opts.Kind == "" || c.self().Kind() == opts.Kind)
	}
	type hit struct {
		h uint64
		c *cell
	}
	var hits []hit
	for i := int(after >> (64 - regShardBits)); i < regShards && len(page) < limit; i++ {
		hits = hits[:0]
		eachInShard(&s.reg.shards[i], func(c *cell) {
			if h := nameHash(c.path); (opts.After == "" || h > after) && keep(c) {
				hits = append(hits, hit{h, c})
			}
		})
		slices.SortFunc(hits, func(a, b hit) int {
			switch {
			case a.h < b.h:
				return -1
			case a.h > b.h:
				return 1
			}
			return 0
		})
		for _, x := range hits {
			if len(page) == limit {
				return page, strconv.FormatUint(after, 16), nil
			}
			page = append(page, s.info(x.c))
			after = x.h
		}
	}
	if len(page) == limit {
		next = strconv.FormatUint(after, 16)
	}
	return page, next, nil
}

// eachInShard calls fn for every cell of the shard's current table,
// without its lock: what get does, for every slot.
func eachInShard(sh *regShard, fn func(*cell)) {
	t := sh.tab.Load()
	if t == nil {
		return
	}
	for j := range t.cells {
		if c := t.cells[j].Load(); c != nil && c != tombstone {
			fn(c)
		}
	}
}

// VisitActors calls fn with every live actor, until fn returns false.
// The ActorInfo is reused between calls: copy what fn keeps. Cheap enough
// for a monitoring period at a million actors: it takes no lock,
// allocates nothing per actor and never waits for one. Safe from any
// goroutine; fn may call the system but should be quick.
func (s *System) VisitActors(fn func(*ActorInfo) bool) {
	var a ActorInfo
	for i := range s.reg.shards {
		stop := false
		eachInShard(&s.reg.shards[i], func(c *cell) {
			if !stop {
				a = s.info(c)
				stop = !fn(&a)
			}
		})
		if stop {
			return
		}
	}
}

// Actor describes the live actor ref, as listings do; ok is false if no
// such actor lives here. Safe from any goroutine; never waits.
func (s *System) Actor(ref Ref) (info ActorInfo, ok bool) {
	c := s.lookup(ref)
	if c == nil {
		return ActorInfo{}, false
	}
	return s.info(c), true
}

// info reads what can be read of c from outside its loop.
func (s *System) info(c *cell) ActorInfo {
	m := c.l.Metrics()
	a := ActorInfo{
		Ref:             c.self(),
		MessagesHandled: m.TasksRun + m.TimersFired,
		HandlingTime:    m.TaskLatency,
		TimersPending:   m.TimersPending,
		FDsWatched:      m.FDsWatched,
		Mailbox:         mailboxDepth(m),
	}
	if c.parent != nil {
		a.Parent = c.parent.self()
	}
	if sd := s.obs.peek(c); sd != nil {
		a.Children = int(sd.children.Load())
		a.Restarts = sd.restarts.Load()
		if sd.restarting.Load() {
			a.State = StateRestarting
		}
		sd.mu.Lock()
		a.StartedAt = sd.startedAt
		if n := len(sd.failures); n > 0 {
			f := sd.failures[n-1]
			a.LastFailure = &f
		}
		w := sd.wait
		sd.mu.Unlock()
		if w != nil {
			a.MailboxWait = w.Percentiles()
		}
	}
	return a
}

// mailboxDepth splits what is queued on c's loop into lanes: user
// messages wait in the mail lane, everything else in the task queue.
func mailboxDepth(m loop.Metrics) MailboxDepth {
	return MailboxDepth{User: m.MailDepth, System: max(m.IngressDepth-m.MailDepth, 0)}
}

// Inspect reads the actor ref on its own loop, between two of its
// messages, for a consistent view with its children and recent failures,
// and the figures it reports itself ([StatsReporter]). It waits for the
// actor to finish its current message, until ctx is done. Safe from any
// goroutine but an actor's loop, where it returns [ErrWouldBlock]. It
// returns [ErrNotFound] for an actor that does not live, [ErrStopped] for
// one that stops before it is read, and [ErrSystemClosed] once the system
// is shut down.
func (s *System) Inspect(ctx context.Context, ref Ref) (ActorDetail, error) {
	c := s.lookup(ref)
	if c == nil {
		return ActorDetail{}, s.closedErr(ref, fmt.Errorf("%w: %s", ErrNotFound, ref))
	}
	if c.l.OnLoop() {
		return s.inspectOnLoop(c), nil
	}
	if loop.OnLoopGoroutine() {
		return ActorDetail{}, ErrWouldBlock
	}
	ch := make(chan ActorDetail, 1)
	if err := c.l.Submit(func() { ch <- s.inspectOnLoop(c) }); err != nil {
		return ActorDetail{}, s.closedErr(ref, fmt.Errorf("%w: %s", ErrStopped, ref))
	}
	select {
	case d := <-ch:
		return d, nil
	case <-ctx.Done():
		return ActorDetail{}, fmt.Errorf("actor: inspect %s: %w", ref, ctx.Err())
	}
}

// inspectOnLoop reads c exactly. On c's loop.
func (s *System) inspectOnLoop(c *cell) ActorDetail {
	d := ActorDetail{ActorInfo: s.info(c)}
	d.State = c.publicState()
	d.Children = len(c.kids())
	for r := range c.kids() {
		if len(d.ChildRefs) == MaxDetailChildren {
			break
		}
		d.ChildRefs = append(d.ChildRefs, r)
	}
	slices.SortFunc(d.ChildRefs, func(a, b Ref) int { return compareRefs(a, b) })
	if sd := s.obs.peek(c); sd != nil {
		sd.mu.Lock()
		d.Failures = slices.Clone(sd.failures)
		sd.mu.Unlock()
	}
	if r, ok := c.actor.(StatsReporter); ok && c.state == cellRunning {
		_ = c.hook(func() { d.Stats = r.Stats() })
	}
	return d
}

func compareRefs(a, b Ref) int { return strings.Compare(a.path, b.path) }

// publicState maps the cell's state. On the loop.
func (c *cell) publicState() ActorState {
	switch c.state {
	case cellStarting:
		return StateStarting
	case cellSuspended:
		return StateRestarting
	case cellStopping:
		return StateStopping
	case cellStopped:
		return StateStopped
	}
	return StateRunning
}
