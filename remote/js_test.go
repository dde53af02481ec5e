package remote_test

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
	"github.com/troupe-go/troupe/jsactor"
	"github.com/troupe-go/troupe/remote"
	"github.com/troupe-go/troupe/remote/wire"
)

// jsRegistry is registry with jsactor.Call, the message of a JS actor's
// ref.tell and ref.ask; the JS values themselves are built-ins.
func jsRegistry(t *testing.T) *wire.Registry {
	t.Helper()
	r := registry(t)
	if err := wire.RegisterJS[jsactor.Call](r, "jsactor.Call"); err != nil {
		t.Fatal(err)
	}
	return r
}

// pricedAt is the time the Go inventory stamps its replies with.
var pricedAt = time.Date(2026, 11, 23, 1, 0, 0, 0, time.UTC)

// inventory is a Go actor that JS actors tell and ask: note(x) counts a
// note, lookup(order) replies a structured object, with a nested array, a
// date, bytes, its own ref and the notes counted so far.
type inventory struct{ notes int64 }

func (inv *inventory) Receive(c *actor.Context, msg any) (any, error) {
	call, ok := msg.(jsactor.Call)
	if ok && call.Method == "note" {
		inv.notes++
		return nil, nil
	}
	if !ok || call.Method != "lookup" || len(call.Args) != 1 {
		return nil, fmt.Errorf("inventory: unexpected %#v", msg)
	}
	order, ok := call.Args[0].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("inventory: order is %T", call.Args[0])
	}
	if order["sku"] == "none" {
		return nil, errors.New("inventory: no such sku")
	}
	return map[string]any{
		"sku":   order["sku"],
		"price": 2.5,
		"qty":   order["qty"],
		"tags":  []any{"fruit", int64(1)},
		"at":    pricedAt,
		"code":  []byte{7, 8},
		"by":    c.Self(),
		"notes": inv.notes,
	}, nil
}

// shopScript is a JS actor: quote(inv, order) asks the Go inventory it is
// given a ref to, on whatever node, and answers with an object built from
// the reply; echo returns its argument; fail throws.
const shopScript = `
module.exports = {
  async quote(inv, order) {
    inv.tell("note", {sku: order.sku});
    const item = await inv.ask("lookup", {sku: order.sku, qty: order.qty});
    return {
      sku: item.sku,
      total: item.price * item.qty,
      tags: item.tags,
      pricedAt: item.at instanceof Date ? item.at.toISOString() : "not a date",
      code: item.code instanceof Uint8Array ? Array.from(item.code) : "not bytes",
      by: item.by.toString(),
      me: self,
      f32: new Float32Array([0.5, -2]),
      notes: item.notes,
    };
  },
  echo(v) { return v },
  fail() { throw new Error("shop is closed") },
};
`

