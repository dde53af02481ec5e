//go:build unix

package chaos

import (
	"strings"
	"testing"
	"time"
)

// The checker must catch each broken guarantee, and excuse only what the
// faults explain.
func TestCheck(t *testing.T) {
	sec := int64(time.Second)
	sent := func(seq uint64, at int64, owner string) Sent {
		return Sent{Entity: "e1", Sender: "s0", Seq: seq, Time: at * sec, Owner: owner}
	}
	h := func(seq uint64, at int64, proc string, tok uint64) Handled {
		return Handled{Entity: "e1", Sender: "s0", Seq: seq, Token: tok, Proc: proc, Time: at * sec}
	}
	tests := []struct {
		name    string
		sent    []Sent
		handled []Handled
		dead    []Dead
		faults  []Fault
		ok      bool
		want    func(*Report) bool
	}{
		{
			name:    "all handled in order",
			sent:    []Sent{sent(1, 1, "n1"), sent(2, 2, "n1")},
			handled: []Handled{h(1, 1, "n1#1", 5), h(2, 2, "n1#1", 5)},
			ok:      true,
			want:    func(r *Report) bool { return r.Handled == 2 && r.Activations == 1 },
		},
		{
			name:    "a lost message with no fault",
			sent:    []Sent{sent(1, 1, "n1"), sent(2, 2, "n1")},
			handled: []Handled{h(2, 2, "n1#1", 5)},
			want:    func(r *Report) bool { return r.Unexplained == 1 },
		},
		{
			name:    "a lost message with its owner killed",
			sent:    []Sent{sent(1, 1, "n1"), sent(2, 2, "n1")},
			handled: []Handled{h(2, 5, "n2#2", 7)},
			faults:  []Fault{{Kind: "kill", Node: "n1", Start: 1 * sec, End: 3 * sec}},
			ok:      true,
			want:    func(r *Report) bool { return r.LostKilled == 1 && r.LostOwnerKilled == 1 },
		},
		{
			name:   "a kill long after does not explain a loss",
			sent:   []Sent{sent(1, 1, "n1")},
			faults: []Fault{{Kind: "kill", Node: "n1", Start: 100 * sec, End: 101 * sec}},
			want:   func(r *Report) bool { return r.Unexplained == 1 },
		},
		{
			name: "a dead letter accounts for a message",
			sent: []Sent{sent(1, 1, "n1")},
			dead: []Dead{{Entity: "e1", Sender: "s0", Seq: 1, Reason: "sharding: no owner", Proc: "client#1"}},
			ok:   true,
			want: func(r *Report) bool { return r.DeadLetters == 1 && r.DeadAtSender == 1 },
		},
		{
			name:    "handled twice",
			sent:    []Sent{sent(1, 1, "n1")},
			handled: []Handled{h(1, 1, "n1#1", 5), h(1, 2, "n1#1", 5)},
			want:    func(r *Report) bool { return r.Duplicates == 1 },
		},
		{
			name:    "handled and a dead letter",
			sent:    []Sent{sent(1, 1, "n1")},
			handled: []Handled{h(1, 1, "n1#1", 5)},
			dead:    []Dead{{Entity: "e1", Sender: "s0", Seq: 1, Reason: "x", Proc: "n1#1"}},
			want:    func(r *Report) bool { return r.Duplicates == 1 },
		},
		{
			name:    "reordered",
			sent:    []Sent{sent(1, 1, "n1"), sent(2, 2, "n1")},
			handled: []Handled{h(2, 2, "n1#1", 5), h(1, 3, "n1#1", 5)},
			want:    func(r *Report) bool { return r.Reordered == 1 },
		},
		{
			name:    "reordered by a paused owner's late forward",
			sent:    []Sent{sent(1, 1, "n1"), sent(2, 2, "n2")},
			handled: []Handled{h(2, 2, "n2#2", 7), h(1, 4, "n2#2", 7)},
			faults:  []Fault{{Kind: "pause", Node: "n1", Start: 0, End: 3 * sec}},
			ok:      true,
			want:    func(r *Report) bool { return r.ReorderedPaused == 1 },
		},
		{
			name:    "two activations at once",
			sent:    []Sent{sent(1, 1, "n1"), sent(2, 2, "n1"), sent(3, 3, "n1")},
			handled: []Handled{h(1, 1, "n1#1", 5), h(2, 2, "n2#2", 7), h(3, 3, "n1#1", 5)},
			want:    func(r *Report) bool { return r.Overlaps == 1 },
		},
		{
			name:    "a paused owner's late handling, fenced",
			sent:    []Sent{sent(1, 1, "n1"), sent(2, 2, "n1"), sent(3, 3, "n1")},
			handled: []Handled{h(1, 1, "n1#1", 5), h(2, 4, "n2#2", 7), h(3, 6, "n1#1", 5)},
			faults:  []Fault{{Kind: "pause", Node: "n1", Start: 2 * sec, End: 5 * sec}},
			ok:      true,
			want:    func(r *Report) bool { return r.FencedOverlaps == 1 && r.StaleHandled == 1 },
		},
		{
			name:    "one after the other on two nodes",
			sent:    []Sent{sent(1, 1, "n1"), sent(2, 2, "n2")},
			handled: []Handled{h(1, 1, "n1#1", 5), h(2, 2, "n2#2", 7)},
			ok:      true,
			want:    func(r *Report) bool { return r.Activations == 2 && r.Overlaps == 0 },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Check(tt.sent, tt.handled, tt.dead, tt.faults, 5*time.Second, "client#1")
			if r.OK() != tt.ok || !tt.want(r) {
				t.Errorf("OK() = %v, want %v; report:\n%s", r.OK(), tt.ok, r)
			}
		})
	}
}

// A log survives the round trip, and a line cut short is skipped.
func TestLogRoundTrip(t *testing.T) {
	dir := t.TempDir()
	l, err := openLog(dir, "n1#42")
	if err != nil {
		t.Fatal(err)
	}
	h := Handled{Entity: "e7", Sender: "s1", Seq: 9, Token: 33, Proc: "n1#42", Time: 123}
	d := Dead{Entity: "e8", Sender: "s2", Seq: 10, Reason: "sharding: buffer full\tno room", Proc: "n1#42", Time: 456}
	l.handled(h)
	l.dead(d)
	l.write("H\te9\ts1\t1") // a SIGKILL mid-write
	if err := l.close(); err != nil {
		t.Fatal(err)
	}
	hs, ds, torn, err := readLogs(dir)
	if err != nil {
		t.Fatal(err)
	}
	d.Reason = strings.ReplaceAll(d.Reason, "\t", " ")
	if len(hs) != 1 || hs[0] != h || len(ds) != 1 || ds[0] != d || torn != 1 {
		t.Errorf("read %v %v torn %d", hs, ds, torn)
	}
}
