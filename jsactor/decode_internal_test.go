package jsactor

import (
	"errors"
	"math"
	"math/big"
	"reflect"
	"testing"
)

// decodeAs takes shortcuts for common replies; it must answer exactly as
// Decode does, for the shortcut's types and the others.
func TestDecodeAsMatchesDecode(t *testing.T) {
	values := []any{nil, int64(0), int64(300), int64(-7), 1.5, float64(2), "s", true, []any{int64(1)}, map[string]any{"n": int64(1)}, uint64(1 << 63)}
	for _, v := range values {
		checkDecodeAs(t, v, decodeAs[int])
		checkDecodeAs(t, v, decodeAs[int64])
		checkDecodeAs(t, v, decodeAs[int8])
		checkDecodeAs(t, v, decodeAs[float64])
		checkDecodeAs(t, v, decodeAs[string])
		checkDecodeAs(t, v, decodeAs[bool])
		checkDecodeAs(t, v, decodeAs[any])
		checkDecodeAs(t, v, decodeAs[[]int])
		checkDecodeAs(t, v, decodeAs[inner])
	}
}

func checkDecodeAs[R any](t *testing.T, v any, fast func(any) (R, error)) {
	t.Helper()
	got, gotErr := fast(v)
	var want R
	wantErr := Decode(v, &want)
	if !reflect.DeepEqual(got, want) || (gotErr == nil) != (wantErr == nil) || (wantErr != nil && !errors.Is(gotErr, ErrDecode)) {
		t.Errorf("decodeAs[%T](%#v) = %#v, %v; Decode gives %#v, %v", want, v, got, gotErr, want, wantErr)
	}
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
		{new(big.Int).Lsh(big.NewInt(1), 70), new(int64)},
		{big.NewInt(-1), new(uint8)},
		{Float64Array{1}, new([]int)},
	}
	for _, b := range bad {
		if err := Decode(b.v, b.out); !errors.Is(err, ErrDecode) {
			t.Errorf("Decode(%#v, %T) = %v, want ErrDecode", b.v, b.out, err)
		}
	}
	var small int8
	var floats []float64
	var u uint64
	if err := Decode(big.NewInt(-5), &small); err != nil || small != -5 {
		t.Fatalf("BigInt into int8: %v %v", small, err)
	}
	if err := Decode(new(big.Int).SetUint64(math.MaxUint64), &u); err != nil || u != math.MaxUint64 {
		t.Fatalf("BigInt into uint64: %v %v", u, err)
	}
	if err := Decode(Float64Array{1.5}, &floats); err != nil || !reflect.DeepEqual(floats, []float64{1.5}) {
		t.Fatalf("Float64Array into []float64: %v %v", floats, err)
	}
	if err := Decode(1, nil); !errors.Is(err, ErrDecode) {
		t.Fatal("nil target accepted")
	}
}
