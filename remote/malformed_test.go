package remote_test

import (
	"bytes"
	"testing"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/remote"
	"github.com/troupe-go/troupe/remote/wire"
)

func TestMalformedInputIsRejected(t *testing.T) {
	ns := cluster(t, 2, remote.WithMaxFrame(4096))
	acct := spawnAccount(t, ns[1], "a", nil)
	valid := func(e *wire.Envelope) []byte { return wire.AppendFrame(nil, e) }
	tell := func(to wire.Ref, typ string, body []byte) *wire.Envelope {
		return &wire.Envelope{Kind: wire.KindTell, Node: "n1", To: to, Type: typ, Body: body}
	}
	here := wire.Ref{System: "n2", Kind: "account", ID: "a"}
	tests := []struct {
		name  string
		frame []byte
	}{
		{"garbage", []byte("GET / HTTP/1.1\r\n")},
		{"empty", nil},
		{"bad version", append([]byte{7}, valid(tell(here, "int", nil))[1:]...)},
		{"truncated", valid(tell(here, "test.deposit", []byte{0x08, 0x04}))[:10]},
		{"oversized", valid(tell(here, "bytes", bytes.Repeat([]byte{1}, 8192)))},
		{"for another node", valid(tell(wire.Ref{System: "n3", Kind: "account", ID: "a"}, "int", nil))},
		{"unknown type", valid(tell(here, "no.such.type", []byte{1}))},
		{"undecodable body", valid(tell(here, "test.deposit", []byte{0x0f}))},
		{"no origin", valid(&wire.Envelope{Kind: wire.KindTell, To: here, Type: "int"})},
	}
	conn := ns[0].node.Conn()
	for _, tt := range tests {
		if err := conn.Publish("troupe.n2.$b", tt.frame); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
	}
	// Still serving; the ask travels the same connection after the junk,
	// so its reply means the junk was handled.
	if err := ns[0].sys.Tell(acct, deposit{Amount: 3}); err != nil {
		t.Fatal(err)
	}
	if sum, err := actor.Ask[int64](waitCtx(t), ns[0].sys, acct, "balance"); err != nil || sum != 3 {
		t.Fatalf("after junk: balance %d, %v", sum, err)
	}
	if got := ns[1].node.Stats().Rejected; got != uint64(len(tests)) {
		t.Fatalf("Rejected = %d, want %d", got, len(tests))
	}
}
