package observe

import (
	"slices"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/internal/observed"
)

// summaryJSON is what a live page gets each interval.
type summaryJSON struct {
	System       string            `json:"system"`
	Time         time.Time         `json:"time"`
	Actors       int               `json:"actors"`
	Kinds        []kindJSON        `json:"kinds"`
	Loops        int               `json:"loops"`
	GlobalQueue  int               `json:"globalQueue"`
	Workers      []workerJSON      `json:"workers"`
	DeadLetters  map[string]uint64 `json:"deadLetters"`
	DeadTotal    uint64            `json:"deadTotal"`
	AsksTimedOut uint64            `json:"asksTimedOut"`
	Transport    *transportJSON    `json:"transport"`
	Top          topJSON           `json:"top"`
	Dead         []deadJSON        `json:"dead"`
	Rates        ratesJSON         `json:"rates"`
	Actions      bool              `json:"actions"`
	// Sections are what packages above actor show of themselves (package
	// sharding: "sharding"), by name; see internal/observed.
	Sections map[string]any `json:"sections,omitempty"`
}

type kindJSON struct {
	Kind     string  `json:"kind"`
	Actors   int     `json:"actors"`
	Mailbox  int     `json:"mailbox"`
	Handled  uint64  `json:"handled"`
	Restarts uint64  `json:"restarts"`
	Stopped  uint64  `json:"stopped"`
	Rate     float64 `json:"rate"` // messages per second over the last interval
}

type workerJSON struct {
	RunQueue int  `json:"runQueue"`
	Idle     bool `json:"idle"`
}

type transportJSON struct {
	Node     string            `json:"node"`
	Peers    []peerJSON        `json:"peers"`
	Counters map[string]uint64 `json:"counters"`
}

type peerJSON struct {
	Node        string    `json:"node"`
	Reachable   bool      `json:"reachable"`
	Lost        string    `json:"lost,omitempty"`
	LastSeen    time.Time `json:"lastSeen"`
	QueuedBytes int       `json:"queuedBytes"`
}

type topJSON struct {
	Mailbox  []actorJSON `json:"mailbox"`
	Handling []actorJSON `json:"handling"`
	Restarts []actorJSON `json:"restarts"`
}

// deadPerSummary is how many of the latest dead letters a summary holds.
const deadPerSummary = 50

// topN is how many actors each top list holds.
const topN = 8

// topList keeps the n actors with the largest key, largest first.
type topList struct {
	key  func(*actor.ActorInfo) float64
	list []actor.ActorInfo
}

func (t *topList) offer(a *actor.ActorInfo) {
	k := t.key(a)
	if k <= 0 || (len(t.list) == topN && k <= t.key(&t.list[topN-1])) {
		return
	}
	i, _ := slices.BinarySearchFunc(t.list, k, func(x actor.ActorInfo, k float64) int {
		if t.key(&x) > k {
			return -1
		}
		return 1
	})
	t.list = slices.Insert(t.list, i, *a)
	if len(t.list) > topN {
		t.list = t.list[:topN]
	}
}

func (t *topList) json() []actorJSON {
	out := make([]actorJSON, len(t.list))
	for i := range t.list {
		out[i] = toJSON(&t.list[i])
	}
	return out
}

// summary returns the latest summary, taken less than an interval ago.
func (o *Observer) summary() ([]byte, error) {
	s, err := o.snapshot(o.interval, false)
	if err != nil {
		return nil, err
	}
	return s.summary, nil
}

// summaryWith reads the system: totals, tops, transport, and what the
// dead letter log and the rate history hold; and, if indexTree, every
// actor's ref for the tree. It calls before (if not nil) with the kinds'
// totals before it reads the rates, so that they include this reading.
func (o *Observer) summaryWith(before func(map[string]actor.KindTotals), indexTree bool) (summaryJSON, *treeIndex) {
	t := o.sys.Totals()
	if before != nil {
		before(t.Kinds)
	}
	s := summaryJSON{
		System: o.sys.Name(), Time: o.now(), Actors: t.Actors, Loops: t.Scheduler.Loops,
		GlobalQueue: t.Scheduler.GlobalQueue, DeadLetters: t.DeadLetters, AsksTimedOut: t.AsksTimedOut,
		Actions: o.actions, Dead: o.dead.latest(deadPerSummary), Rates: o.hist.json(),
	}
	rates := o.hist.lastRates()
	for _, k := range sortedKeys(t.Kinds) {
		kt := t.Kinds[k]
		s.Kinds = append(s.Kinds, kindJSON{k, kt.Actors, kt.MailboxDepth, kt.MessagesHandled, kt.Restarts, kt.Stopped, rates[k]})
	}
	for _, w := range t.Scheduler.Workers {
		s.Workers = append(s.Workers, workerJSON{w.RunQueue, w.Idle})
	}
	for _, n := range t.DeadLetters {
		s.DeadTotal += n
	}
	if ts, ok := o.sys.TransportStats(); ok {
		tj := &transportJSON{Node: ts.Node, Counters: ts.Counters, Peers: []peerJSON{}}
		for _, p := range ts.Peers {
			tj.Peers = append(tj.Peers, peerJSON{p.Node, p.Reachable, p.Lost, p.LastSeen, p.QueuedBytes})
		}
		s.Transport = tj
	}
	for _, sec := range observed.Of(o.sys) {
		if s.Sections == nil {
			s.Sections = map[string]any{}
		}
		s.Sections[sec.Name] = sec.Read()
	}
	if !indexTree {
		s.Top = o.top(nil)
		return s, nil
	}
	refs := make([]actor.Ref, 0, t.Actors+t.Actors/8) // room for those spawned meanwhile
	s.Top = o.top(func(a *actor.ActorInfo) { refs = append(refs, a.Ref) })
	return s, newTreeIndex(refs)
}

// top visits every actor once for the three top lists, and calls also
// (if not nil) with each.
func (o *Observer) top(also func(*actor.ActorInfo)) topJSON {
	byMailbox := topList{key: func(a *actor.ActorInfo) float64 { return float64(a.Mailbox.Total()) }}
	byHandling := topList{key: func(a *actor.ActorInfo) float64 { return float64(a.HandlingTime.P99) }}
	byRestarts := topList{key: func(a *actor.ActorInfo) float64 { return float64(a.Restarts) }}
	o.sys.VisitActors(func(a *actor.ActorInfo) bool {
		byMailbox.offer(a)
		byHandling.offer(a)
		byRestarts.offer(a)
		if also != nil {
			also(a)
		}
		return true
	})
	return topJSON{byMailbox.json(), byHandling.json(), byRestarts.json()}
}
