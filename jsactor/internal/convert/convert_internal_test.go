package convert

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
	"github.com/troupe-go/troupe/actor/call"
)

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
		{"big int64 as BigInt", int64(1 << 60), big.NewInt(1 << 60)},
		{"max uint64 as BigInt", uint64(math.MaxUint64), new(big.Int).SetUint64(math.MaxUint64)},
		{"big.Int", big.NewInt(-5), big.NewInt(-5)},
		{"bytes", []byte{1, 2, 3}, []byte{1, 2, 3}},
		{"time", when, when},
		{"time past 2262", time.Date(3000, 1, 2, 3, 4, 5, 6e6, time.UTC), time.Date(3000, 1, 2, 3, 4, 5, 6e6, time.UTC)},
		{"sub-millisecond time", when.Add(999 * time.Microsecond), when},
		{"typed slices", []any{[]int16{-1}, []uint32{7}, Float64Array{0.5}, BigInt64Array{-2}, ArrayBuffer{1}}, []any{[]int16{-1}, []uint32{7}, Float64Array{0.5}, BigInt64Array{-2}, ArrayBuffer{1}}},
		{"Go float64 slice stays an Array", []float64{0.5}, []any{0.5}},
		{"ref", ref, ref},
		{"slice", []string{"a", "b"}, []any{"a", "b"}},
		{"array", [2]int{1, 2}, []any{int64(1), int64(2)}},
		{"map", map[string]any{"a": 1, "b": []any{true, nil}}, map[string]any{"a": int64(1), "b": []any{true, nil}}},
		{"struct", record{Name: "x", Skip: "s", Untag: 3, Ptr: &inner{1}, List: []inner{{2}}, Map: map[string]string{"k": "v"}, private: 9, inner: inner{N: 4}},
			map[string]any{"name": "x", "Untag": int64(3), "ptr": map[string]any{"n": int64(1)}, "list": []any{map[string]any{"n": int64(2)}}, "map": map[string]any{"k": "v"}, "n": int64(4)}},
		{"nil pointer", (*inner)(nil), nil},
		{"call", call.Call{Method: "m", Args: []any{1}}, map[string]any{"method": "m", "args": []any{int64(1)}}},
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
		{`2**53 - 1`, int64(1<<53 - 1)},
		{`2**53`, float64(1 << 53)},
		{`2**53 + 2`, float64(1<<53 + 2)},
		{`0.5 + 0.25`, 0.75},
		{`12n`, big.NewInt(12)},
		{`2n**64n - 1n`, new(big.Int).SetUint64(math.MaxUint64)},
		{`-(2n**70n)`, new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), 70))},
		{`new Date(0)`, time.Unix(0, 0)},
		{`new Date(NaN)`, time.Time{}},
		{`new Uint8Array([1, 2])`, []byte{1, 2}},
		{`new Uint8Array([1, 2, 3]).subarray(1)`, []byte{2, 3}},
		{`new Uint8Array([1, 2]).buffer`, ArrayBuffer{1, 2}},
		{`new Uint8ClampedArray([1, 300])`, []byte{1, 255}},
		{`new Int16Array([-1])`, []int16{-1}},
		{`new Float64Array([1.5])`, Float64Array{1.5}},
		{`new BigInt64Array([-3n])`, BigInt64Array{-3}},
		{`new BigUint64Array([3n])`, BigUint64Array{3}},
		{`new Float32Array([0.5])`, []float32{0.5}},
		{`new Uint32Array([7])`, []uint32{7}},
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
		`new Array(1 << 21)`,
		`(() => { let a = {}; for (let i = 0; i < 40; i++) a = {x: a, y: a}; return [a, new Array(1 << 20)] })()`,
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
		"date past JS":  time.Date(300000, 1, 1, 0, 0, 0, 0, time.UTC),
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := bare().toJS(v); !errors.Is(err, ErrCannotCross) {
				t.Fatalf("got %v, want ErrCannotCross", err)
			}
		})
	}
}

// A shared substructure is converted once, both ways, and stays shared;
// but it is paid for at every path to it, since what walks the Go value
// later (an encoder, Decode) walks every path: a DAG that would be 2^64
// nodes as a tree is over the budget.
func TestConvertShared(t *testing.T) {
	in := bare()
	if _, err := in.toGo(in.eval(t, `(() => { let a = {leaf: 1}; for (let i = 0; i < 64; i++) a = {x: a, y: a}; return a })()`)); !errors.Is(err, ErrCannotCross) {
		t.Fatalf("a DAG of 2^64 paths: %v, want ErrCannotCross (over budget)", err)
	}
	g, err := in.toGo(in.eval(t, `(() => { let a = {leaf: 1}; for (let i = 0; i < 8; i++) a = {x: a, y: a}; return a })()`))
	if err != nil {
		t.Fatal(err)
	}
	m := g.(map[string]any)
	if reflect.ValueOf(m["x"]).UnsafePointer() != reflect.ValueOf(m["y"]).UnsafePointer() {
		t.Fatal("shared object converted twice")
	}
	back, err := in.toJS(g)
	if err != nil {
		t.Fatal(err)
	}
	_ = in.rt.Set("back", back)
	if v := in.eval(t, `back.x === back.y && back.x.x.x === back.y.y.y`); !v.ToBoolean() {
		t.Fatal("sharing lost going back to JavaScript")
	}
	shared := []any{1}
	v, err := in.toJS(map[string]any{"a": shared, "b": shared, "e1": []any{}, "e2": []any{}})
	if err != nil {
		t.Fatal(err)
	}
	_ = in.rt.Set("v", v)
	if got := in.eval(t, `[v.a === v.b, v.e1 === v.e2]`).Export(); !reflect.DeepEqual(got, []any{true, false}) {
		t.Fatalf("Go sharing: %v", got)
	}
}

// The conversion budget bounds nodes and bytes both ways.
func TestConvertBudget(t *testing.T) {
	in := bareWith(100, 1000)
	for _, src := range []string{`new Array(101)`, `"x".repeat(1001)`, `new Uint8Array(1001)`, `({["k".repeat(1001)]: 1})`, `10n ** 3000n`} {
		if _, err := in.toGo(in.eval(t, src)); !errors.Is(err, ErrCannotCross) {
			t.Errorf("%s: %v, want ErrCannotCross", src, err)
		}
	}
	if _, err := in.toGo(in.eval(t, `new Array(90).fill("x")`)); err != nil {
		t.Errorf("within budget: %v", err)
	}
	for name, v := range map[string]any{"nodes": make([]int, 101), "bytes": strings.Repeat("x", 1001), "binary": make([]byte, 1001)} {
		if _, err := in.toJS(v); !errors.Is(err, ErrCannotCross) {
			t.Errorf("%s: %v, want ErrCannotCross", name, err)
		}
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
		var s struct {
			Name string `json:"name"`
			N    int    `json:"n"`
		}
		_ = call.Decode(g1, &s)
		var anyOut any
		if err := call.Decode(g1, &anyOut); err != nil || !reflect.DeepEqual(anyOut, g1) {
			t.Fatalf("Decode into any: %v", err)
		}
	})
}

func hasNaN(v any) bool {
	f, ok := v.(float64)
	return ok && math.IsNaN(f)
}
