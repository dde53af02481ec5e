package wire_test

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/jsactor/jsvalue"
	"github.com/troupe-go/troupe/remote/wire"
)

// call has the shape of jsactor.Call, which RegisterJS is for.
type call struct {
	Method string
	Args   []any
	hidden int
}

func ExampleRegisterJS() {
	reg := wire.NewRegistry()
	if err := wire.RegisterJS[call](reg, "example.Call"); err != nil {
		panic(err)
	}
	name, body, err := reg.Marshal(nil, call{Method: "order", Args: []any{"apples", 3, map[string]any{"rush": true}}})
	if err != nil {
		panic(err)
	}
	v, err := reg.Unmarshal(name, body)
	if err != nil {
		panic(err)
	}
	c := v.(call)
	fmt.Printf("%s %s %T %v\n", name, c.Method, c.Args[1], c.Args)
	// Output: example.Call order int64 [apples 3 map[rush:true]]
}

// roundTrip marshals v with a fresh registry and unmarshals it.
func roundTrip(t *testing.T, reg *wire.Registry, v any) (string, any) {
	t.Helper()
	name, body, err := reg.Marshal(nil, v)
	if err != nil {
		t.Fatalf("marshal %T: %v", v, err)
	}
	got, err := reg.Unmarshal(name, body)
	if err != nil {
		t.Fatalf("unmarshal %s: %v", name, err)
	}
	return name, got
}

// floats and buffer are named slices, as jsactor's Float64Array and
// ArrayBuffer are.
type (
	floats []float64
	buffer []byte
)

// huge is a BigInt beyond 64 bits.
var huge, _ = new(big.Int).SetString("123456789012345678901234567890", 10)

