// Package storetest checks that a store keeps the contracts package persist
// relies on: writes all or nothing, in order, fenced against a writer that
// is behind; entities kept apart; deletion that keeps the journal's end;
// snapshots with retention; states with a revision check. Each store's tests
// run it against a real instance of that store.
package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/troupe-go/troupe/persist"
)

// Store is what the checks need: a journal, snapshots and states.
type Store interface {
	persist.Store
	persist.States
}

// Run runs every check as a subtest. open returns a store to check; each
// subtest uses entity names of its own, so open may return the same store
// every time.
func Run(t *testing.T, open func(t *testing.T) Store) {
	for _, c := range []struct {
		name string
		fn   func(t *testing.T, s Store, entity string)
	}{
		{"AppendRead", appendRead},
		{"Fenced", fenced},
		{"ConcurrentWriters", concurrentWriters},
		{"EntitiesApart", entitiesApart},
		{"DeleteTo", deleteTo},
		{"Snapshots", snapshots},
		{"States", states},
	} {
		t.Run(c.name, func(t *testing.T) { c.fn(t, open(t), fmt.Sprintf("storetest/%s/%d", c.name, time.Now().UnixNano())) })
	}
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return c
}

// events makes n events numbered on from after.
func events(after uint64, n int, fence uint64) []persist.Event {
	out := make([]persist.Event, n)
	for i := range out {
		seq := after + uint64(i) + 1
		out[i] = persist.Event{Seq: seq, Fence: fence, Payload: persist.Payload{
			Type: "storetest.event", Version: uint32(seq%3 + 1), Data: fmt.Appendf(nil, "event %d", seq),
		}}
	}
	return out
}

// readAll reads entity's events after after.
func readAll(t *testing.T, s Store, entity string, after persist.Cursor) ([]persist.Event, persist.Cursor) {
	t.Helper()
	var got []persist.Event
	end, err := s.Read(ctx(t), entity, after, func(e persist.Event) error {
		got = append(got, e)
		return nil
	})
	if err != nil {
		t.Fatalf("read %q: %v", entity, err)
	}
	return got, end
}

func appendOK(t *testing.T, s Store, entity string, after persist.Cursor, evs []persist.Event) persist.Cursor {
	t.Helper()
	end, err := s.Append(ctx(t), entity, after, evs)
	if err != nil {
		t.Fatalf("append after %+v: %v", after, err)
	}
	if end.Seq != evs[len(evs)-1].Seq {
		t.Fatalf("append returned end %+v, want Seq %d", end, evs[len(evs)-1].Seq)
	}
	return end
}

func sameEvents(t *testing.T, got, want []persist.Event) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("read %d events, want %d", len(got), len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.Seq != w.Seq || g.Type != w.Type || g.Version != w.Version || g.Fence != w.Fence || !bytes.Equal(g.Data, w.Data) {
			t.Fatalf("event %d: got %+v, want %+v", i, g, w)
		}
	}
}

func appendRead(t *testing.T, s Store, entity string) {
	got, end := readAll(t, s, entity, persist.Cursor{})
	if len(got) != 0 || end != (persist.Cursor{}) {
		t.Fatalf("a new entity has %d events, end %+v", len(got), end)
	}
	first := events(0, 3, 7)
	c1 := appendOK(t, s, entity, persist.Cursor{}, first)
	second := events(3, 2, 8)
	c2 := appendOK(t, s, entity, c1, second)
	got, end = readAll(t, s, entity, persist.Cursor{})
	sameEvents(t, got, append(first, second...))
	if end != c2 {
		t.Fatalf("read ends at %+v, the last append returned %+v", end, c2)
	}
	got, _ = readAll(t, s, entity, c1)
	sameEvents(t, got, second)
}

func fenced(t *testing.T, s Store, entity string) {
	c1 := appendOK(t, s, entity, persist.Cursor{}, events(0, 1, 0))
	appendOK(t, s, entity, c1, events(1, 1, 0))
	for _, after := range []persist.Cursor{{}, c1} {
		// Events of its own (fence 9): a store may take a repeat of the
		// very write it holds as the retry it is.
		_, err := s.Append(ctx(t), entity, after, events(after.Seq, 1, 9))
		if !errors.Is(err, persist.ErrFenced) {
			t.Fatalf("append after stale %+v: %v, want ErrFenced", after, err)
		}
	}
	got, _ := readAll(t, s, entity, persist.Cursor{})
	sameEvents(t, got, events(0, 2, 0))
}

// concurrentWriters: writers that all saw the same end race to append;
// exactly one wins each round.
func concurrentWriters(t *testing.T, s Store, entity string) {
	var end persist.Cursor
	for round := range 5 {
		var mu sync.Mutex
		wins := 0
		var winner persist.Cursor
		var wg sync.WaitGroup
		for w := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				evs := events(end.Seq, 1, uint64(w))
				c, err := s.Append(ctx(t), entity, end, evs)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					wins++
					winner = c
				case !errors.Is(err, persist.ErrFenced):
					t.Errorf("round %d writer %d: %v", round, w, err)
				}
			}()
		}
		wg.Wait()
		if wins != 1 {
			t.Fatalf("round %d: %d writers won", round, wins)
		}
		end = winner
	}
	got, last := readAll(t, s, entity, persist.Cursor{})
	if len(got) != 5 || last != end {
		t.Fatalf("journal has %d events ending at %+v, want 5 ending at %+v", len(got), last, end)
	}
	for i, e := range got {
		if e.Seq != uint64(i+1) {
			t.Fatalf("event %d has sequence %d", i, e.Seq)
		}
	}
}

