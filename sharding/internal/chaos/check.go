//go:build unix

package chaos

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"
)

// Report is what [Check] found.
type Report struct {
	Sent, Handled int
	// DeadLetters counts messages given up with a reason, by reason
	// (shortened) in DeadBy; DeadAtSender those the client's own node
	// gave up.
	DeadLetters, DeadAtSender int
	DeadBy                    map[string]int
	// DeadExample is one full reason of each kind in DeadBy, with the
	// process that gave up.
	DeadExample map[string]string
	// LostKilled: sent, neither handled nor a dead letter, and a node was
	// killed (or left) while it could have held them; LostNATS: the same
	// around a NATS server restart; LostOwnerKilled: of LostKilled, those
	// whose owner at the time of sending (by the client's table) was the
	// node killed.
	LostKilled, LostNATS, LostOwnerKilled int
	// Unexplained: lost without a fault that explains it. A failure.
	Unexplained int
	// Duplicates: messages handled more than once, or handled and also a
	// dead letter. A failure.
	Duplicates int
	// Reordered: messages handled after a later one of the same sender to
	// the same entity. A failure, except ReorderedPaused: those sent to
	// an owner that was paused at the time, which forwarded them when it
	// resumed, behind later ones the sender had sent to the new owner
	// (the case package sharding documents).
	Reordered, ReorderedPaused int
	// Activations: distinct (entity, process, lease token) spans;
	// Overlaps: pairs of them, for one entity, that handled messages in
	// overlapping spans of time (a failure); FencedOverlaps: those where
	// the older-token side is a paused process handling late after it
	// resumed, whose writes a store given fencing tokens rejects;
	// StaleHandled: the messages it so handled; NoLease: messages handled
	// while sharding.Token said the node held no lease.
	Activations, Overlaps, FencedOverlaps, StaleHandled, NoLease int
	// Torn: log lines cut short by a SIGKILL, skipped.
	Torn int
	// Unowned is the longest stretch of the run during which the
	// client's table named no owner for some shard, from UnownedSince.
	Unowned      time.Duration
	UnownedSince time.Time
	// Faults: how many of each kind the run made.
	Faults map[string]int
	// Problems: the first few failures, described.
	Problems []string
}

// OK reports whether the run kept every guarantee the check verifies.
func (r *Report) OK() bool {
	return r.Unexplained == 0 && r.Duplicates == 0 && r.Reordered == 0 && r.Overlaps == 0
}

// String prints the counts.
func (r *Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "faults: %v\n", r.Faults)
	fmt.Fprintf(&b, "sent %d: handled %d, dead letters %d (%d at the sender's node), lost with a killed node %d (owner at send killed: %d), lost in a NATS restart %d, unexplained %d\n",
		r.Sent, r.Handled, r.DeadLetters, r.DeadAtSender, r.LostKilled, r.LostOwnerKilled, r.LostNATS, r.Unexplained)
	reasons := make([]string, 0, len(r.DeadBy))
	for k, v := range r.DeadBy {
		reasons = append(reasons, fmt.Sprintf("%d × %s", v, k))
	}
	slices.Sort(reasons)
	fmt.Fprintf(&b, "dead letters by reason: %s\n", strings.Join(reasons, "; "))
	for _, k := range slices.Sorted(maps.Keys(r.DeadExample)) {
		fmt.Fprintf(&b, "  e.g. %s\n", r.DeadExample[k])
	}
	fmt.Fprintf(&b, "duplicates %d, reordered %d (and %d sent to a paused owner, overtaken when it forwarded them on resuming), activations %d, overlapping activations %d, fenced overlaps after a pause %d (%d stale handlings a fencing store rejects), handled without a lease %d, torn log lines %d\n",
		r.Duplicates, r.Reordered, r.ReorderedPaused, r.Activations, r.Overlaps, r.FencedOverlaps, r.StaleHandled, r.NoLease, r.Torn)
	if r.Unowned > 0 {
		fmt.Fprintf(&b, "longest stretch with a shard unowned: %v, from %s\n", r.Unowned.Round(time.Millisecond), r.UnownedSince.Format("15:04:05.000"))
	}
	for _, p := range r.Problems {
		fmt.Fprintf(&b, "  problem: %s\n", p)
	}
	return b.String()
}

