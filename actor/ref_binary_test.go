package actor_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/troupe-go/troupe/actor"
)

func ExampleRef_MarshalBinary() {
	b, _ := actor.NewRef("orders", "cart", "42").MarshalBinary()
	var r actor.Ref
	err := r.UnmarshalBinary(b)
	fmt.Println(r, err, r == actor.NewRef("orders", "cart", "42"))
	// Output: troupe://orders/cart/42 <nil> true
}

func TestRefBinaryRoundTrip(t *testing.T) {
	for _, r := range []actor.Ref{
		{},
		actor.NewRef("s", "k", "i"),
		actor.NewRef("", "k", "i"),
		actor.NewRef("sys", "kind", string(make([]byte, 300))),
		actor.NewRef("naïve", "k/ind", "id with spaces"),
		actor.NewRef("s", "team", "a").Child("worker", "w/1"),
		actor.NewRef("s", "t%", "a").Child("w", "1").Child("k", ""),
	} {
		b, err := r.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var got actor.Ref
		if err := got.UnmarshalBinary(b); err != nil || got != r {
			t.Fatalf("%v: round trip gave %v, %v", r, got, err)
		}
	}
}

func TestRefUnmarshalBinaryRejects(t *testing.T) {
	for _, in := range [][]byte{
		{0x05, 'a'},                  // length past the end
		{0x01, 'a', 0x01, 'b'},       // two parts of three
		{0x01, 'a', 0x01, 'b', 0x01}, // third part truncated
		{0x00, 0x00, 0x00, 0x00},     // a byte left over
		{0xff},                       // bad varint
		{0x01, 's', 0x01, 'k', 0x01, 'i', 0x01, 'p'},                 // parent path of one segment
		{0x01, 's', 0x01, 'k', 0x01, 'i', 0x04, 'p', '/', '%', 'z'},  // bad escape in the parent path
		{0x01, 's', 0x01, 'k', 0x01, 'i', 0x03, 'p', '/', 'q', 0x00}, // a fifth part
	} {
		var r actor.Ref
		if err := r.UnmarshalBinary(in); !errors.Is(err, actor.ErrBadRefEncoding) {
			t.Fatalf("%x: %v, want ErrBadRefEncoding", in, err)
		}
	}
}

func FuzzRefUnmarshalBinary(f *testing.F) {
	b, _ := actor.NewRef("s", "k", "i").MarshalBinary()
	f.Add(b)
	b, _ = actor.NewRef("s", "k", "i").Child("c/", "%d").MarshalBinary()
	f.Add(b)
	f.Add([]byte{0xff, 0xff})
	f.Fuzz(func(t *testing.T, data []byte) {
		var r actor.Ref
		if r.UnmarshalBinary(data) != nil {
			return
		}
		again, _ := r.MarshalBinary()
		var r2 actor.Ref
		if err := r2.UnmarshalBinary(again); err != nil || r2 != r {
			t.Fatalf("%x decoded to %v, which does not round-trip: %v", data, r, err)
		}
	})
}
