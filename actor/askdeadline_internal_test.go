package actor

import (
	"testing"
	"time"
)

func TestAskSlotFor(t *testing.T) {
	for _, tc := range []struct {
		timeout, want time.Duration
	}{
		{64 * time.Microsecond, time.Microsecond},           // a 64th of a short timeout
		{100 * time.Millisecond, 1562500 * time.Nanosecond}, // still a 64th
		{5 * time.Second, 10 * time.Millisecond},            // at most 10 ms late
		{time.Hour, time.Hour / 1024},                       // at most 1024 slots pending
	} {
		if got := askSlotFor(tc.timeout); got != tc.want {
			t.Errorf("askSlotFor(%v) = %v, want %v", tc.timeout, got, tc.want)
		}
	}
}

// TestAskDeadlinesShareASlot: asks started within one slot share one
// channel (one timer); a later one gets a fresh one.
func TestAskDeadlinesShareASlot(t *testing.T) {
	d := newAskDeadlines(time.Hour) // slots of 3.5 s
	a, b := d.expiry(), d.expiry()
	if a != b {
		t.Fatal("two asks a moment apart got different deadlines")
	}
	d.cur.Load().opened -= d.slot // the slot is over
	if c := d.expiry(); c == a {
		t.Fatal("an ask after the slot shares its deadline")
	}
}

// TestAskDeadlineNeverEarly: every ask of a slot, the last included, is
// due before the slot's channel is closed.
func TestAskDeadlineNeverEarly(t *testing.T) {
	const timeout = 320 * time.Millisecond // slots of 5 ms, longer than a timer's lateness
	d := newAskDeadlines(timeout)
	first := time.Now()
	ch := d.expiry()
	last := first
	for {
		now := time.Now()
		if d.expiry() != ch {
			break
		}
		last = now // an ask that started at now shares ch
	}
	<-ch
	if late := time.Since(last); late < timeout {
		t.Fatalf("an ask of the slot timed out after %v, before its %v", late, timeout)
	}
}
