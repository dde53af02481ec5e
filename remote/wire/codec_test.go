package wire_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/troupe-go/troupe/remote/wire"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// sample is the codec benchmark's struct, with a hand-written codec of
// the shape the generator emits.
type sample struct {
	N    int64   `wire:"1"`
	Name string  `wire:"2"`
	F    float64 `wire:"3"`
	OK   bool    `wire:"4"`
	Data []byte  `wire:"5"`
}

func (m sample) MarshalWire(e *wire.Encoder) {
	e.Int(1, m.N)
	e.String(2, m.Name)
	e.Float64(3, m.F)
	e.Bool(4, m.OK)
	e.BytesField(5, m.Data)
}

func (m *sample) UnmarshalWire(d *wire.Decoder) error {
	var own wire.Owned
	var raw2, raw5 []byte
	for d.Next() {
		switch d.Field() {
		case 1:
			m.N = d.Int()
		case 2:
			raw2 = own.Add(d.Bytes())
		case 3:
			m.F = d.Float64()
		case 4:
			m.OK = d.Bool()
		case 5:
			raw5 = own.Add(d.Bytes())
		default:
			d.Skip()
		}
	}
	if err := d.Err(); err != nil {
		return err
	}
	if raw2 != nil {
		m.Name = own.String(raw2)
	}
	if raw5 != nil {
		m.Data = own.Bytes(raw5)
	}
	return nil
}

// sampleV2 is sample after a schema change: field 2 removed, field 6 and
// a nested message (7) added.
type sampleV2 struct {
	N     int64
	F     float64
	OK    bool
	Data  []byte
	Extra uint64
	Inner sample
}

func (m sampleV2) MarshalWire(e *wire.Encoder) {
	e.Int(1, m.N)
	e.Float64(3, m.F)
	e.Bool(4, m.OK)
	e.BytesField(5, m.Data)
	e.Uint(6, m.Extra)
	e.Message(7, false, m.Inner.MarshalWire)
}

func (m *sampleV2) UnmarshalWire(d *wire.Decoder) error {
	var sub wire.Decoder
	for d.Next() {
		switch d.Field() {
		case 1:
			m.N = d.Int()
		case 3:
			m.F = d.Float64()
		case 6:
			m.Extra = d.Uint()
		case 7:
			d.Message(&sub)
			if err := m.Inner.UnmarshalWire(&sub); err != nil {
				return err
			}
		default:
			d.Skip()
		}
	}
	return d.Err()
}

// plain has no binary codec: it travels as CBOR.
type plain struct {
	A string
	B []int
	C map[string]float64
}

func newRegistry(t testing.TB) *wire.Registry {
	t.Helper()
	r := wire.NewRegistry()
	for _, err := range []error{
		wire.Register[sample](r, "test.sample"),
		wire.Register[sampleV2](r, "test.sampleV2"),
		wire.Register[plain](r, "test.plain"),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return r
}

func TestRoundTrip(t *testing.T) {
	r := newRegistry(t)
	big := bytes.Repeat([]byte{0xab}, 300) // a length needing a two-byte varint
	tests := []struct {
		name string
		v    any
		typ  string
	}{
		{"sample", sample{N: -42, Name: "sixteen-byte-str", F: 3.25, OK: true, Data: bytes.Repeat([]byte{7}, 32)}, "test.sample"},
		{"zero sample", sample{}, "test.sample"},
		{"extremes", sample{N: -1 << 63, F: -0.5, Data: big}, "test.sample"},
		{"nested", sampleV2{N: 1, Extra: 1 << 40, Inner: sample{Name: string(big)}}, "test.sampleV2"},
		{"cbor", plain{A: "x", B: []int{1, -2}, C: map[string]float64{"pi": 3.14}}, "test.plain"},
		{"string", "héllo", "string"},
		{"int", -7, "int"},
		{"int64", int64(1 << 62), "int64"},
		{"uint64", uint64(1<<64 - 1), "uint64"},
		{"float64", 2.5, "float64"},
		{"bool", true, "bool"},
		{"bytes", []byte{0, 1, 2}, "bytes"},
		{"unit", struct{}{}, "unit"},
		{"nil", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name, b, err := r.Marshal(nil, tt.v)
			if err != nil || name != tt.typ {
				t.Fatalf("Marshal = %q, %v; want %q", name, err, tt.typ)
			}
			got, err := r.Unmarshal(name, b)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.v) {
				t.Fatalf("round trip = %#v, want %#v", got, tt.v)
			}
		})
	}
}

func TestSchemaEvolution(t *testing.T) {
	r := newRegistry(t)
	_, newer, _ := r.Marshal(nil, sampleV2{N: 5, F: 1.5, OK: true, Extra: 9, Inner: sample{Name: "in"}})
	old, err := r.Unmarshal("test.sample", newer)
	if err != nil {
		t.Fatalf("old reader of new data: %v", err)
	}
	if want := (sample{N: 5, F: 1.5, OK: true}); !reflect.DeepEqual(old, want) {
		t.Fatalf("old reader got %#v, want %#v (unknown fields skipped)", old, want)
	}
	_, older, _ := r.Marshal(nil, sample{N: 3, Name: "gone", F: 2})
	v2, err := r.Unmarshal("test.sampleV2", older)
	if err != nil {
		t.Fatalf("new reader of old data: %v", err)
	}
	if want := (sampleV2{N: 3, F: 2}); !reflect.DeepEqual(v2, want) {
		t.Fatalf("new reader got %#v, want %#v", v2, want)
	}
}