func (r *Report) problem(format string, args ...any) {
	if len(r.Problems) < 20 {
		r.Problems = append(r.Problems, fmt.Sprintf(format, args...))
	}
}

// msgKey names one message.
type msgKey struct {
	sender string
	seq    uint64
}

// Check verifies the logs of a run. hold is how long a node may hold a
// message before handling it or giving up on it (its buffer time plus a
// lease and some slack): a message lost within hold after it was sent
// of a node's kill is lost with that node. sender is the client node's
// process name.
func Check(sent []Sent, handled []Handled, dead []Dead, faults []Fault, hold time.Duration, sender string) *Report {
	r := &Report{Sent: len(sent), DeadBy: map[string]int{}, DeadExample: map[string]string{}, Faults: map[string]int{}}
	for _, f := range faults {
		r.Faults[f.Kind]++
	}
	got := map[msgKey]int{}
	for _, h := range handled {
		got[msgKey{h.Sender, h.Seq}]++
		if h.Token == 0 {
			r.NoLease++
		}
	}
	gave := map[msgKey]bool{}
	for _, d := range dead {
		k := msgKey{d.Sender, d.Seq}
		if gave[k] {
			continue // one message may be reported by sharding and by the system both
		}
		gave[k] = true
		r.DeadLetters++
		r.DeadBy[shortReason(d.Reason)]++
		if _, ok := r.DeadExample[shortReason(d.Reason)]; !ok {
			r.DeadExample[shortReason(d.Reason)] = d.Proc + ": " + d.Reason
		}
		if d.Proc == sender {
			r.DeadAtSender++
		}
		if got[k] > 0 {
			r.Duplicates++
			r.problem("%s/%d to %s handled and also a dead letter (%s)", d.Sender, d.Seq, d.Entity, d.Reason)
		}
	}
	for k, n := range got {
		r.Handled++
		if n > 1 {
			r.Duplicates += n - 1
			r.problem("%s/%d handled %d times", k.sender, k.seq, n)
		}
	}
	for _, s := range sent {
		k := msgKey{s.Sender, s.Seq}
		if got[k] > 0 || gave[k] {
			continue
		}
		r.account(s, faults, hold)
	}
	bySent := make(map[msgKey]Sent, len(sent))
	for _, s := range sent {
		bySent[msgKey{s.Sender, s.Seq}] = s
	}
	r.checkOrder(handled, bySent, faults)
	r.checkActivations(handled, faults)
	return r
}

// account explains a lost message by a fault, or counts it unexplained.
func (r *Report) account(s Sent, faults []Fault, hold time.Duration) {
	for _, f := range faults {
		if f.End < s.Time-int64(time.Second) || f.Start > s.Time+int64(hold) {
			continue // over before the message was sent, or began after it was settled
		}
		switch f.Kind {
		case "kill", "leave-failed":
			r.LostKilled++
			if f.Node == s.Owner {
				r.LostOwnerKilled++
			}
			return
		case "restart-nats":
			r.LostNATS++
			return
		}
	}
	r.Unexplained++
	r.problem("%s/%d to %s (sent %s, owner then %q) neither handled nor a dead letter, with no kill near",
		s.Sender, s.Seq, s.Entity, time.Unix(0, s.Time).Format("15:04:05.000"), s.Owner)
}

