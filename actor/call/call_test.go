package call_test

import (
	"errors"
	"math"
	"math/big"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actor/call"
)

type Item string

type Inner struct {
	N int `json:"n"`
}

type Outer struct {
	Inner           // promoted: "n"
	Name  string    `json:"name"`
	Tags  []string  `json:"tags,omitempty"`
	Skip  int       `json:"-"`
	Ref   actor.Ref `json:"ref"`
	Plain bool
}

func TestDecode(t *testing.T) {
	ref := actor.NewRef("s", "k", "i").Child("c", "1")
	when := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		name string
		v    any
		into any // a pointer to the wanted type's zero value
		want any
		err  string // a substring of the error, "" for none
	}{
		{"integral float to int", 3.0, new(int), 3, ""},
		{"int64 to int8", int64(-128), new(int8), int8(-128), ""},
		{"int64 overflows int8", int64(128), new(int8), nil, "got int64 128, want int8"},
		{"fraction to int", 1.5, new(int), nil, "got float64 1.5, want int"},
		{"negative to uint", -1.0, new(uint), nil, "want uint"},
		{"huge float to int", 1e300, new(int64), nil, "want int64"},
		{"go int to float64", 3, new(float64), 3.0, ""},
		{"go int32 to uint8", int32(255), new(uint8), uint8(255), ""},
		{"typed ref to ref", typedRef{ref}, new(actor.Ref), ref, ""},
		{"float to float32", 0.5, new(float32), float32(0.5), ""},
		{"bigint to uint64", new(big.Int).SetUint64(math.MaxUint64), new(uint64), uint64(math.MaxUint64), ""},
		{"string to named string", "tea", new(Item), Item("tea"), ""},
		{"number to string", 1.0, new(string), nil, "got float64 1, want string"},
		{"bool", true, new(bool), true, ""},
		{"nil to zero", nil, new(int), 0, ""},
		{"time", when, new(time.Time), when, ""},
		{"ref", ref, new(actor.Ref), ref, ""},
		{"string to ref", "troupe://s/k/i", new(actor.Ref), nil, `got string "troupe://s/k/i", want actor.Ref`},
		{"list to slice", []any{1.0, int64(2)}, new([]int), []int{1, 2}, ""},
		{"bad element", []any{1.0, "x"}, new([]int), nil, `[1]: got string "x", want int`},
		{"bytes to bytes", []byte{1, 2}, new([]byte), []byte{1, 2}, ""},
		{"list to array", []any{1.0, 2.0}, new([2]int), [2]int{1, 2}, ""},
		{"short list to array", []any{1.0}, new([2]int), nil, "got 1 elements, want [2]int"},
		{"typed array", []float32{1}, new([]float32), []float32{1}, ""},
		{"map", map[string]any{"a": 1.0}, new(map[Item]int), map[Item]int{"a": 1}, ""},
		{"struct", map[string]any{"name": "x", "n": 2.0, "tags": []any{"a"}, "Skip": 9.0, "ref": ref, "Plain": true, "other": 1.0},
			new(Outer), Outer{Inner: Inner{N: 2}, Name: "x", Tags: []string{"a"}, Ref: ref, Plain: true}, ""},
		{"bad struct field", map[string]any{"tags": []any{1.0}}, new(Outer), nil, ".tags[0]: got float64 1, want string"},
		{"pointer", 2.0, new(*int), ptr(2), ""},
		{"not an object", "x", new(Outer), nil, "want call_test.Outer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := call.Decode(tt.v, tt.into)
			if tt.err != "" {
				if !errors.Is(err, call.ErrArgument) || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want ErrArgument saying %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := reflect.ValueOf(tt.into).Elem().Interface(); !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got %#v, want %#v", got, tt.want)
			}
		})
	}
}

type typedRef struct{ r actor.Ref }

func (t typedRef) Ref() actor.Ref { return t.r }

func ptr[T any](v T) *T { return &v }

func TestArity(t *testing.T) {
	tests := []struct {
		n        int
		variadic bool
		args     int
		err      string
	}{
		{2, false, 2, ""},
		{2, false, 1, "m takes 2 arguments, got 1"},
		{1, false, 2, "m takes 1 argument, got 2"},
		{1, true, 3, ""},
		{1, true, 1, ""},
		{2, true, 1, "m takes at least 2 arguments, got 1"},
	}
	for _, tt := range tests {
		err := call.Arity(call.Call{Method: "m", Args: make([]any, tt.args)}, tt.n, tt.variadic)
		if tt.err == "" && err != nil || tt.err != "" && (!errors.Is(err, call.ErrArgument) || !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("Arity(%d args, %d, %v) = %v, want %q", tt.args, tt.n, tt.variadic, err, tt.err)
		}
	}
}

func TestRest(t *testing.T) {
	c := call.Call{Method: "sum", Args: []any{"base", 1.0, int64(2)}}
	got, err := call.Rest[int](c, 1, "xs")
	if err != nil || !reflect.DeepEqual(got, []int{1, 2}) {
		t.Fatalf("Rest = %v, %v", got, err)
	}
	if got, err := call.Rest[int](c, 3, "xs"); got != nil || err != nil {
		t.Fatalf("Rest past the end = %v, %v", got, err)
	}
	_, err = call.Rest[int](call.Call{Method: "sum", Args: []any{1.0, "x"}}, 0, "xs")
	if !errors.Is(err, call.ErrArgument) || !strings.Contains(err.Error(), `sum argument 2 (xs): got string "x", want int`) {
		t.Fatalf("Rest err = %v", err)
	}
}

// Keys match struct fields exactly first, then case-insensitively, as
// encoding/json does.
func TestDecodeFoldsKeys(t *testing.T) {
	type rec struct {
		Name  string `json:"name"`
		Untag int
		Exact int `json:"exact"`
		EXACT int `json:"EXACT"`
	}
	var r rec
	if err := call.Decode(map[string]any{"NAME": "n", "untag": int64(2), "EXACT": int64(3)}, &r); err != nil {
		t.Fatal(err)
	}
	if r.Name != "n" || r.Untag != 2 || r.EXACT != 3 || r.Exact != 0 {
		t.Fatalf("decoded %+v", r)
	}
}
