package jsactor

import (
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"

	"github.com/troupe-go/troupe/actor"
)

// bare is an instance with a Runtime and no actor, for the converters.
func bare() *instance {
	in := &instance{cfg: &config{}}
	in.rt = goja.New()
	in.installGlobals()
	in.captureBuiltins()
	return in
}

func (in *instance) eval(t testing.TB, src string) goja.Value {
	t.Helper()
	v, err := in.rt.RunString(src)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return v
}

type inner struct {
	N int `json:"n"`
}

type record struct {
	Name    string            `json:"name"`
	Skip    string            `json:"-"`
	Empty   string            `json:"empty,omitempty"`
	Untag   int               //
	Ptr     *inner            `json:"ptr"`
	List    []inner           `json:"list"`
	Map     map[string]string `json:"map"`
	private int
	inner
}

func TestGoToJSToGo(t *testing.T) {
	when := time.Date(2024, 5, 6, 7, 8, 9, 123e6, time.UTC)
	ref := actor.NewRef("s", "k", "i")
	cases := []struct {
		name string
		in   any
		want any
	}{
		{"nil", nil, nil},
		{"bool", true, true},
		{"string", "héllo", "héllo"},
		{"int", 42, int64(42)},
		{"negative", int8(-7), int64(-7)},
		{"uint", uint16(9), int64(9)},
		{"float", 1.5, 1.5},
		{"integral float", 3.0, int64(3)},
		{"NaN", math.NaN(), "NaN"},
		{"big int64 as BigInt", int64(1 << 60), int64(1 << 60)},
		{"max uint64 as BigInt", uint64(math.MaxUint64), uint64(math.MaxUint64)},
		{"big.Int", big.NewInt(-5), int64(-5)},
		{"bytes", []byte{1, 2, 3}, []byte{1, 2, 3}},
		{"time", when, when},
		{"ref", ref, ref},
		{"slice", []string{"a", "b"}, []any{"a", "b"}},
		{"array", [2]int{1, 2}, []any{int64(1), int64(2)}},
		{"map", map[string]any{"a": 1, "b": []any{true, nil}}, map[string]any{"a": int64(1), "b": []any{true, nil}}},
		{"struct", record{Name: "x", Skip: "s", Untag: 3, Ptr: &inner{1}, List: []inner{{2}}, Map: map[string]string{"k": "v"}, private: 9, inner: inner{N: 4}},
			map[string]any{"name": "x", "Untag": int64(3), "ptr": map[string]any{"n": int64(1)}, "list": []any{map[string]any{"n": int64(2)}}, "map": map[string]any{"k": "v"}, "n": int64(4)}},
		{"nil pointer", (*inner)(nil), nil},
		{"call", Call{Method: "m", Args: []any{1}}, map[string]any{"method": "m", "args": []any{int64(1)}}},
		{"terminated", actor.Terminated{Actor: ref}, map[string]any{"terminated": ref, "reason": nil}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := bare()
			v, err := in.toJS(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			got, err := in.toGo(v)
			if err != nil {
				t.Fatal(err)
			}
			if f, ok := got.(float64); ok && math.IsNaN(f) {
				got = "NaN"
			}
			if tm, ok := got.(time.Time); ok {
				got = tm.UTC()
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %#v, want %#v", got, tc.want)
			}
		})
	}
}

func TestJSToGo(t *testing.T) {
	cases := []struct {
		src  string
		want any
	}{
		{`undefined`, nil},
		{`null`, nil},
		{`-0`, -0.0},
		{`2**53`, int64(1 << 53)},
		{`2**53 + 2`, float64(1<<53 + 2)},
		{`0.5 + 0.25`, 0.75},
		{`12n`, int64(12)},
		{`2n**64n - 1n`, uint64(math.MaxUint64)},
		{`new Date(0)`, time.Unix(0, 0)},
		{`new Date(NaN)`, time.Time{}},
		{`new Uint8Array([1, 2])`, []byte{1, 2}},
		{`new Uint8Array([1, 2, 3]).subarray(1)`, []byte{2, 3}},
		{`new Uint8Array([1, 2]).buffer`, []byte{1, 2}},
		{`new Int16Array([-1])`, []int16{-1}},
		{`new Float64Array([1.5])`, []float64{1.5}},
		{`new BigInt64Array([-3n])`, []int64{-3}},
		{`[1, "a", [null]]`, []any{int64(1), "a", []any{nil}}},
		{`({a: {b: undefined}})`, map[string]any{"a": map[string]any{"b": nil}}},
		{`Object.assign(Object.create(null), {x: 1})`, map[string]any{"x": int64(1)}},
		{`(() => { const s = {v: 1}; return [s, s] })()`, []any{map[string]any{"v": int64(1)}, map[string]any{"v": int64(1)}}},
		{`({get g() { return 5 }})`, map[string]any{"g": int64(5)}},
	}
	for _, tc := range cases {
		t.Run(tc.src, func(t *testing.T) {
			in := bare()
			got, err := in.toGo(in.eval(t, tc.src))
			if err != nil {
				t.Fatal(err)
			}
			if tm, ok := got.(time.Time); ok && !tm.IsZero() {
				got = tm.UTC()
				tc.want = tc.want.(time.Time).UTC()
			}
			if f, ok := got.(float64); ok && f == 0 && !math.Signbit(f) {
				t.Fatalf("-0 lost its sign")
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %#v, want %#v", got, tc.want)
			}
		})
	}
}

