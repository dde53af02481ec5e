package main

import (
	"context"
	_ "embed"
	"fmt"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/jsactor"
)

//go:embed pricer.js
var pricerJS string

// Quote is the pricer's answer, decoded from a JavaScript object by json
// tags.
type Quote struct {
	Item    string  `json:"item"`
	Qty     int64   `json:"qty"`
	Total   float64 `json:"total"`
	Entries int     `json:"entries"`
	By      string  `json:"by"`
}

// Pricer describes the handlers pricer.js exports; troupegen generates
// PricerRef, whose calls travel to the JS actor on whatever node as
// jsactor.Call messages with their arguments as CBOR JS values.
//
//troupe:js kind=pricer
type Pricer interface {
	// Quote prices qty of item and records it with ledger.
	Quote(ctx context.Context, ledger actor.Ref, item string, qty int64) (Quote, error)
}

// ledger is a Go actor on the shop node serving the JavaScript pricer's
// Call messages: record(entry) keeps an entry, entries() counts them. The
// arguments arrive as JS values (map[string]any, int64, float64...).
func ledger() actor.Actor {
	var entries []map[string]any
	return actor.ActorFunc(func(_ *actor.Context, msg any) (any, error) {
		call, ok := msg.(jsactor.Call)
		if !ok {
			return nil, fmt.Errorf("ledger: unexpected %T", msg)
		}
		switch call.Method {
		case "record":
			e, ok := firstArg[map[string]any](call)
			if !ok {
				return nil, fmt.Errorf("ledger: record needs an object, got %#v", call.Args)
			}
			entries = append(entries, e)
			return nil, nil
		case "entries":
			return len(entries), nil
		}
		return nil, fmt.Errorf("ledger: no method %q", call.Method)
	})
}

// firstArg returns call's first argument as a T.
func firstArg[T any](call jsactor.Call) (T, bool) {
	var zero T
	if len(call.Args) == 0 {
		return zero, false
	}
	v, ok := call.Args[0].(T)
	return v, ok
}