func TestJSValuesRoundTrip(t *testing.T) {
	when := time.Date(2026, 11, 23, 1, 2, 3, 456_000_000, time.UTC)
	ref := actor.NewRef("n1", "shop", "a/b c")
	tests := []struct {
		name     string
		in, want any
		typeName string
	}{
		{"object", map[string]any{"s": "x", "n": int64(-3), "f": 1.5, "b": true, "z": nil},
			map[string]any{"s": "x", "n": int64(-3), "f": 1.5, "b": true, "z": nil}, "js.object"},
		{"array", []any{"a", int64(1), 2.5, false, nil}, []any{"a", int64(1), 2.5, false, nil}, "js.array"},
		{"empty array", []any{}, []any{}, "js.array"},
		{"nil array", []any(nil), []any{}, "js.array"},
		{"empty object", map[string]any{}, map[string]any{}, "js.object"},
		{"Go ints become int64", map[string]any{"i": 7, "u8": uint8(8), "i32": int32(-9)},
			map[string]any{"i": int64(7), "u8": int64(8), "i32": int64(-9)}, "js.object"},
		{"big unsigned stays uint64", []any{uint64(math.MaxUint64), uint64(math.MaxInt64)},
			[]any{uint64(math.MaxUint64), int64(math.MaxInt64)}, "js.array"},
		{"min int64", []any{int64(math.MinInt64)}, []any{int64(math.MinInt64)}, "js.array"},
		{"float32 widens", []any{float32(0.5)}, []any{0.5}, "js.array"},
		{"negative zero stays float", []any{math.Copysign(0, -1)}, []any{math.Copysign(0, -1)}, "js.array"},
		{"infinities", []any{math.Inf(1), math.Inf(-1)}, []any{math.Inf(1), math.Inf(-1)}, "js.array"},
		{"bytes nested", map[string]any{"raw": []byte{0, 1, 255}}, map[string]any{"raw": []byte{0, 1, 255}}, "js.object"},
		{"date", when, when, "js.date"},
		{"date nested", []any{when}, []any{when}, "js.array"},
		{"zero date", time.Time{}, time.Time{}, "js.date"},
		{"ref", ref, ref, "js.ref"},
		{"child ref", ref.Child("line", "x/1"), ref.Child("line", "x/1"), "js.ref"},
		{"child ref nested", []any{ref.Child("a", "b").Child("c", "d")}, []any{ref.Child("a", "b").Child("c", "d")}, "js.array"},
		{"child ref, odd system", actor.NewRef("n/1%", "k", "i").Child("c\n", "%d"), actor.NewRef("n/1%", "k", "i").Child("c\n", "%d"), "js.ref"},
		{"ref nested", map[string]any{"replyTo": ref}, map[string]any{"replyTo": ref}, "js.object"},
		{"zero ref nested", []any{actor.Ref{}}, []any{actor.Ref{}}, "js.array"},
		{"int8array", []int8{-128, 0, 127}, []int8{-128, 0, 127}, "js.int8array"},
		{"int16array", []int16{-32768, 1, 32767}, []int16{-32768, 1, 32767}, "js.int16array"},
		{"int32array", []int32{math.MinInt32, 2, math.MaxInt32}, []int32{math.MinInt32, 2, math.MaxInt32}, "js.int32array"},
		{"bigint64array", []int64{math.MinInt64, 3}, []int64{math.MinInt64, 3}, "js.bigint64array"},
		{"uint16array", []uint16{0, 65535}, []uint16{0, 65535}, "js.uint16array"},
		{"uint32array", []uint32{0, math.MaxUint32}, []uint32{0, math.MaxUint32}, "js.uint32array"},
		{"biguint64array", []uint64{math.MaxUint64}, []uint64{math.MaxUint64}, "js.biguint64array"},
		{"float32array", []float32{1.25, -0.5}, []float32{1.25, -0.5}, "js.float32array"},
		{"float64array", []float64{math.Pi, -1e300}, []float64{math.Pi, -1e300}, "js.float64array"},
		{"typed array nested", map[string]any{"v": []float32{2}}, map[string]any{"v": []float32{2}}, "js.object"},
		{"other slices and maps", map[string]any{"tags": []string{"a", "b"}, "counts": map[string]int{"x": 1}},
			map[string]any{"tags": []any{"a", "b"}, "counts": map[string]any{"x": int64(1)}}, "js.object"},
		{"named string kind", []any{time.Month(0).String(), kind("k")}, []any{"%!Month(0)", "k"}, "js.array"},
		{"nested deep", nest(29), nest(29), "js.array"},
		{"epoch date", []any{time.Unix(1700000000, 0)}, []any{time.Unix(1700000000, 0)}, "js.array"},
		{"invalid UTF-8 crosses as is", map[string]any{"k\xff": "v\xfe"}, map[string]any{"k\xff": "v\xfe"}, "js.object"},
		{"pointers", []any{new(int), (*string)(nil)}, []any{int64(0), nil}, "js.array"},
		{"BigInts", []any{big.NewInt(5), huge, new(big.Int).Neg(huge), (*big.Int)(nil)},
			[]any{big.NewInt(5), huge, new(big.Int).Neg(huge), nil}, "js.array"},
		{"other named slices travel as their plain slices", map[string]any{"f": floats{1.5}, "b": buffer{1, 2}},
			map[string]any{"f": []float64{1.5}, "b": []byte{1, 2}}, "js.object"},
		{"JS typed arrays keep their type", []any{jsvalue.Float64Array{math.Pi}, jsvalue.BigInt64Array{math.MinInt64},
			jsvalue.BigUint64Array{math.MaxUint64}, jsvalue.ArrayBuffer{0, 255}, jsvalue.ArrayBuffer{}},
			[]any{jsvalue.Float64Array{math.Pi}, jsvalue.BigInt64Array{math.MinInt64},
				jsvalue.BigUint64Array{math.MaxUint64}, jsvalue.ArrayBuffer{0, 255}, jsvalue.ArrayBuffer{}}, "js.array"},
		{"Float64Array alone", jsvalue.Float64Array{1, 2}, jsvalue.Float64Array{1, 2}, "js.Float64Array"},
		{"ArrayBuffer alone", jsvalue.ArrayBuffer{7}, jsvalue.ArrayBuffer{7}, "js.ArrayBuffer"},
	}
	reg := wire.NewRegistry()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name, got := roundTrip(t, reg, tt.in)
			if name != tt.typeName {
				t.Errorf("name %q, want %q", name, tt.typeName)
			}
			if !jsEqual(got, tt.want) {
				t.Errorf("got %#v, want %#v", got, tt.want)
			}
		})
	}
}

type kind string

// cyclicPtr returns a slice holding a pointer to itself.
func cyclicPtr() any {
	s := make([]any, 1)
	s[0] = &s
	return s
}

// nest returns n arrays nested in one another around a ref.
func nest(n int) any {
	var v any = actor.NewRef("s", "k", "i")
	for range n {
		v = []any{v}
	}
	return v
}