func TestCannotCross(t *testing.T) {
	js := []string{
		`(function f() {})`,
		`(() => { const o = {}; o.self = o; return o })()`,
		`(() => { const a = []; a.push({a}); return a })()`,
		`2n ** 64n`,
		`-(2n ** 63n) - 1n`,
		`Symbol("x")`,
		`({s: Symbol("x")})`,
		`new Map()`,
		`new Set()`,
		`/re/`,
		`new Error("e")`,
		`Promise.resolve()`,
		`new (class Foo {})()`,
		`new Array(1 << 25)`,
		`({get bad() { throw new Error("getter") }})`,
		`new WeakMap()`,
	}
	for _, src := range js {
		t.Run(src, func(t *testing.T) {
			in := bare()
			if _, err := in.toGo(in.eval(t, src)); !errors.Is(err, ErrCannotCross) {
				t.Fatalf("got %v, want ErrCannotCross", err)
			}
		})
	}
	type cyc struct{ Next *cyc }
	c := &cyc{}
	c.Next = c
	for name, v := range map[string]any{
		"func":          func() {},
		"chan":          make(chan int),
		"complex":       complex(1, 2),
		"int keys":      map[int]string{1: "a"},
		"cyclic struct": c,
		"goja value":    goja.Undefined(),
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := bare().toJS(v); !errors.Is(err, ErrCannotCross) {
				t.Fatalf("got %v, want ErrCannotCross", err)
			}
		})
	}
}

func TestDecode(t *testing.T) {
	var s record
	err := Decode(map[string]any{"name": "n", "UNTAG": int64(2), "ptr": map[string]any{"n": int64(3)}, "list": []any{map[string]any{"n": 1.0}}, "n": int64(5), "unknown": true}, &s)
	if err != nil || s.Name != "n" || s.Untag != 2 || s.Ptr.N != 3 || s.List[0].N != 1 || s.N != 5 {
		t.Fatalf("decoded %+v, %v", s, err)
	}
	bad := []struct {
		v   any
		out any
	}{
		{int64(300), new(int8)},
		{int64(-1), new(uint)},
		{1.5, new(int)},
		{"x", new(int)},
		{[]any{1}, new([2]int)},
		{map[string]any{"n": "x"}, new(inner)},
		{uint64(math.MaxUint64), new(int64)},
	}
	for _, b := range bad {
		if err := Decode(b.v, b.out); !errors.Is(err, ErrDecode) {
			t.Errorf("Decode(%#v, %T) = %v, want ErrDecode", b.v, b.out, err)
		}
	}
	if err := Decode(1, nil); !errors.Is(err, ErrDecode) {
		t.Fatal("nil target accepted")
	}
}

// FuzzConvert: any JSON value survives JS -> Go -> JS -> Go unchanged, and
// decoding it into a struct never panics.
func FuzzConvert(f *testing.F) {
	for _, s := range []string{`null`, `1`, `-0`, `1e308`, `"\u00e9\ud83d\ude00"`, `[1,[2,[3]]]`, `{"a":{"b":[true,false,null]}}`, `9007199254740993`, `{"name":"x","n":1.5}`} {
		f.Add(s)
	}
	in := bare()
	parse := in.eval(f, `JSON.parse`)
	parseFn, _ := goja.AssertFunction(parse)
	f.Fuzz(func(t *testing.T, src string) {
		if !json.Valid([]byte(src)) || strings.Count(src, "[")+strings.Count(src, "{") > 200 {
			return
		}
		v, err := parseFn(goja.Undefined(), in.rt.ToValue(src))
		if err != nil {
			return
		}
		g1, err := in.toGo(v)
		if err != nil {
			t.Fatalf("JSON value did not cross: %v", err)
		}
		back, err := in.toJS(g1)
		if err != nil {
			t.Fatalf("converted value did not go back: %v", err)
		}
		g2, err := in.toGo(back)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(g1, g2) && !hasNaN(g1) {
			t.Fatalf("round trip changed %#v into %#v", g1, g2)
		}
		var s record
		_ = Decode(g1, &s)
		var anyOut any
		if err := Decode(g1, &anyOut); err != nil || !reflect.DeepEqual(anyOut, g1) {
			t.Fatalf("Decode into any: %v", err)
		}
	})
}

func hasNaN(v any) bool {
	f, ok := v.(float64)
	return ok && math.IsNaN(f)
}