func entitiesApart(t *testing.T, s Store, entity string) {
	names := []string{entity + "/a", entity + "/a.b", entity + "/a b", entity + "/ü*>", entity + "/a/b"}
	for i, n := range names {
		appendOK(t, s, n, persist.Cursor{}, events(0, i+1, uint64(i)))
	}
	for i, n := range names {
		got, _ := readAll(t, s, n, persist.Cursor{})
		sameEvents(t, got, events(0, i+1, uint64(i)))
	}
}

func deleteTo(t *testing.T, s Store, entity string) {
	var end persist.Cursor
	cursors := make([]persist.Cursor, 5)
	for i := range 5 {
		end = appendOK(t, s, entity, end, events(uint64(i), 1, 0))
		cursors[i] = end
	}
	if err := s.DeleteTo(ctx(t), entity, 3); err != nil {
		t.Fatal(err)
	}
	got, last := readAll(t, s, entity, persist.Cursor{})
	sameEvents(t, got, events(3, 2, 0))
	if last != end {
		t.Fatalf("after DeleteTo the journal ends at %+v, want %+v", last, end)
	}
	// A cursor whose write was deleted (a snapshot's, with DeleteEvents)
	// still reads what follows it; the end's cursor reads nothing.
	got, last = readAll(t, s, entity, cursors[2])
	sameEvents(t, got, events(3, 2, 0))
	if last != end {
		t.Fatalf("reading after a deleted write, the journal ends at %+v, want %+v", last, end)
	}
	if got, last = readAll(t, s, entity, end); len(got) != 0 || last != end {
		t.Fatalf("reading after the end: %d events, end %+v; want none, %+v", len(got), last, end)
	}
	if err := s.DeleteTo(ctx(t), entity, 5); err != nil {
		t.Fatal(err)
	}
	// The end is still known: a stale writer is still fenced, the owner
	// still appends.
	if _, err := s.Append(ctx(t), entity, persist.Cursor{}, events(0, 1, 0)); !errors.Is(err, persist.ErrFenced) {
		t.Fatalf("append from scratch after deleting everything: %v, want ErrFenced", err)
	}
	end = appendOK(t, s, entity, end, events(5, 1, 0))
	got, _ = readAll(t, s, entity, persist.Cursor{Seq: 5, Rev: last.Rev})
	sameEvents(t, got, events(5, 1, 0))
}

func snapshots(t *testing.T, s Store, entity string) {
	if _, ok, err := s.LoadSnapshot(ctx(t), entity); ok || err != nil {
		t.Fatalf("a new entity has a snapshot (%v, %v)", ok, err)
	}
	for i, keep := range []int{0, 2, 2} {
		seq := uint64(10 * (i + 1))
		snap := persist.Snapshot{Cursor: persist.Cursor{Seq: seq, Rev: seq + 100},
			Payload: persist.Payload{Type: "storetest.state", Version: 2, Data: fmt.Appendf(nil, "state %d", seq)}}
		oldest, err := s.SaveSnapshot(ctx(t), entity, snap, keep)
		if err != nil {
			t.Fatal(err)
		}
		if want := uint64(10 * max(1, i)); oldest != want {
			t.Fatalf("snapshot %d kept %d: oldest %d, want %d", seq, keep, oldest, want)
		}
		got, ok, err := s.LoadSnapshot(ctx(t), entity)
		if err != nil || !ok {
			t.Fatalf("load: %v, %v", ok, err)
		}
		if got.Cursor != snap.Cursor || got.Type != snap.Type || got.Version != 2 || !bytes.Equal(got.Data, snap.Data) {
			t.Fatalf("loaded %+v, want %+v", got, snap)
		}
	}
}

func states(t *testing.T, s Store, entity string) {
	if _, ok, err := s.GetState(ctx(t), entity); ok || err != nil {
		t.Fatalf("a new entity has a state (%v, %v)", ok, err)
	}
	p := func(n int) persist.Payload {
		return persist.Payload{Type: "storetest.state", Version: 1, Data: fmt.Appendf(nil, "state %d", n)}
	}
	rev1, err := s.PutState(ctx(t), entity, 0, p(1))
	if err != nil || rev1 == 0 {
		t.Fatalf("first put: %d, %v", rev1, err)
	}
	if _, err := s.PutState(ctx(t), entity, 0, p(2)); !errors.Is(err, persist.ErrFenced) {
		t.Fatalf("put at a stale revision: %v, want ErrFenced", err)
	}
	rev2, err := s.PutState(ctx(t), entity, rev1, p(3))
	if err != nil || rev2 == 0 || rev2 == rev1 {
		t.Fatalf("second put: %d after %d, %v", rev2, rev1, err)
	}
	if _, err := s.PutState(ctx(t), entity, rev1, p(4)); !errors.Is(err, persist.ErrFenced) {
		t.Fatalf("put at the first revision again: %v, want ErrFenced", err)
	}
	got, ok, err := s.GetState(ctx(t), entity)
	if err != nil || !ok || got.Revision != rev2 || !bytes.Equal(got.Data, p(3).Data) || got.Type != "storetest.state" {
		t.Fatalf("get: %+v, %v, %v", got, ok, err)
	}
}