func TestJSValuesRejected(t *testing.T) {
	cyclic := map[string]any{}
	cyclic["self"] = cyclic
	loop := []any{nil}
	loop[0] = loop
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"cyclic object", cyclic, "nested deeper than"},
		{"cyclic array", loop, "nested deeper than"},
		{"too deep", nest(31), "nested deeper than"},
		{"channel", map[string]any{"c": make(chan int)}, `"c": wire: not a JS value: chan int`},
		{"function", []any{1, func() {}}, "[1]: wire: not a JS value: func()"},
		{"struct", map[string]any{"s": struct{ A int }{1}}, "struct"},
		{"pointer to a struct", []any{&struct{ A int }{1}}, "struct { A int }"},
		{"cyclic pointer", cyclicPtr(), "nested deeper than"},
		{"complex", []any{complex(1, 2)}, "complex128"},
		{"non-string keys", map[string]any{"m": map[int]string{1: "a"}}, "keys are not strings"},
		{"error", []any{errors.New("boom")}, "*errors.errorString"},
		{"date past 9999", []any{time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}, "year 10000"},
	}
	reg := wire.NewRegistry()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := reg.Marshal(nil, tt.in)
			if !errors.Is(err, wire.ErrNotJSValue) {
				t.Fatalf("err %v, want ErrNotJSValue", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err %q, want it to mention %q", err, tt.want)
			}
		})
	}
}

func TestJSValuesTooLarge(t *testing.T) {
	reg := wire.NewRegistry()
	for _, v := range []any{make([]any, 1<<16+1), map[string]any{"a": make([]string, 1<<16+1)}} {
		if _, _, err := reg.Marshal(nil, v); !errors.Is(err, wire.ErrTooLarge) {
			t.Errorf("%T: err %v, want ErrTooLarge", v, err)
		}
	}
	// The largest array allowed crosses.
	if _, got := roundTrip(t, reg, make([]any, 1<<16)); len(got.([]any)) != 1<<16 {
		t.Errorf("got %d elements", len(got.([]any)))
	}
}

func TestJSValuesMalformed(t *testing.T) {
	tests := []struct {
		name, typeName string
		body           []byte
	}{
		{"empty", "js.object", nil},
		{"truncated", "js.object", []byte{0xa1, 0x61}},
		{"wrong top type", "js.object", []byte{0x80}},
		{"array for date", "js.date", []byte{0x80}},
		{"integer keys", "js.object", []byte{0xa1, 0x01, 0x02}},
		{"duplicate keys", "js.object", []byte{0xa2, 0x61, 'a', 0x01, 0x61, 'a', 0x02}},
		{"unknown tag", "js.array", []byte{0x81, 0xd8, 0x63, 0x01}},
		{"ref tag bad content", "js.ref", []byte{0xd8, 0x1b, 0x01}},
		{"ref tag wrong name", "js.ref", []byte{0xd8, 0x1b, 0x84, 0x61, 'x', 0x60, 0x60, 0x60}},
		{"typed tag unknown name", "js.array", []byte{0x81, 0xd8, 0x1b, 0x82, 0x61, 'x', 0x40}},
		{"typed tag not bytes", "js.array", []byte{0x81, 0xd8, 0x1b, 0x82, 0x6b, 'A', 'r', 'r', 'a', 'y', 'B', 'u', 'f', 'f', 'e', 'r', 0x01}},
		{"Float64Array odd length", "js.array", []byte{0x81, 0xd8, 0x1b, 0x82, 0x6c, 'F', 'l', 'o', 'a', 't', '6', '4', 'A', 'r', 'r', 'a', 'y', 0x43, 1, 2, 3}},
		{"typed array odd length", "js.uint16array", []byte{0xd8, 0x45, 0x43, 1, 2, 3}},
		{"typed array not bytes", "js.int8array", []byte{0xd8, 0x48, 0x01}},
		{"too deep", "js.array", []byte(strings.Repeat("\x81", 40) + "\x01")},
		{"huge array length", "js.array", []byte{0x9b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}},
		{"trailing bytes", "js.array", []byte{0x80, 0x80}},
		{"epoch date past 9999", "js.date", []byte{0xc1, 0x1b, 0, 0, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff}},
	}
	reg := wire.NewRegistry()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := reg.Unmarshal(tt.typeName, tt.body)
			if !errors.Is(err, wire.ErrMalformed) {
				t.Fatalf("got %#v, %v; want ErrMalformed", v, err)
			}
		})
	}
}