// TestJSActorAcrossNodes: Go on n2 asks a JS actor on n1 (objects in and
// out), which tells and asks a Go actor on n2 through a ref it was sent
// and gets a structured reply.
func TestJSActorAcrossNodes(t *testing.T) {
	nodes := cluster(t, 2, remote.WithRegistry(jsRegistry(t)))
	n1, n2 := nodes[0], nodes[1]
	script, err := jsactor.Compile("shop.js", shopScript)
	if err != nil {
		t.Fatal(err)
	}
	shopLocal, err := jsactor.Spawn(n1.sys, "shop", "s1", script)
	if err != nil {
		t.Fatal(err)
	}
	inv, err := n2.sys.Spawn("inventory", "main", func() actor.Actor { return &inventory{} })
	if err != nil {
		t.Fatal(err)
	}
	// n2 names the JS actor by its ref: nothing is shared but the name.
	shop := actor.NewRef(shopLocal.System(), shopLocal.Kind(), shopLocal.ID())
	ctx := waitCtx(t)

	got, err := jsactor.Ask[map[string]any](ctx, n2.sys, shop, "quote", inv, map[string]any{"sku": "apple", "qty": 4})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"sku":      "apple",
		"total":    int64(10),
		"tags":     []any{"fruit", int64(1)},
		"pricedAt": "2026-11-23T01:00:00.000Z",
		"code":     []any{int64(7), int64(8)},
		"by":       "troupe://n2/inventory/main",
		"me":       shopLocal,
		"f32":      []float32{0.5, -2},
		"notes":    int64(1), // the tell before the ask arrived first
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("quote:\n got %#v\nwant %#v", got, want)
	}

	rich := map[string]any{
		"s": "x", "i": int64(-3), "f": 0.25, "b": true, "null": nil,
		"nested": map[string]any{"list": []any{int64(1), "two", []any{}}, "when": pricedAt},
		"bytes":  []byte{1, 2, 3}, "floats": []float64{1.5, math.Inf(1)}, "ref": inv,
		"f64": jsactor.Float64Array{2.5}, "big64": jsactor.BigInt64Array{-7}, "buf": jsactor.ArrayBuffer{9, 8},
	}
	echo, err := jsactor.Ask[map[string]any](ctx, n2.sys, shop, "echo", rich)
	if err != nil {
		t.Fatal(err)
	}
	if when, ok := echo["nested"].(map[string]any)["when"].(time.Time); !ok || !when.Equal(pricedAt) {
		t.Fatalf("echo: date came back as %#v", echo["nested"])
	}
	echo["nested"].(map[string]any)["when"] = pricedAt
	// A Go []float64 becomes a JS Array (jsactor's conversion), so it
	// comes back as []any.
	rich["floats"] = []any{1.5, math.Inf(1)}
	if !reflect.DeepEqual(echo, rich) {
		t.Fatalf("echo:\n got %#v\nwant %#v", echo, rich)
	}
}

// TestJSActorAcrossNodesErrors: what fails on the other node comes back
// as the ask's error, and what cannot travel fails the ask at once.
func TestJSActorAcrossNodesErrors(t *testing.T) {
	nodes := cluster(t, 2, remote.WithRegistry(jsRegistry(t)))
	n1, n2 := nodes[0], nodes[1]
	script, err := jsactor.Compile("shop.js", shopScript)
	if err != nil {
		t.Fatal(err)
	}
	shop, err := jsactor.Spawn(n1.sys, "shop", "s1", script)
	if err != nil {
		t.Fatal(err)
	}
	inv, err := n2.sys.Spawn("inventory", "main", func() actor.Actor { return &inventory{} })
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		method string
		args   []any
		is     error
		want   string
		// the ask's other traces: the JS actor restarted on n1 (a throw
		// no longer restarts it: it is the answer), or the ask in n2's
		// dead letters
		restart, dead bool
	}{
		{"JS handler throws", "fail", nil, nil, "shop is closed", false, false},
		{"Go actor fails under a JS ask", "quote", []any{inv, map[string]any{"sku": "none"}}, nil, "no such sku", false, false},
		{"argument is not a JS value", "echo", []any{map[string]any{"c": make(chan int)}}, wire.ErrNotJSValue, "chan int", false, true},
		{"uint64 beyond int64 comes back a BigInt", "echo", []any{map[string]any{"big": uint64(math.MaxUint64)}}, nil, "", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := jsactor.Ask[any](waitCtx(t), n2.sys, shop, tt.method, tt.args...)
			if tt.want == "" {
				// uint64 above MaxInt64 becomes a BigInt in JS and comes
				// back as a *big.Int of the same value: no error.
				want := new(big.Int).SetUint64(math.MaxUint64)
				if err != nil || !reflect.DeepEqual(v, map[string]any{"big": want}) {
					t.Fatalf("got %#v, %v", v, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %#v, %v; want an error with %q", v, err, tt.want)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Fatalf("err %v does not wrap %v", err, tt.is)
			}
			if tt.dead {
				if d := n2.ExpectDeadLetter(); d.To != shop || !errors.Is(d.Reason, tt.is) {
					t.Fatalf("dead letter on n2 = %+v, want the ask", d)
				}
			}
			n1.Settle()
			if f := n1.TakeFailures(); tt.restart != (len(f) == 1 && f[0].Actor == shop && f[0].Kind == actor.Restarted) {
				t.Fatalf("n1's failures %v, want the shop restarted: %v", f, tt.restart)
			}
		})
	}
}
