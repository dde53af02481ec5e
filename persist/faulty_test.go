package persist_test

import (
	"context"
	"errors"
	"sync"

	"github.com/troupe-go/troupe/persist"
)

var errUnavailable = errors.New("test: store unavailable")

// faultyStore wraps a MemoryStore with the faults of the tests: a store
// that is down, an acknowledgement that is lost, writes held back.
type faultyStore struct {
	*persist.MemoryStore

	mu        sync.Mutex
	down      bool          // every call fails with errUnavailable
	loseAck   bool          // the next Append is stored, then fails
	hold      chan struct{} // Appends wait for a receive on it, when set
	holdRead  chan struct{} // Reads wait for a receive on it, when set
	readStart chan struct{} // each Read sends on it as it starts, if there is room, when set
	inFlight  int
	maxFlight int
	appends   int
	refused   int   // calls refused while down
	reads     []int // events each Read delivered
	saved     chan persist.Snapshot
	deleted   chan uint64 // DeleteTo's seq, once done
}

func newFaulty() *faultyStore {
	return &faultyStore{MemoryStore: persist.NewMemoryStore(), saved: make(chan persist.Snapshot, 100), deleted: make(chan uint64, 100)}
}

func (f *faultyStore) setDown(down bool) {
	f.mu.Lock()
	f.down = down
	f.mu.Unlock()
}

func (f *faultyStore) isDown() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.down {
		f.refused++
	}
	return f.down
}

func (f *faultyStore) refusals() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.refused
}

func (f *faultyStore) Append(ctx context.Context, entity string, after persist.Cursor, events []persist.Event) (persist.Cursor, error) {
	f.mu.Lock()
	f.inFlight++
	f.maxFlight = max(f.maxFlight, f.inFlight)
	hold, down, lose := f.hold, f.down, f.loseAck
	f.loseAck = false
	f.mu.Unlock()
	defer func() {
		f.mu.Lock()
		f.inFlight--
		f.mu.Unlock()
	}()
	if hold != nil {
		<-hold
	}
	if down {
		return after, errUnavailable
	}
	end, err := f.MemoryStore.Append(ctx, entity, after, events)
	f.mu.Lock()
	f.appends++
	f.mu.Unlock()
	if lose && err == nil {
		return after, errUnavailable
	}
	return end, err
}

func (f *faultyStore) Read(ctx context.Context, entity string, after persist.Cursor, fn func(persist.Event) error) (persist.Cursor, error) {
	f.mu.Lock()
	hold, start := f.holdRead, f.readStart
	f.mu.Unlock()
	if start != nil {
		select {
		case start <- struct{}{}:
		default:
		}
	}
	if hold != nil {
		<-hold
	}
	if f.isDown() {
		return after, errUnavailable
	}
	n := 0
	end, err := f.MemoryStore.Read(ctx, entity, after, func(e persist.Event) error { n++; return fn(e) })
	f.mu.Lock()
	f.reads = append(f.reads, n)
	f.mu.Unlock()
	return end, err
}

func (f *faultyStore) LoadSnapshot(ctx context.Context, entity string) (persist.Snapshot, bool, error) {
	if f.isDown() {
		return persist.Snapshot{}, false, errUnavailable
	}
	return f.MemoryStore.LoadSnapshot(ctx, entity)
}

func (f *faultyStore) SaveSnapshot(ctx context.Context, entity string, s persist.Snapshot, keep int) (uint64, error) {
	oldest, err := f.MemoryStore.SaveSnapshot(ctx, entity, s, keep)
	f.saved <- s
	return oldest, err
}

func (f *faultyStore) DeleteTo(ctx context.Context, entity string, seq uint64) error {
	err := f.MemoryStore.DeleteTo(ctx, entity, seq)
	f.deleted <- seq
	return err
}

// journal returns entity's stored events.
func journal(s persist.Journal, entity string) []persist.Event {
	var out []persist.Event
	_, err := s.Read(context.Background(), entity, persist.Cursor{}, func(e persist.Event) error {
		out = append(out, e)
		return nil
	})
	must(err)
	return out
}
