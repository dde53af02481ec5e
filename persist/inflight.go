package persist

import (
	"context"
	"sync"
)

// writesInFlight counts the writes in flight per entity over every
// instance of one definition's actors. An actor restarted while a write
// is in flight gets a fresh instance, which must not read the journal
// before that write settled: it would recover without it, and its own
// next write would be fenced by its predecessor's. Safe from any
// goroutine.
type writesInFlight struct {
	mu sync.Mutex
	m  map[string]*entityWrites
}

type entityWrites struct {
	n       int
	settled chan struct{} // closed when n falls to 0
}

// start counts a write of entity in flight; settled uncounts it, once.
func (w *writesInFlight) start(entity string) (settled func()) {
	w.mu.Lock()
	if w.m == nil {
		w.m = map[string]*entityWrites{}
	}
	e := w.m[entity]
	if e == nil {
		e = &entityWrites{settled: make(chan struct{})}
		w.m[entity] = e
	}
	e.n++
	w.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			w.mu.Lock()
			if e.n--; e.n == 0 {
				close(e.settled)
				delete(w.m, entity)
			}
			w.mu.Unlock()
		})
	}
}

// wait returns once no write of entity is in flight, or with ctx's error.
func (w *writesInFlight) wait(ctx context.Context, entity string) error {
	w.mu.Lock()
	e := w.m[entity]
	w.mu.Unlock()
	if e == nil {
		return nil
	}
	if hook := testHookAwaitsWrite; hook != nil {
		hook(entity)
	}
	select {
	case <-e.settled:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