// checkOrder counts messages handled after a later one of the same
// sender to the same entity.
func (r *Report) checkOrder(handled []Handled, sent map[msgKey]Sent, faults []Fault) {
	type pair struct{ entity, sender string }
	by := map[pair][]Handled{}
	for _, h := range handled {
		p := pair{h.Entity, h.Sender}
		by[p] = append(by[p], h)
	}
	for _, hs := range by {
		sort.SliceStable(hs, func(i, j int) bool { return hs[i].Time < hs[j].Time })
		var top Handled
		for i, h := range hs {
			switch {
			case i == 0 || h.Seq > top.Seq:
			case sentToPaused(sent[msgKey{h.Sender, h.Seq}], faults):
				r.ReorderedPaused++
			default:
				r.Reordered++
				r.problem("%s/%d to %s handled by %s after %s/%d (by %s)", h.Sender, h.Seq, h.Entity, h.Proc, top.Sender, top.Seq, top.Proc)
			}
			if h.Seq > top.Seq {
				top = h
			}
		}
	}
}

// span is one activation: an entity's handlings in one process under one
// lease.
type span struct {
	entity, proc string
	token        uint64
	first, last  int64
	times        []int64
}

// checkActivations finds activations of one entity that handled messages
// at overlapping times.
func (r *Report) checkActivations(handled []Handled, faults []Fault) {
	type key struct {
		entity, proc string
		token        uint64
	}
	spans := map[key]*span{}
	for _, h := range handled {
		k := key{h.Entity, h.Proc, h.Token}
		s := spans[k]
		if s == nil {
			s = &span{entity: h.Entity, proc: h.Proc, token: h.Token, first: h.Time, last: h.Time}
			spans[k] = s
		}
		s.first, s.last = min(s.first, h.Time), max(s.last, h.Time)
		s.times = append(s.times, h.Time)
	}
	r.Activations = len(spans)
	byEntity := map[string][]*span{}
	for _, s := range spans {
		byEntity[s.entity] = append(byEntity[s.entity], s)
	}
	for _, ss := range byEntity {
		sort.Slice(ss, func(i, j int) bool { return ss[i].first < ss[j].first })
		for i, a := range ss {
			for _, b := range ss[i+1:] {
				if b.first > a.last {
					break
				}
				r.overlap(a, b, faults)
			}
		}
	}
}

// overlap judges two activations of one entity whose spans overlap.
// sentToPaused reports whether s went to an owner paused at the time.
func sentToPaused(s Sent, faults []Fault) bool {
	for _, f := range faults {
		if f.Kind == "pause" && f.Node == s.Owner && f.Start <= s.Time && s.Time <= f.End {
			return true
		}
	}
	return false
}

func (r *Report) overlap(a, b *span, faults []Fault) {
	old, fresh := a, b
	if old.token > fresh.token {
		old, fresh = fresh, old
	}
	if old.token < fresh.token && old.token != 0 && resumedLate(old, fresh, faults) {
		r.FencedOverlaps++
		for _, t := range old.times {
			if t >= fresh.first {
				r.StaleHandled++
			}
		}
		return
	}
	r.Overlaps++
	r.problem("entity %s active in %s (token %d, %s–%s) and in %s (token %d, %s–%s) at once",
		a.entity, a.proc, a.token, clock(a.first), clock(a.last), b.proc, b.token, clock(b.first), clock(b.last))
}

// resumedLate reports whether old's process was paused before fresh began
// and handled on after it resumed: the case the fencing token is for.
func resumedLate(old, fresh *span, faults []Fault) bool {
	for _, f := range faults {
		if f.Kind == "pause" && f.Node == nodeOf(old.proc) && f.Start <= fresh.first && old.last >= f.End {
			return true
		}
	}
	return false
}

func clock(t int64) string { return time.Unix(0, t).Format("15:04:05.000") }

// shortReason keeps a dead letter's reason short enough to count by.
func shortReason(s string) string {
	if i := strings.Index(s, ": "); i >= 0 {
		if j := strings.Index(s[i+2:], ": "); j >= 0 {
			s = s[:i+2+j]
		}
	}
	if len(s) > 80 {
		s = s[:80]
	}
	return s
}
