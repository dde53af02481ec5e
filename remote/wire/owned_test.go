package wire_test

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"

	"github.com/troupe-go/troupe/remote/wire"
)

// TestOwnedCopiesOut: strings and byte slices decoded through an Owned
// do not alias the input, a byte slice cannot grow over its neighbour,
// a failed decode leaves them as they were, and more fields than Owned
// gathers still decode.
func TestOwnedCopiesOut(t *testing.T) {
	want := sample{N: 7, Name: "sixteen-byte-str", F: 1.5, OK: true, Data: bytes.Repeat([]byte{9}, 32)}
	in := appendSample(nil, want)
	got, err := decodeSample(in)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("decode: %#v, %v", got, err)
	}
	clear(in) // the frame is reused: the message must not change
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("decoded message aliases its input: %#v", got)
	}
	got.Data = append(got.Data, 1, 2, 3)
	if got.Name != want.Name {
		t.Fatalf("appending to Data wrote over Name: %q", got.Name)
	}

	tests := []struct {
		name string
		in   []byte
		want sample
		err  error
	}{
		{"empty fields", appendSample(nil, sample{N: 1}), sample{N: 1}, nil},
		{"field read twice keeps the last", append(appendSample(nil, sample{Name: "a"}), 0x12, 1, 'b'), sample{Name: "b"}, nil},
		{"truncated: fields untouched", []byte{0x12, 2, 'h', 'i', 0x2a, 9, 'x'}, sample{Name: "old", Data: []byte("old")}, wire.ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := sample{Name: "old", Data: []byte("old")}
			if tt.err == nil {
				m = sample{}
			}
			err := m.UnmarshalWire(wire.NewDecoder(tt.in))
			if !errors.Is(err, tt.err) || !reflect.DeepEqual(m, tt.want) {
				t.Fatalf("got %#v, %v; want %#v, %v", m, err, tt.want, tt.err)
			}
		})
	}

	// A view not counted by Add still comes out as its own copy.
	var own wire.Owned
	src := []byte("abcdef")
	x := own.String(own.Add(src[:2]))
	y := own.Bytes(src[2:])
	clear(src)
	if x != "ab" || string(y) != "cdef" {
		t.Fatalf("uncounted view: %q, %q", x, y)
	}
}

// TestDecodedBoxesAreDistinct: decoded values boxed from shared slabs,
// from many goroutines at once, each hold their own value.
func TestDecodedBoxesAreDistinct(t *testing.T) {
	r := wire.NewRegistry()
	if err := wire.RegisterFuncs(r, "test.sample", appendSample, decodeSample); err != nil {
		t.Fatal(err)
	}
	const workers, each = 4, 500
	var wg sync.WaitGroup
	got := make([][]any, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				name, b, err := r.Marshal(nil, sample{N: int64(w*each + i), Name: fmt.Sprint(i)})
				if err != nil {
					t.Error(err)
					return
				}
				v, err := r.Unmarshal(name, b)
				if err != nil {
					t.Error(err)
					return
				}
				got[w] = append(got[w], v)
			}
		}()
	}
	wg.Wait()
	for w := range workers {
		for i, v := range got[w] {
			if want := (sample{N: int64(w*each + i), Name: fmt.Sprint(i)}); !reflect.DeepEqual(v, want) {
				t.Fatalf("worker %d value %d = %#v, want %#v", w, i, v, want)
			}
		}
	}
}
