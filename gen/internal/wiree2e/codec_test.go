package wiree2e

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/remote/wire"
)

// registry returns a registry holding Wallet's and WalletV2's messages.
func registry(t testing.TB) *wire.Registry {
	t.Helper()
	r := wire.NewRegistry()
	if err := RegisterWalletMessages(r); err != nil {
		t.Fatal(err)
	}
	if err := RegisterWalletV2Messages(r); err != nil {
		t.Fatal(err)
	}
	return r
}

var fullEntry = Entry{
	Amount: -1 << 40, Memo: "rent", Tags: []string{"home", "", "monthly"}, After: -3 * time.Second,
	By: actor.NewRef("n1", "wallet", "w/1"), Extra: map[string]uint32{"a": 1, "": 0, "z": 1<<32 - 1}, Scale: 0.5,
	Raw: Blob("raw"), Marks: Marks{1: true, -2: false},
}

// messages holds a value of every message and reply type of Wallet.
var messages = []struct {
	name string
	v    any
	typ  string // the registered name
}{
	{"deposit", walletDepositMsg{e: fullEntry, note: "n"}, "github.com/troupe-go/troupe/gen/internal/wiree2e.Wallet.Deposit"},
	{"zero deposit", walletDepositMsg{}, "github.com/troupe-go/troupe/gen/internal/wiree2e.Wallet.Deposit"},
	{"withdraw", walletWithdrawMsg{amount: 7}, "github.com/troupe-go/troupe/gen/internal/wiree2e.Wallet.Withdraw"},
	{"statement", walletStatementMsg{}, "github.com/troupe-go/troupe/gen/internal/wiree2e.Wallet.Statement"},
	{"summary", walletSummaryMsg{}, "github.com/troupe-go/troupe/gen/internal/wiree2e.Wallet.Summary"},
	{"echo", walletEchoMsg{
		i: -1, i8: -128, u: 65535, f: -2.5, ok: true, b: []byte{0, 1, 2},
		refs:   []actor.Ref{actor.NewRef("a", "b", "c"), {}, actor.NewRef("", "k", "")},
		counts: map[int]Cents{0: 0, -1: 5, 1 << 50: -9},
		blobs:  [][]byte{{1}, {2, 3}},
		tree:   Tree{Name: "root", Kids: []Tree{{Name: "a"}, {Kids: []Tree{{Name: "deep"}}}}},
	}, "github.com/troupe-go/troupe/gen/internal/wiree2e.Wallet.Echo"},
	{"v2 deposit", walletV2DepositMsg{e: fullEntry, note: "n", receipt: true}, "github.com/troupe-go/troupe/gen/internal/wiree2e.WalletV2.Deposit"},
	{"statement reply", Statement{Balance: 3, Entries: []Entry{fullEntry, {}, {Memo: "x"}}}, "github.com/troupe-go/troupe/gen/internal/wiree2e.Statement"},
	{"summary reply", Summary{Count: 2, Last: "x"}, "github.com/troupe-go/troupe/gen/internal/wiree2e.Summary"},
	{"echoed reply", Echoed{I: 1, Refs: []actor.Ref{actor.NewRef("s", "k", "i")}, Tree: Tree{Name: "t"}}, "github.com/troupe-go/troupe/gen/internal/wiree2e.Echoed"},
}

func TestRoundTrip(t *testing.T) {
	r := registry(t)
	for _, tt := range messages {
		t.Run(tt.name, func(t *testing.T) {
			name, data, err := r.Marshal(nil, tt.v)
			if err != nil {
				t.Fatal(err)
			}
			if name != tt.typ {
				t.Fatalf("registered as %q, want %q", name, tt.typ)
			}
			got, err := r.Unmarshal(name, data)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.v) {
				t.Fatalf("round trip:\n got %#v\nwant %#v", got, tt.v)
			}
		})
	}
}

// TestBinaryCodecs checks that every message travels with its generated
// codec, not CBOR: the registry writes as many bytes as MarshalWire (the
// same bytes but for map order).
func TestBinaryCodecs(t *testing.T) {
	r := registry(t)
	for _, tt := range messages {
		m, ok := tt.v.(wire.Marshaler)
		if !ok {
			if tt.name != "summary reply" {
				t.Errorf("%s: %T has no generated codec", tt.name, tt.v)
			}
			continue
		}
		_, data, err := r.Marshal(nil, tt.v)
		if err != nil {
			t.Fatal(err)
		}
		var e wire.Encoder
		m.MarshalWire(&e)
		if len(data) != len(e.Bytes()) {
			t.Errorf("%s: registry wrote %x, MarshalWire %x", tt.name, data, e.Bytes())
		}
	}
}