func TestRegisterJS(t *testing.T) {
	reg := wire.NewRegistry()
	if err := wire.RegisterJS[call](reg, "test.Call"); err != nil {
		t.Fatal(err)
	}
	ref := actor.NewRef("a", "b", "c")
	in := call{Method: "ping", Args: []any{ref, []int8{1}, 2.5}, hidden: 9}
	_, got := roundTrip(t, reg, in)
	want := call{Method: "ping", Args: []any{ref, []int8{1}, 2.5}}
	if !jsEqual(got.(call).Args, want.Args) || got.(call).Method != want.Method || got.(call).hidden != 0 {
		t.Fatalf("got %#v, want %#v", got, want)
	}

	errs := []struct {
		name string
		err  error
		is   error
	}{
		{"not a struct", wire.RegisterJS[[]string](reg, "test.strings"), wire.ErrNotJSValue},
		{"duplicate", wire.RegisterJS[call](reg, "test.Call2"), wire.ErrDuplicate},
	}
	for _, e := range errs {
		if !errors.Is(e.err, e.is) {
			t.Errorf("%s: err %v, want %v", e.name, e.err, e.is)
		}
	}
	if _, _, err := reg.Marshal(nil, call{Method: "x", Args: []any{make(chan int)}}); !errors.Is(err, wire.ErrNotJSValue) || !strings.Contains(err.Error(), "field Args") {
		t.Errorf("bad field: err %v", err)
	}
	// {"Method": 1}: a number does not fit a string field.
	if _, err := reg.Unmarshal("test.Call", []byte{0xa1, 0x66, 'M', 'e', 't', 'h', 'o', 'd', 0x01}); !errors.Is(err, wire.ErrMalformed) {
		t.Errorf("misfit field: err %v", err)
	}
	// An array is not a map of fields.
	if _, err := reg.Unmarshal("test.Call", []byte{0x80}); !errors.Is(err, wire.ErrMalformed) {
		t.Errorf("array body: err %v", err)
	}
}

// jsNames are the registered names of the JS value types.
var jsNames = []string{"js.object", "js.array", "js.date", "js.ref", "js.int8array", "js.int16array",
	"js.int32array", "js.bigint64array", "js.uint16array", "js.uint32array", "js.biguint64array",
	"js.float32array", "js.float64array"}

// FuzzJSValues: any input decodes or fails with ErrMalformed, never
// panics; what decodes encodes again and decodes to an equal value.
func FuzzJSValues(f *testing.F) {
	reg := wire.NewRegistry()
	seeds := []any{
		map[string]any{"a": []any{int64(1), 2.5, "s", nil, true, []byte{1}}, "r": actor.NewRef("s", "k", "i")},
		time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC), []float64{1, 2}, []int8{-1}, []uint64{1 << 63},
	}
	for _, s := range seeds {
		name, body, err := reg.Marshal(nil, s)
		if err != nil {
			f.Fatal(err)
		}
		for i, n := range jsNames {
			if n == name {
				f.Add(uint8(i), body)
			}
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		name := jsNames[int(which)%len(jsNames)]
		v, err := reg.Unmarshal(name, data)
		if err != nil {
			if !errors.Is(err, wire.ErrMalformed) {
				t.Fatalf("err %v does not wrap ErrMalformed", err)
			}
			return
		}
		name2, body, err := reg.Marshal(nil, v)
		if err != nil {
			t.Fatalf("decoded %#v does not encode: %v", v, err)
		}
		if name2 != name {
			t.Fatalf("decoded as %s, encodes as %s", name, name2)
		}
		v2, err := reg.Unmarshal(name2, body)
		if err != nil {
			t.Fatalf("re-encoded %#v does not decode: %v", v, err)
		}
		if !jsEqual(v, v2) {
			t.Fatalf("round trip changed %#v into %#v", v, v2)
		}
	})
}

// jsEqual compares JS values: times by instant, NaN equal to NaN, floats
// by bits (so -0 differs from 0).
func jsEqual(a, b any) bool {
	switch x := a.(type) {
	case time.Time:
		y, ok := b.(time.Time)
		return ok && x.Equal(y)
	case float64:
		y, ok := b.(float64)
		return ok && (math.Float64bits(x) == math.Float64bits(y) || math.IsNaN(x) && math.IsNaN(y))
	case []float64:
		y, ok := b.([]float64)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !jsEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case []float32:
		y, ok := b.([]float32)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if math.Float32bits(x[i]) != math.Float32bits(y[i]) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !jsEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, e := range x {
			f, ok := y[k]
			if !ok || !jsEqual(e, f) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}

// BenchmarkJSObject: marshal and unmarshal a small JS object, as a JS
// actor's ask reply crosses nodes.
func BenchmarkJSObject(b *testing.B) {
	reg := wire.NewRegistry()
	v := map[string]any{"item": "apples", "qty": int64(3), "total": 1.5, "tags": []any{"fruit", true}, "by": actor.NewRef("n1", "pricer", "main")}
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		name, out, err := reg.Marshal(buf[:0], v)
		if err != nil {
			b.Fatal(err)
		}
		buf = out
		if _, err := reg.Unmarshal(name, out); err != nil {
			b.Fatal(err)
		}
	}
}
