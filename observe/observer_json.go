package observe

import (
	"strings"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/loop"
)

// actorJSON is an actor as the page sees it. Durations are in
// microseconds.
type actorJSON struct {
	Ref         string       `json:"ref"` // the path: kind/id, from the top-level ancestor down
	Kind        string       `json:"kind"`
	ID          string       `json:"id"`
	Parent      string       `json:"parent,omitempty"`
	State       string       `json:"state"`
	Mailbox     int          `json:"mailbox"`
	MailboxUser int          `json:"mailboxUser"`
	MailboxSys  int          `json:"mailboxSystem"`
	Children    int          `json:"children"`
	Restarts    uint64       `json:"restarts"`
	LastFailure *failureJSON `json:"lastFailure,omitempty"`
	StartedAt   *time.Time   `json:"startedAt,omitempty"`
	Handled     uint64       `json:"handled"`
	Handling    pctJSON      `json:"handlingUs"`
	Wait        pctJSON      `json:"waitUs"`
	Timers      int          `json:"timers"`
	FDs         int          `json:"fds"`
}

type pctJSON struct {
	P50     float64 `json:"p50"`
	P90     float64 `json:"p90"`
	P99     float64 `json:"p99"`
	Samples uint64  `json:"samples"`
}

type failureJSON struct {
	At    time.Time `json:"at"`
	Error string    `json:"error"`
}

// detailJSON is one inspected actor.
type detailJSON struct {
	actorJSON
	ChildRefs []string      `json:"childRefs"`
	Failures  []failureJSON `json:"failures"`
	Stats     []statJSON    `json:"stats"`
}

type statJSON struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
	Unit  string  `json:"unit"`
}

// refString names an actor of the observed system by its path.
func refString(r actor.Ref) string { return r.Path() }

// parseRef reads a path of the system s: kind/id pairs, from the
// top-level ancestor down.
func parseRef(s *actor.System, path string) (actor.Ref, bool) {
	r, err := actor.ParseRef("troupe://" + s.Name() + "/" + path)
	return r, err == nil
}

func pct(p loop.Percentiles) pctJSON {
	us := func(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
	return pctJSON{us(p.P50), us(p.P90), us(p.P99), p.Samples}
}

func failure(f actor.Failure) failureJSON {
	msg := "<nil>"
	if f.Err != nil {
		msg = f.Err.Error()
		if i := strings.Index(msg, "\ngoroutine "); i > 0 { // a panic's stack: the inspector shows the first line
			msg = msg[:i]
		}
	}
	return failureJSON{At: f.At, Error: msg}
}

func toJSON(a *actor.ActorInfo) actorJSON {
	j := actorJSON{
		Ref: refString(a.Ref), Kind: a.Ref.Kind(), ID: a.Ref.ID(), Parent: refString(a.Parent),
		State: a.State.String(), Mailbox: a.Mailbox.Total(), MailboxUser: a.Mailbox.User, MailboxSys: a.Mailbox.System,
		Children: a.Children, Restarts: a.Restarts, Handled: a.MessagesHandled,
		Handling: pct(a.HandlingTime), Wait: pct(a.MailboxWait), Timers: a.TimersPending, FDs: a.FDsWatched,
	}
	if a.LastFailure != nil {
		f := failure(*a.LastFailure)
		j.LastFailure = &f
	}
	if !a.StartedAt.IsZero() {
		t := a.StartedAt
		j.StartedAt = &t
	}
	return j
}

func detailToJSON(d *actor.ActorDetail) detailJSON {
	j := detailJSON{actorJSON: toJSON(&d.ActorInfo), ChildRefs: []string{}, Failures: []failureJSON{}, Stats: []statJSON{}}
	for _, s := range d.Stats {
		j.Stats = append(j.Stats, statJSON(s))
	}
	for _, r := range d.ChildRefs {
		j.ChildRefs = append(j.ChildRefs, refString(r))
	}
	for _, f := range d.Failures {
		j.Failures = append(j.Failures, failure(f))
	}
	return j
}
