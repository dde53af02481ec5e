package remote

import (
	"testing"

	"github.com/troupe-go/troupe/remote/wire"
)

// TestNamesakeAnswer: only a heartbeat answering this very ping stops a
// start; a heartbeat of an earlier run still in flight does not.
func TestNamesakeAnswer(t *testing.T) {
	const me, other = 0x1234, 0x9999
	hb := func(node string, inc uint64, h ...wire.Header) []byte {
		return wire.AppendFrame(nil, &wire.Envelope{Kind: wire.KindHeartbeat, Node: node, Corr: inc, Headers: h})
	}
	answer := wire.Header{Key: namesakeHeader, Value: "1234"}
	tests := []struct {
		name string
		m    []byte
		want uint64
	}{
		{"answer", hb("n", other, answer), other},
		{"heartbeat of an earlier run", hb("n", other), 0},
		{"answer to another ping", hb("n", other, wire.Header{Key: namesakeHeader, Value: "5"}), 0},
		{"own heartbeat", hb("n", me, answer), 0},
		{"another node's", hb("m", other, answer), 0},
		{"garbage", []byte("x"), 0},
	}
	for _, tt := range tests {
		got, _, ok := namesakeAnswer(tt.m, "n", me)
		if got != tt.want || ok != (tt.want != 0) {
			t.Errorf("%s: %x, %v, want %x", tt.name, got, ok, tt.want)
		}
	}
}
