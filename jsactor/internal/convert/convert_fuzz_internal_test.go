package convert

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/big"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor/call"
)

// fuzzRecord is a Go struct with the kinds that need more than JSON.
type fuzzRecord struct {
	Name  string         `json:"name"`
	N     int64          `json:"n"`
	When  time.Time      `json:"when"`
	Data  []byte         `json:"data"`
	Small []int16        `json:"small"`
	F64   Float64Array   `json:"f64"`
	Big   *big.Int       `json:"big"`
	Buf   ArrayBuffer    `json:"buf"`
	Tags  map[string]any `json:"tags,omitempty"`
}

// typedOfKind builds, from data, a Go slice of the type typed array kind
// k crosses as.
func typedOfKind(k uint8, data []byte) any {
	r := bytes.NewReader(data)
	read := func(v any) any { _ = binary.Read(r, binary.NativeEndian, v); return v }
	n := len(data)
	switch k % 11 {
	case 0:
		return append([]byte{}, data...)
	case 1:
		return read(make([]int8, n))
	case 2:
		return read(make([]int16, n/2))
	case 3:
		return read(make([]uint16, n/2))
	case 4:
		return read(make([]int32, n/4))
	case 5:
		return read(make([]uint32, n/4))
	case 6:
		return read(make([]float32, n/4))
	case 7:
		s := make([]float64, n/8)
		read(s)
		return Float64Array(s)
	case 8:
		s := make([]int64, n/8)
		read(s)
		return BigInt64Array(s)
	case 9:
		s := make([]uint64, n/8)
		read(s)
		return BigUint64Array(s)
	}
	return ArrayBuffer(append([]byte{}, data...))
}

// FuzzConvertKinds: values with typed arrays, Dates, BigInts, shared
// substructures and Go structs survive Go -> JS -> Go -> JS -> Go, and a
// struct decodes back to itself.
func FuzzConvertKinds(f *testing.F) {
	f.Add(uint8(2), []byte{1, 2, 3, 4, 5, 6, 7, 8, 9}, int64(1700000000000), "é", int64(1)<<60)
	f.Add(uint8(7), []byte{0xff, 0xf8, 0, 0, 0, 0, 0, 0}, int64(-1), "", int64(-3))
	f.Fuzz(func(t *testing.T, kind uint8, data []byte, ms int64, s string, n int64) {
		if len(data) > 4096 {
			return
		}
		ms %= 8_640_000_000_000_000 // the Date range
		in := bare()
		typed := typedOfKind(kind, data)
		shared := map[string]any{"s": s}
		v := map[string]any{"typed": typed, "when": time.UnixMilli(ms), "big": new(big.Int).Lsh(big.NewInt(n), 70), "n": n, "a": shared, "b": shared}
		jv, err := in.toJS(v)
		if err != nil {
			t.Fatalf("to JS: %v", err)
		}
		g1, err := in.toGo(jv)
		if err != nil {
			t.Fatalf("to Go: %v", err)
		}
		back, err := in.toJS(g1)
		if err != nil {
			t.Fatal(err)
		}
		g2, err := in.toGo(back)
		if err != nil {
			t.Fatal(err)
		}
		if a, b := fmt.Sprint(g1), fmt.Sprint(g2); a != b {
			t.Fatalf("round trip changed\n%s\ninto\n%s", a, b)
		}
		if got, want := fmt.Sprint(g1.(map[string]any)["typed"]), fmt.Sprint(typed); got != want {
			t.Fatalf("typed array %T changed: %s, want %s", typed, got, want)
		}
		rec := fuzzRecord{Name: s, N: n, When: time.UnixMilli(ms).UTC(), Data: data, Small: []int16{int16(n)}, F64: Float64Array{float64(n)}, Big: big.NewInt(n), Buf: ArrayBuffer(data)}
		rv, err := in.toJS(rec)
		if err != nil {
			t.Fatal(err)
		}
		rg, err := in.toGo(rv)
		if err != nil {
			t.Fatal(err)
		}
		var out fuzzRecord
		if err := call.Decode(rg, &out); err != nil {
			t.Fatalf("decode: %v", err)
		}
		out.When = out.When.UTC()
		if a, b := fmt.Sprintf("%v", rec), fmt.Sprintf("%v", out); a != b {
			t.Fatalf("struct round trip changed\n%s\ninto\n%s", a, b)
		}
	})
}
