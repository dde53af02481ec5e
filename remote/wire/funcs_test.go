package wire_test

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/troupe-go/troupe/remote/wire"
)

// appendSample and decodeSample are sample's codec in the form generated
// registration functions pass to wire.RegisterFuncs.
func appendSample(buf []byte, m sample) []byte {
	e := wire.NewEncoder(buf)
	m.MarshalWire(e)
	return e.Bytes()
}

func decodeSample(data []byte) (m sample, err error) {
	err = m.UnmarshalWire(wire.NewDecoder(data))
	return
}

// Point is a message with a binary codec, registered as generated code
// does it.
type Point struct{ X, Y int64 }

// MarshalWire implements wire.Marshaler.
func (p Point) MarshalWire(e *wire.Encoder) { e.Int(1, p.X); e.Int(2, p.Y) }

// UnmarshalWire implements wire.Unmarshaler.
func (p *Point) UnmarshalWire(d *wire.Decoder) error {
	for d.Next() {
		switch d.Field() {
		case 1:
			p.X = d.Int()
		case 2:
			p.Y = d.Int()
		default:
			d.Skip()
		}
	}
	return d.Err()
}

func ExampleRegisterFuncs() {
	r := wire.NewRegistry()
	err := wire.RegisterFuncs(r, "example.Point",
		func(buf []byte, p Point) []byte {
			e := wire.NewEncoder(buf)
			p.MarshalWire(e)
			return e.Bytes()
		},
		func(data []byte) (p Point, err error) {
			err = p.UnmarshalWire(wire.NewDecoder(data))
			return
		})
	if err != nil {
		panic(err)
	}
	name, body, _ := r.Marshal(nil, Point{X: 3, Y: -1})
	v, err := r.Unmarshal(name, body)
	fmt.Printf("%s %x %v %v\n", name, body, v, err)
	// Output: example.Point 08061001 {3 -1} <nil>
}

func TestRegisterFuncs(t *testing.T) {
	r := wire.NewRegistry()
	if err := wire.RegisterFuncs(r, "test.sample", appendSample, decodeSample); err != nil {
		t.Fatal(err)
	}
	v := sample{N: -42, Name: "sixteen-byte-str", F: 3.25, OK: true, Data: []byte{1, 2, 3}}
	name, body, err := r.Marshal(nil, v)
	if err != nil || name != "test.sample" {
		t.Fatalf("Marshal: %q, %v", name, err)
	}
	// The functions must produce the bytes Register's interface path does.
	ref := newRegistry(t)
	if _, want, _ := ref.Marshal(nil, v); !bytes.Equal(body, want) {
		t.Fatalf("RegisterFuncs encodes %x, Register %x", body, want)
	}
	got, err := r.Unmarshal(name, body)
	if err != nil || !reflect.DeepEqual(got, v) {
		t.Fatalf("Unmarshal: %#v, %v", got, err)
	}
	// A decode error comes back wrapped, and no value with it.
	got, err = r.Unmarshal(name, []byte{0x0a, 0x05, 'x'})
	if !errors.Is(err, wire.ErrMalformed) || got != nil {
		t.Fatalf("truncated body: %#v, %v; want nil and ErrMalformed", got, err)
	}
}

func TestRegisterFuncsRefused(t *testing.T) {
	tests := []struct {
		name string
		reg  func(r *wire.Registry) error
		want error
	}{
		{"nil marshal", func(r *wire.Registry) error {
			return wire.RegisterFuncs(r, "x", nil, decodeSample)
		}, nil},
		{"nil unmarshal", func(r *wire.Registry) error {
			return wire.RegisterFuncs(r, "x", appendSample, nil)
		}, nil},
		{"empty name", func(r *wire.Registry) error {
			return wire.RegisterFuncs(r, "", appendSample, decodeSample)
		}, nil},
		{"type taken", func(r *wire.Registry) error {
			_ = wire.Register[sample](r, "a")
			return wire.RegisterFuncs(r, "b", appendSample, decodeSample)
		}, wire.ErrDuplicate},
		{"name taken", func(r *wire.Registry) error {
			return wire.RegisterFuncs(r, "string", appendSample, decodeSample)
		}, wire.ErrDuplicate},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := wire.NewRegistry()
			err := tt.reg(r)
			if err == nil || (tt.want != nil && !errors.Is(err, tt.want)) {
				t.Fatalf("got %v, want an error wrapping %v", err, tt.want)
			}
			// A refused registration leaves the registry as it was.
			if _, ok := r.Name(sample{}); ok && tt.name != "type taken" {
				t.Fatalf("sample registered after a refused registration")
			}
		})
	}
}

