package sharding

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/troupe-go/troupe/remote/wire"
)

func envelopeRegistry(t testing.TB) *wire.Registry {
	t.Helper()
	reg := wire.NewRegistry()
	if err := registerWire(reg); err != nil {
		t.Fatal(err)
	}
	return reg
}

// TestEnvelopeRoundTrip: every field of an envelope survives the wire,
// whatever the size of the message inside (its length takes one byte or
// more), and the decoded envelope shares no bytes with the frame.
func TestEnvelopeRoundTrip(t *testing.T) {
	reg := envelopeRegistry(t)
	big := bytes.Repeat([]byte("x"), 70000)
	tests := []struct {
		name string
		m    envelope
	}{
		{"tell", envelope{ID: "42", Msg: "hello", Hops: 1, Path: []string{"a"}, Epochs: []uint64{7 << epochBits}}},
		{"ask", envelope{ID: "cart-7", Msg: int64(-3), Hops: 2, From: "a", AskID: 1<<63 + 5, Path: []string{"a", "b"}, Epochs: []uint64{1, 1<<63 + 2}}},
		{"flush marker", envelope{ID: "x", Hops: 1, Flush: true, From: "a", AskID: 9, Path: []string{"a"}}},
		{"empty id, no path", envelope{Msg: []byte{1, 2, 3}}},
		{"message of 200 bytes", envelope{ID: "m", Msg: strings.Repeat("y", 200), Hops: 1, Path: []string{"a"}}},
		{"message of 70000 bytes", envelope{ID: "m", Msg: big, Hops: 1, Path: []string{"a"}}},
		{"longest path", envelope{ID: "p", Msg: true, Hops: maxHops, Path: strings.Split("a b c d e f g h i", " ")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name, data, err := reg.Marshal([]byte("prefix"), tt.m)
			if err != nil || name != envelopeName {
				t.Fatalf("Marshal: %q, %v", name, err)
			}
			if !bytes.HasPrefix(data, []byte("prefix")) {
				t.Fatalf("Marshal did not append to the buffer: %q", data[:6])
			}
			frame := bytes.Clone(data[len("prefix"):])
			v, err := reg.Unmarshal(envelopeName, frame)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(v, tt.m) {
				t.Fatalf("got %+v, want %+v", v, tt.m)
			}
			clear(frame) // the frame is reused: the envelope must not change
			if !reflect.DeepEqual(v, tt.m) {
				t.Fatalf("after the frame was overwritten: got %+v, want %+v", v, tt.m)
			}
		})
	}
}

// TestEnvelopeEarlierLayout: an envelope as nodes before this version
// encoded it (the message's type name before its encoding) decodes alike.
func TestEnvelopeEarlierLayout(t *testing.T) {
	reg := envelopeRegistry(t)
	name, body, err := reg.Marshal(nil, "hello")
	if err != nil {
		t.Fatal(err)
	}
	e := wire.NewEncoder(nil)
	e.String(1, "42")
	e.String(2, name)
	e.BytesField(3, body)
	e.Int(4, 1)
	e.String(5, "a")
	e.Uint(6, 7)
	e.String(8, "a")
	v, err := reg.Unmarshal(envelopeName, e.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	want := envelope{ID: "42", Msg: "hello", Hops: 1, From: "a", AskID: 7, Path: []string{"a"}}
	if !reflect.DeepEqual(v, want) {
		t.Fatalf("got %+v, want %+v", v, want)
	}
}

// TestEnvelopeMalformed: bad input is an error wrapping
// wire.ErrMalformed or wire.ErrUnknownType, never a panic or a value.
func TestEnvelopeMalformed(t *testing.T) {
	reg := envelopeRegistry(t)
	long := wire.NewEncoder(nil)
	for range maxPath + 1 {
		long.String(8, "a")
	}
	unknown := wire.NewEncoder(nil)
	unknown.String(2, "no.such.Type")
	unknown.BytesField(3, []byte{8, 1})
	tests := []struct {
		name string
		data []byte
		want error
	}{
		{"truncated", []byte{0x0a, 5, 'a'}, wire.ErrMalformed},
		{"bad key", []byte{0x07}, wire.ErrMalformed},
		{"path too long", long.Bytes(), wire.ErrMalformed},
		{"unknown type", unknown.Bytes(), wire.ErrUnknownType},
		{"body without a type", []byte{0x1a, 1, 0}, wire.ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if v, err := reg.Unmarshal(envelopeName, tt.data); !errors.Is(err, tt.want) {
				t.Fatalf("got %v, %v; want an error wrapping %v", v, err, tt.want)
			}
		})
	}
}

// TestEnvelopeMarshalAllocs: encoding a tell into a buffer with room
// allocates nothing: the message is encoded in place.
func TestEnvelopeMarshalAllocs(t *testing.T) {
	reg := envelopeRegistry(t)
	var v any = envelope{ID: "x", Msg: any(make([]byte, 64)), Hops: 1, Path: []string{"a"}}
	buf := make([]byte, 0, 512)
	if n := testing.AllocsPerRun(100, func() { _, _, _ = reg.Marshal(buf[:0], v) }); n != 0 {
		t.Fatalf("%v allocations per envelope, want 0", n)
	}
}

func FuzzEnvelope(f *testing.F) {
	reg := envelopeRegistry(f)
	for _, m := range []envelope{
		{ID: "42", Msg: "hello", Hops: 1, Path: []string{"a"}},
		{ID: "x", Hops: 2, Flush: true, From: "a", AskID: 3, Path: []string{"a", "b"}},
	} {
		_, data, _ := reg.Marshal(nil, m)
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := reg.Unmarshal(envelopeName, data)
		if err != nil {
			return
		}
		// What decodes encodes again, and that decodes to what encodes
		// the same (empty strings in a path are left out).
		_, again, err := reg.Marshal(nil, v)
		if err != nil {
			t.Fatal(err)
		}
		w, err := reg.Unmarshal(envelopeName, again)
		if err != nil {
			t.Fatalf("re-decoding %+v: %v", v, err)
		}
		if _, third, _ := reg.Marshal(nil, w); !bytes.Equal(third, again) {
			t.Fatalf("%+v encodes as %x, then %x", v, again, third)
		}
	})
}

// TestEnvelopeConcurrentDecode: goroutines decoding at once (one with
// the codec's memory of the last envelope, the others without) each get
// their own envelope, whole.
func TestEnvelopeConcurrentDecode(t *testing.T) {
	reg := envelopeRegistry(t)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 500 {
				want := envelope{ID: fmt.Sprint("e", g, "-", i%3), Msg: []byte{byte(g), byte(i)}, Hops: 1 + i%2,
					From: fmt.Sprint("n", g), AskID: uint64(i), Path: []string{fmt.Sprint("n", g), "x"}[:1+i%2]}
				_, data, err := reg.Marshal(nil, want)
				if err != nil {
					t.Error(err)
					return
				}
				got, err := reg.Unmarshal(envelopeName, data)
				if err != nil || !reflect.DeepEqual(got, want) {
					t.Errorf("goroutine %d: got %+v, %v; want %+v", g, got, err, want)
					return
				}
			}
		}()
	}
	wg.Wait()
}
