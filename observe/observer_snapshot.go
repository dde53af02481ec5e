package observe

import (
	"encoding/json"
	"sync"
	"time"

	"github.com/troupe-go/troupe/actor"
)

// snapshot is one reading of the system, shared by every client that
// accepts its age: a page polling /api/summary, every live page, and the
// tree's requests all read the same one, so the server reads the system
// at most once per interval however many look and however often they ask.
type snapshot struct {
	at      int64  // on the observer's clock
	summary []byte // the summary as JSON
	event   []byte // the same, as one server-sent event
	tree    *treeIndex
}

// snapshots keeps the latest snapshot. Its lock is held while one is
// taken, so that callers wanting a fresher one wait for that one rather
// than each taking their own.
type snapshots struct {
	mu   sync.Mutex
	last *snapshot
	cost time.Duration // the CPU time taking the last one took (see measureCost)
}

// treeWantedFor is how long, in intervals, snapshots keep indexing the
// tree after the last request that needed the index.
const treeWantedFor = 3

// snapshot returns a snapshot taken less than maxAge ago, with the tree
// index if withTree, taking a new one if there is none.
func (o *Observer) snapshot(maxAge time.Duration, withTree bool) (*snapshot, error) {
	if withTree {
		o.treeAskedAt.Store(o.clock.Now())
	}
	o.snaps.mu.Lock()
	defer o.snaps.mu.Unlock()
	now := o.clock.Now()
	if l := o.snaps.last; l != nil && now-l.at < int64(maxAge) && (l.tree != nil || !withTree) {
		return l, nil
	}
	indexTree := withTree || now-o.treeAskedAt.Load() < treeWantedFor*int64(o.interval)
	var (
		s   *snapshot
		err error
	)
	cost := measureCost(func() { // the real cost, whatever the observer's clock
		sum, tree := o.summaryWith(func(kinds map[string]actor.KindTotals) { o.recordRates(kinds) }, indexTree)
		var b []byte
		if b, err = json.Marshal(sum); err == nil {
			s = &snapshot{at: now, summary: b, event: sseEvent("summary", b), tree: tree}
		}
	})
	if err != nil {
		return nil, err
	}
	o.snaps.last, o.snaps.cost = s, cost
	return s, nil
}

// lastCost is what taking the latest snapshot took.
func (o *Observer) lastCost() time.Duration {
	o.snaps.mu.Lock()
	defer o.snaps.mu.Unlock()
	return o.snaps.cost
}

// sseEvent frames data as one server-sent event.
func sseEvent(name string, data []byte) []byte {
	out := make([]byte, 0, len(data)+len(name)+16)
	out = append(out, "event: "...)
	out = append(out, name...)
	out = append(out, "\ndata: "...)
	out = append(out, data...)
	return append(out, "\n\n"...)
}