// TestLocalFieldDoesNotCross: a field tagged wire:"-" is left out.
func TestLocalFieldDoesNotCross(t *testing.T) {
	var e wire.Encoder
	Entry{Memo: "m", Local: "secret"}.MarshalWire(&e)
	var got Entry
	if err := got.UnmarshalWire(wire.NewDecoder(e.Bytes())); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, Entry{Memo: "m"}) {
		t.Fatalf("got %+v", got)
	}
}

// TestSchemaEvolution: a newer sender's extra field is skipped by an older
// receiver, and an older sender's message reads as the newer type with
// the new field zero.
func TestSchemaEvolution(t *testing.T) {
	var e wire.Encoder
	walletV2DepositMsg{e: fullEntry, note: "n", receipt: true}.MarshalWire(&e)
	var old walletDepositMsg
	if err := old.UnmarshalWire(wire.NewDecoder(e.Bytes())); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(old, walletDepositMsg{e: fullEntry, note: "n"}) {
		t.Fatalf("new to old: %+v", old)
	}
	e.Reset()
	walletDepositMsg{e: fullEntry, note: "n"}.MarshalWire(&e)
	var v2 walletV2DepositMsg
	if err := v2.UnmarshalWire(wire.NewDecoder(e.Bytes())); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(v2, walletV2DepositMsg{e: fullEntry, note: "n"}) {
		t.Fatalf("old to new: %+v", v2)
	}
}

// TestUnknownFieldsSkipped: fields of every wire type the receiver does
// not know, top-level and nested, are skipped.
func TestUnknownFieldsSkipped(t *testing.T) {
	var e wire.Encoder
	e.Uint(100, 7)
	e.Fixed64(101, 1<<60)
	walletDepositMsg{e: fullEntry, note: "n"}.MarshalWire(&e)
	e.String(102, "later")
	e.Message(103, true, func(e *wire.Encoder) { e.Int(1, -1); e.Message(2, true, func(*wire.Encoder) {}) })
	var got walletDepositMsg
	if err := got.UnmarshalWire(wire.NewDecoder(e.Bytes())); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, walletDepositMsg{e: fullEntry, note: "n"}) {
		t.Fatalf("got %+v", got)
	}
}

func TestMalformed(t *testing.T) {
	var e wire.Encoder
	walletEchoMsg{tree: Tree{Name: "root", Kids: []Tree{{Name: "kid"}}}, refs: []actor.Ref{actor.NewRef("a", "b", "c")}}.MarshalWire(&e)
	full := e.Bytes()
	tests := []struct {
		name string
		data []byte
	}{
		{"truncated", full[:len(full)-1]},
		{"wrong wire type", []byte{1<<3 | wire.TypeBytes, 1, 'x'}},    // field 1 (an int) as bytes
		{"bad nested", []byte{10<<3 | wire.TypeBytes, 2, 0xff, 0xff}}, // tree: a truncated varint inside
		{"bad key", []byte{0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var m walletEchoMsg
			if err := m.UnmarshalWire(wire.NewDecoder(tt.data)); !errors.Is(err, wire.ErrMalformed) {
				t.Fatalf("err = %v, want ErrMalformed", err)
			}
		})
	}
}

// FuzzUnmarshalEcho: any input decodes or fails with ErrMalformed, never
// panics; what decodes encodes and decodes to the same value.
func FuzzUnmarshalEcho(f *testing.F) {
	for _, tt := range messages {
		if m, ok := tt.v.(wire.Marshaler); ok {
			var e wire.Encoder
			m.MarshalWire(&e)
			f.Add(e.Bytes())
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var m walletEchoMsg
		if err := m.UnmarshalWire(wire.NewDecoder(data)); err != nil {
			if !errors.Is(err, wire.ErrMalformed) {
				t.Fatalf("err = %v, want ErrMalformed", err)
			}
			return
		}
		var e wire.Encoder
		m.MarshalWire(&e)
		var again walletEchoMsg
		if err := again.UnmarshalWire(wire.NewDecoder(e.Bytes())); err != nil {
			t.Fatal(err)
		}
		var e2 wire.Encoder
		again.MarshalWire(&e2)
		if len(m.counts) <= 1 && !reflect.DeepEqual(e.Bytes(), e2.Bytes()) {
			t.Fatalf("re-encoding differs:\n%x\n%x", e.Bytes(), e2.Bytes())
		}
	})
}
