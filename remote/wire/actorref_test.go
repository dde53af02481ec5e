package wire_test

import (
	"errors"
	"testing"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/remote/wire"
)

// Refs written with Encoder.ActorRef read back equal, a child's with its
// parent; the layout is an envelope Ref's, so older readers that know
// fields 1-3 read a top-level ref as before.
func TestActorRefField(t *testing.T) {
	top := actor.NewRef("n1", "team", "a/b")
	for _, r := range []actor.Ref{{}, top, top.Child("worker", "w%1"), top.Child("w", "1").Child("k", "x")} {
		var e wire.Encoder
		e.ActorRef(1, true, r)
		d := wire.NewDecoder(e.Bytes())
		if !d.Next() {
			t.Fatalf("%v: no field", r)
		}
		if got := d.ActorRef(); got != r || d.Err() != nil {
			t.Fatalf("%v read back as %v, %v", r, got, d.Err())
		}
		if w := wire.RefOf(r); w.Parent != r.Parent().Path() {
			t.Fatalf("%v: wire parent %q", r, w.Parent)
		}
	}
	var e wire.Encoder
	e.Message(1, true, func(e *wire.Encoder) {
		e.String(1, "n1")
		e.String(2, "k")
		e.String(3, "i")
		e.String(4, "odd/path/segments")
	})
	d := wire.NewDecoder(e.Bytes())
	d.Next()
	if got := d.ActorRef(); !got.IsZero() || !errors.Is(d.Err(), wire.ErrMalformed) {
		t.Fatalf("bad parent path read as %v, %v; want ErrMalformed", got, d.Err())
	}
}

// A child's ref keeps its system and names whatever the system's name and
// the names hold ('/', '%', '.', control characters, unicode).
func TestAuditActorRefOddNames(t *testing.T) {
	for _, sys := range []string{"a/b", "50%", "n.1", "ü"} {
		top := actor.NewRef(sys, "t/%", "x\ny")
		for _, r := range []actor.Ref{top.Child("k.*>", "ü/%2F"), top.Child("a", "b").Child("c\x00", "d")} {
			var e wire.Encoder
			e.ActorRef(1, true, r)
			d := wire.NewDecoder(e.Bytes())
			d.Next()
			if got := d.ActorRef(); got != r || d.Err() != nil {
				t.Fatalf("%v read back as %v, %v", r, got, d.Err())
			}
		}
	}
}
