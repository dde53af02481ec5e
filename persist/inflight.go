package persist

import (
	"context"
	"sync"
)

// writesInFlight counts the writes in flight per entity over every
// instance of one definition's actors. An actor restarted while a write
// is in flight gets a fresh instance, which must not read the journal
// before that write settled: it would recover without it, and its own
// next write would be fenced by its predecessor's. Counting a write costs
// no allocation; a channel is made only for a recovery that must wait.
// Safe from any goroutine.
type writesInFlight struct {
	mu      sync.Mutex
	n       map[string]int
	settled map[string]chan struct{} // made by wait, closed when n falls to 0
}

// start counts a write of entity in flight; end, called once per start,
// uncounts it.
func (w *writesInFlight) start(entity string) {
	w.mu.Lock()
	if w.n == nil {
		w.n = map[string]int{}
	}
	w.n[entity]++
	w.mu.Unlock()
}

// end uncounts a write of entity that settled.
func (w *writesInFlight) end(entity string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.n[entity]--; w.n[entity] > 0 {
		return
	}
	delete(w.n, entity)
	if ch, ok := w.settled[entity]; ok {
		close(ch)
		delete(w.settled, entity)
	}
}

// wait returns once no write of entity is in flight, or with ctx's error.
func (w *writesInFlight) wait(ctx context.Context, entity string) error {
	w.mu.Lock()
	if w.n[entity] == 0 {
		w.mu.Unlock()
		return nil
	}
	ch := w.settled[entity]
	if ch == nil {
		if w.settled == nil {
			w.settled = map[string]chan struct{}{}
		}
		ch = make(chan struct{})
		w.settled[entity] = ch
	}
	w.mu.Unlock()
	if hook := testHookAwaitsWrite; hook != nil {
		hook(entity)
	}
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
