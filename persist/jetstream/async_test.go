package jetstream_test

import (
	"errors"
	"testing"

	"github.com/troupe-go/troupe/persist"
	"github.com/troupe-go/troupe/persist/jetstream"
)

type outcome struct {
	end persist.Cursor
	err error
}

func appendAsync(s *jetstream.Store, entity string, after persist.Cursor, evs ...persist.Event) outcome {
	ch := make(chan outcome, 1)
	s.AppendAsync(entity, after, evs, func(end persist.Cursor, err error) { ch <- outcome{end, err} })
	return <-ch
}

func TestAppendAsync(t *testing.T) {
	s, err := jetstream.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var end persist.Cursor
	for i := range 3 {
		o := appendAsync(s, "e", end, ev(uint64(i+1), "x"))
		if o.err != nil || o.end.Seq != uint64(i+1) || o.end.Rev <= end.Rev {
			t.Fatalf("write %d: %+v", i, o)
		}
		end = o.end
	}
	if o := appendAsync(s, "e", persist.Cursor{}, ev(1, "y")); !errors.Is(o.err, persist.ErrFenced) {
		t.Fatalf("stale write: %v, want ErrFenced", o.err)
	}
	if o := appendAsync(s, "e", end, ev(9, "y")); o.err == nil {
		t.Fatal("a write out of sequence was taken")
	}
	if n := len(count(t, s, "e")); n != 3 {
		t.Fatalf("%d events stored, want 3", n)
	}
	s.Close()
	if o := appendAsync(s, "e", end, ev(4, "z")); o.err == nil {
		t.Fatalf("write to a closed store: %v", o.err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}
