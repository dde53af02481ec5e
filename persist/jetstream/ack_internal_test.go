package jetstream

import (
	"testing"

	"github.com/nats-io/nats.go"
)

// pubAckSeq reads the sequence of a publish acknowledgement and takes
// nothing else for one.
func TestPubAckSeq(t *testing.T) {
	for _, c := range []struct {
		name   string
		data   string
		header nats.Header
		seq    uint64
		ok     bool
	}{
		{"plain", `{"stream":"TROUPE_EVENTS","seq":42}`, nil, 42, true},
		{"duplicate", `{"stream":"TROUPE_EVENTS","seq":7,"duplicate":true}`, nil, 7, true},
		{"domain first", `{"stream":"S","domain":"d","seq":9}`, nil, 9, true},
		{"spaced", `{"stream": "S", "seq": 11}`, nil, 11, true},
		{"fenced", `{"error":{"code":400,"err_code":10071,"description":"wrong last sequence: 3"},"stream":"S","seq":0}`, nil, 0, false},
		{"no responders", ``, nats.Header{"Status": {"503"}}, 0, false},
		{"zero", `{"stream":"S","seq":0}`, nil, 0, false},
		{"garbage", `not json`, nil, 0, false},
		{"empty", ``, nil, 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			seq, ok := pubAckSeq(&nats.Msg{Data: []byte(c.data), Header: c.header})
			if seq != c.seq || ok != c.ok {
				t.Fatalf("pubAckSeq(%s) = %d, %v; want %d, %v", c.data, seq, ok, c.seq, c.ok)
			}
		})
	}
}
