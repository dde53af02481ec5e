package record

import (
	"errors"
	"reflect"
	"testing"

	"github.com/troupe-go/troupe/persist"
)

func TestEventsRoundTrip(t *testing.T) {
	in := []persist.Event{
		{Seq: 7, Fence: 3, Payload: persist.Payload{Type: "a.b", Version: 2, Data: []byte("xyz")}},
		{Seq: 8, Payload: persist.Payload{Type: "", Version: 1, Data: []byte{}}},
	}
	out, err := ReadEvents(AppendEvents(nil, in))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(in, out) {
		t.Fatalf("got %+v, want %+v", out, in)
	}
}

func TestPayloadRoundTrip(t *testing.T) {
	in := persist.Payload{Type: "state", Version: 9, Data: []byte("data")}
	out, err := ReadPayload(AppendPayload(nil, in))
	if err != nil || !reflect.DeepEqual(in, out) {
		t.Fatalf("got %+v, %v", out, err)
	}
}

func TestBadRecords(t *testing.T) {
	good := AppendEvents(nil, []persist.Event{{Seq: 1, Payload: persist.Payload{Type: "t", Version: 1, Data: []byte("d")}}})
	for name, data := range map[string][]byte{
		"empty":       nil,
		"version":     {2, 1},
		"no events":   {1, 0},
		"truncated":   good[:len(good)-1],
		"trailing":    append(append([]byte{}, good...), 0),
		"huge count":  {1, 0xff, 0xff, 0xff, 0xff, 0x0f},
		"huge length": {1, 1, 1, 1, 0, 0xff, 0xff, 0xff, 0xff, 0x0f},
	} {
		if _, err := ReadEvents(data); !errors.Is(err, persist.ErrCorrupt) {
			t.Errorf("%s: %v, want ErrCorrupt", name, err)
		}
	}
	if _, err := ReadPayload([]byte{1, 1, 5, 'a'}); !errors.Is(err, persist.ErrCorrupt) {
		t.Errorf("truncated payload: %v", err)
	}
}

func FuzzReadEvents(f *testing.F) {
	f.Add(AppendEvents(nil, []persist.Event{{Seq: 1, Payload: persist.Payload{Type: "t", Version: 1, Data: []byte("d")}}}))
	f.Fuzz(func(t *testing.T, data []byte) {
		evs, err := ReadEvents(data)
		if err != nil {
			return
		}
		again, err := ReadEvents(AppendEvents(nil, evs))
		if err != nil || len(again) != len(evs) {
			t.Fatalf("a record that decoded does not round-trip: %v", err)
		}
	})
}
