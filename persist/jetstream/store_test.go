package jetstream_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/troupe-go/troupe/persist"
	"github.com/troupe-go/troupe/persist/jetstream"
	"github.com/troupe-go/troupe/persist/storetest"
)

func open(t *testing.T, dir string, opts ...jetstream.Option) *jetstream.Store {
	t.Helper()
	s, err := jetstream.Open(dir, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestStore(t *testing.T) {
	s := open(t, t.TempDir())
	storetest.Run(t, func(*testing.T) storetest.Store { return s })
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return c
}

func ev(seq uint64, data string) persist.Event {
	return persist.Event{Seq: seq, Payload: persist.Payload{Type: "t", Version: 1, Data: []byte(data)}}
}

func count(t *testing.T, s *jetstream.Store, entity string) []persist.Event {
	var out []persist.Event
	if _, err := s.Read(ctx(t), entity, persist.Cursor{}, func(e persist.Event) error {
		out = append(out, e)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// A write repeated (a retry after its acknowledgement was lost) is stored
// once, and the repeat learns where the original went.
func TestRepeatedWriteIsStoredOnce(t *testing.T) {
	s := open(t, t.TempDir())
	c1, err := s.Append(ctx(t), "e", persist.Cursor{}, []persist.Event{ev(1, "a")})
	if err != nil {
		t.Fatal(err)
	}
	again, err := s.Append(ctx(t), "e", persist.Cursor{}, []persist.Event{ev(1, "a")})
	if err != nil || again != c1 {
		t.Fatalf("repeat: %+v, %v; want %+v", again, err, c1)
	}
	// Another write of event 1 from a writer as far behind is no repeat.
	if _, err := s.Append(ctx(t), "e", persist.Cursor{}, []persist.Event{ev(1, "b")}); !errors.Is(err, persist.ErrFenced) {
		t.Fatalf("a different event 1: %v, want ErrFenced", err)
	}
	if n := len(count(t, s, "e")); n != 1 {
		t.Fatalf("%d events stored, want 1", n)
	}
}

// What was acknowledged is there after the store (and its server) closes
// and opens again on the same directory.
func TestWritesSurviveReopening(t *testing.T) {
	dir := t.TempDir()
	s, err := jetstream.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	end := persist.Cursor{}
	for i := range 20 {
		if end, err = s.Append(ctx(t), "acct/1", end, []persist.Event{ev(uint64(i+1), "x")}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.PutState(ctx(t), "acct/1", 0, persist.Payload{Type: "s", Version: 1, Data: []byte("st")}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s2 := open(t, dir)
	evs := count(t, s2, "acct/1")
	if len(evs) != 20 || evs[19].Seq != 20 {
		t.Fatalf("%d events after reopening", len(evs))
	}
	if _, err := s2.Append(ctx(t), "acct/1", end, []persist.Event{ev(21, "y")}); err != nil {
		t.Fatalf("append after reopening with the old cursor: %v", err)
	}
	if st, ok, err := s2.GetState(ctx(t), "acct/1"); !ok || err != nil || string(st.Data) != "st" {
		t.Fatalf("state after reopening: %+v %v %v", st, ok, err)
	}
}

// A store whose server is gone fails writes with an error, at once or at
// the caller's deadline, never hanging.
func TestStoreUnavailable(t *testing.T) {
	s, err := jetstream.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	c, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if _, err := s.Append(c, "e", persist.Cursor{}, []persist.Event{ev(1, "a")}); err == nil || errors.Is(err, persist.ErrFenced) {
		t.Fatalf("append to a closed store: %v", err)
	}
	if _, err := s.Read(c, "e", persist.Cursor{}, func(persist.Event) error { return nil }); err == nil {
		t.Fatal("read from a closed store succeeded")
	}
}

func TestOptions(t *testing.T) {
	for _, o := range []jetstream.Option{
		jetstream.WithName("bad name"), jetstream.WithReplicas(2),
		jetstream.WithDuplicateWindow(0), jetstream.WithMaxPending(0),
	} {
		if _, err := jetstream.Open(t.TempDir(), o); err == nil {
			t.Fatal("a bad option was taken")
		}
	}
	if _, err := jetstream.Open(""); err == nil {
		t.Fatal("Open without a directory")
	}
	s := open(t, t.TempDir(), jetstream.WithName("bank"), jetstream.WithSyncAlways())
	if _, err := s.Append(ctx(t), "e", persist.Cursor{}, []persist.Event{ev(1, "a")}); err != nil {
		t.Fatal(err)
	}
}
