package remote_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/troupe-go/troupe/actortest"
	"github.com/troupe-go/troupe/remote"
	"github.com/troupe-go/troupe/remote/wire"
)

func TestMalformedInputIsRejected(t *testing.T) {
	ns := cluster(t, 2, remote.WithMaxFrame(4096))
	acct := spawnAccount(t, ns[1], "a")
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
		if err := conn.Publish("troupe.n2.$n.n1", tt.frame); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
	}
	// Still serving; the ask travels the same connection after the junk,
	// so its reply means the junk was handled.
	if err := ns[0].sys.Tell(acct, deposit{Amount: 3}); err != nil {
		t.Fatal(err)
	}
	if sum := actortest.Ask[int64](ns[0].System, acct, "balance"); sum != 3 {
		t.Fatalf("after junk: balance %d", sum)
	}
	if got := ns[1].node.Stats().Rejected; got != uint64(len(tests)) {
		t.Fatalf("Rejected = %d, want %d", got, len(tests))
	}
	// n2 tells the frames' origin of the tells it rejected after reading
	// them: n1, which did not send them, dead-letters them.
	for _, want := range []string{"not this node", "unknown message type", "malformed input"} {
		var re *remote.Error
		if d := ns[0].ExpectDeadLetter(); !errors.As(d.Reason, &re) || re.Node != "n2" || !strings.Contains(d.Reason.Error(), want) {
			t.Fatalf("dead letter = %+v, want one rejected by n2: %s", d, want)
		}
	}
}