func TestRegistryErrors(t *testing.T) {
	r := newRegistry(t)
	if err := wire.Register[sample](r, "other"); !errors.Is(err, wire.ErrDuplicate) {
		t.Errorf("type registered twice: %v, want ErrDuplicate", err)
	}
	type fresh struct{}
	if err := wire.Register[fresh](r, "test.sample"); !errors.Is(err, wire.ErrDuplicate) {
		t.Errorf("name registered twice: %v, want ErrDuplicate", err)
	}
	if err := wire.Register[fresh](r, ""); err == nil {
		t.Error("empty name accepted")
	}
	if _, _, err := r.Marshal(nil, fresh{}); !errors.Is(err, wire.ErrUnknownType) {
		t.Errorf("Marshal of an unregistered type: %v, want ErrUnknownType", err)
	}
	if _, err := r.Unmarshal("nope", nil); !errors.Is(err, wire.ErrUnknownType) {
		t.Errorf("Unmarshal of an unknown name: %v, want ErrUnknownType", err)
	}
	if _, err := r.Unmarshal("", []byte{1}); !errors.Is(err, wire.ErrMalformed) {
		t.Errorf("body without a type: %v, want ErrMalformed", err)
	}
}

func TestMalformedMessages(t *testing.T) {
	r := newRegistry(t)
	tests := []struct {
		name string
		typ  string
		data []byte
	}{
		{"truncated varint", "test.sample", []byte{0x08, 0x80}},
		{"field zero", "test.sample", []byte{0x00, 0x01}},
		{"bad wire type", "test.sample", []byte{0x0f, 0x01}},
		{"wrong wire type for field", "test.sample", []byte{0x0a, 0x01, 0x00}},
		{"length past end", "test.sample", []byte{0x12, 0x05, 'a'}},
		{"truncated fixed64", "test.sample", []byte{0x19, 1, 2, 3}},
		{"bad nested", "test.sampleV2", []byte{0x3a, 0x02, 0x08, 0x80}},
		{"cbor garbage", "test.plain", []byte{0xff, 0xff}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := r.Unmarshal(tt.typ, tt.data); !errors.Is(err, wire.ErrMalformed) {
				t.Fatalf("Unmarshal = %v, want ErrMalformed", err)
			}
		})
	}
}

func FuzzUnmarshal(f *testing.F) {
	r := newRegistry(f)
	for _, v := range []any{sample{N: 1, Name: "x", Data: []byte{1}}, sampleV2{Inner: sample{OK: true}}, plain{A: "a"}} {
		_, b, _ := r.Marshal(nil, v)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, name := range []string{"test.sample", "test.sampleV2", "test.plain", "string", "int"} {
			v, err := r.Unmarshal(name, data)
			if err != nil {
				continue
			}
			// What decodes must encode and decode to the same value.
			n, b, err := r.Marshal(nil, v)
			if err != nil {
				t.Fatalf("%s: re-marshal: %v", name, err)
			}
			again, err := r.Unmarshal(n, b)
			if err != nil {
				t.Fatalf("%s: decode of re-encoded %#v: %v", name, v, err)
			}
			// Compare encodings, not values: NaN != NaN.
			if _, b2, _ := r.Marshal(nil, again); name != "test.plain" && !bytes.Equal(b, b2) {
				t.Fatalf("%s: %#v re-encoded as %x, then %x", name, v, b, b2)
			}
		}
	})
}

// BenchmarkCodec is the remote bench suite's codec row: marshal and
// unmarshal through a registry, with the codec registered through the
// interfaces (Register) and as generated code does it (RegisterFuncs).
func BenchmarkCodec(b *testing.B) {
	funcs := wire.NewRegistry()
	if err := wire.RegisterFuncs(funcs, "test.sample", appendSample, decodeSample); err != nil {
		b.Fatal(err)
	}
	for _, r := range []struct {
		name string
		reg  *wire.Registry
	}{{"Register", newRegistry(b)}, {"RegisterFuncs", funcs}} {
		b.Run(r.name, func(b *testing.B) {
			v := sample{N: 123456789, Name: "sixteen-byte-str", F: 3.25, OK: true, Data: bytes.Repeat([]byte{7}, 32)}
			buf := make([]byte, 0, 128)
			b.ReportAllocs()
			for b.Loop() {
				name, out, err := r.reg.Marshal(buf[:0], v)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := r.reg.Unmarshal(name, out); err != nil {
					b.Fatal(err)
				}
				buf = out
			}
		})
	}
}

// TestCodecGolden pins the encoding of messages, builtins and CBOR
// fallbacks: a change here breaks nodes of other versions.
func TestCodecGolden(t *testing.T) {
	r := newRegistry(t)
	values := []any{
		sample{N: -42, Name: "sixteen-byte-str", F: 3.25, OK: true, Data: []byte{1, 2, 3}},
		sampleV2{N: 1, Extra: 300, Inner: sample{Name: "in"}},
		plain{A: "x", B: []int{1, -2}},
		"héllo", -7, int64(1 << 40), uint64(5), 2.5, true, []byte{9}, struct{}{},
	}
	var got strings.Builder
	for _, v := range values {
		name, b, err := r.Marshal(nil, v)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&got, "%-14s %x\n", name, b)
	}
	path := filepath.Join("testdata", "codec.golden")
	if *update {
		if err := os.WriteFile(path, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.String() != string(want) {
		t.Fatalf("encodings changed (run with -update if intended):\n%s", got.String())
	}
}