// TestRegistryConcurrent registers types while other goroutines encode and
// decode: lookups take no lock, so run it under -race.
func TestRegistryConcurrent(t *testing.T) {
	r := newRegistry(t)
	v := sample{N: 7, Name: "x"}
	done := make(chan struct{})
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			for {
				select {
				case <-done:
					errs <- nil
					return
				default:
				}
				name, b, err := r.Marshal(nil, v)
				if err == nil {
					_, err = r.Unmarshal(name, b)
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	type t1 struct{ A int }
	type t2 struct{ A int }
	type t3 struct{ A int }
	for i, reg := range []func() error{
		func() error { return wire.Register[t1](r, "c.t1") },
		func() error { return wire.Register[t2](r, "c.t2") },
		func() error { return wire.Register[t3](r, "c.t3") },
	} {
		if err := reg(); err != nil {
			t.Fatalf("register %d: %v", i, err)
		}
	}
	close(done)
	for range 4 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	for _, v := range []any{t1{1}, t2{2}, t3{3}} {
		name, b, err := r.Marshal(nil, v)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := r.Unmarshal(name, b); err != nil || got != v {
			t.Fatalf("%T: %#v, %v", v, got, err)
		}
	}
}

// TestCodecPanicIsAnError: a codec that panics, on bytes from the network
// or on a value, gives an error instead of crashing its caller.
func TestCodecPanicIsAnError(t *testing.T) {
	r := wire.NewRegistry()
	err := wire.RegisterFuncs(r, "test.panicky",
		func(buf []byte, p Point) []byte {
			if p.X < 0 {
				panic("negative")
			}
			return appendPoint(buf, p)
		},
		func(data []byte) (Point, error) {
			var p Point
			err := p.UnmarshalWire(wire.NewDecoder(data))
			if p.X == 13 {
				var m map[string]int
				m["unlucky"]++ // a nil-map panic, as a buggy codec would
			}
			return p, err
		})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.Marshal(nil, Point{X: -1}); err == nil || !strings.Contains(err.Error(), "panicked") {
		t.Fatalf("Marshal of a panicking codec = %v", err)
	}
	name, body, err := r.Marshal(nil, Point{X: 13})
	if err != nil {
		t.Fatal(err)
	}
	if v, err := r.Unmarshal(name, body); !errors.Is(err, wire.ErrMalformed) || v != nil {
		t.Fatalf("Unmarshal of a panicking codec = %v, %v; want ErrMalformed", v, err)
	}
}

func appendPoint(buf []byte, p Point) []byte {
	e := wire.NewEncoder(buf)
	p.MarshalWire(e)
	return e.Bytes()
}

// TestRegisterCBORRefusesLoss: CBOR carries exported fields only, so a
// type it would not carry whole is refused at registration, not found
// out when a message arrives with zeroed fields.
func TestRegisterCBORRefusesLoss(t *testing.T) {
	type hidden struct{ a int }
	type inner struct{ B int }
	type embedsUnexported struct {
		inner  // promoted: fine
		Public string
	}
	type withFunc struct{ F func() }
	type nested struct{ In []map[string]hidden }
	type skipped struct {
		A int
		b int `cbor:"-"`
	}
	type withTime struct{ At time.Time } // encodes itself
	tests := []struct {
		name string
		reg  func(*wire.Registry) error
		ok   bool
	}{
		{"unexported field", func(r *wire.Registry) error { return wire.RegisterCBOR[hidden](r, "t") }, false},
		{"func field", func(r *wire.Registry) error { return wire.RegisterCBOR[withFunc](r, "t") }, false},
		{"nested unexported", func(r *wire.Registry) error { return wire.RegisterCBOR[nested](r, "t") }, false},
		{"through Register", func(r *wire.Registry) error { return wire.Register[hidden](r, "t") }, false},
		{"embedded struct", func(r *wire.Registry) error { return wire.RegisterCBOR[embedsUnexported](r, "t") }, true},
		{"skipped by tag", func(r *wire.Registry) error { return wire.RegisterCBOR[skipped](r, "t") }, true},
		{"self-encoding field", func(r *wire.Registry) error { return wire.RegisterCBOR[withTime](r, "t") }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.reg(wire.NewRegistry())
			if tt.ok != (err == nil) || (err != nil && !errors.Is(err, wire.ErrUnsupported)) {
				t.Fatalf("got %v, want ok=%v (or ErrUnsupported)", err, tt.ok)
			}
		})
	}
}

// TestDecoding: a Decoding gives what Registry.Unmarshal gives, whatever
// the order of types, names and registries it sees.
func TestDecoding(t *testing.T) {
	r1, r2 := newRegistry(t), wire.NewRegistry()
	if err := wire.RegisterFuncs(r2, "test.sample", appendSample, decodeSample); err != nil {
		t.Fatal(err)
	}
	var d wire.Decoding
	long := bytes.Repeat([]byte{7}, 600) // past the slab's limit
	for i, v := range []any{"a", "b", int64(3), "c", sample{N: 1, Name: "x"}, sample{N: 2}, nil, true,
		[]byte{1, 2, 3}, []byte{4}, long, []byte{}, []byte{5, 6}} {
		for _, r := range []*wire.Registry{r1, r2} {
			name, body, err := r.Marshal(nil, v)
			if err != nil {
				t.Fatal(err)
			}
			want, werr := r.Unmarshal(name, body)
			got, gerr := d.Unmarshal(r, name, body)
			if !reflect.DeepEqual(got, want) || (gerr == nil) != (werr == nil) {
				t.Fatalf("%d %#v: Decoding gave %#v, %v; Registry %#v, %v", i, v, got, gerr, want, werr)
			}
		}
	}
	// Small []byte messages share a slab, but appending to one never
	// writes over the next.
	_, b1, _ := r1.Marshal(nil, []byte{1, 1})
	_, b2, _ := r1.Marshal(nil, []byte{2, 2})
	v1, _ := d.Unmarshal(r1, "bytes", b1)
	v2, _ := d.Unmarshal(r1, "bytes", b2)
	_ = append(v1.([]byte), 9, 9, 9)
	if !bytes.Equal(v2.([]byte), []byte{2, 2}) {
		t.Fatalf("appending to one message changed the next: %v", v2)
	}
	// A malformed []byte body fails as the codec says.
	if _, err := d.Unmarshal(r1, "bytes", []byte{0x0a, 0x05, 1}); !errors.Is(err, wire.ErrMalformed) {
		t.Fatalf("truncated bytes body: %v", err)
	}
	if _, err := d.Unmarshal(r1, "no.such.type", nil); !errors.Is(err, wire.ErrUnknownType) {
		t.Fatalf("unknown type: %v", err)
	}
	if _, err := d.Unmarshal(r1, "", []byte{1}); !errors.Is(err, wire.ErrMalformed) {
		t.Fatalf("body without a name: %v", err)
	}
}
