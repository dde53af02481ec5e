package jsactor_test

import (
	"cmp"
	"slices"
	"testing"
	"time"
)

// Delays beyond 2^31-1 ms (Infinity, 1e300) are clamped to it: such
// timers fire after about 24.8 days of virtual time, not at once and not
// in a hot loop.
func TestHugeDelay(t *testing.T) {
	r := newRig(t)
	ref := r.spawn("huge", `module.exports = {
		go() {
			setTimeout(() => emit("timeout"), 1e300);
			const id = setInterval(() => { emit("interval"); clearInterval(id) }, Infinity);
			self.timers.startFixedRate("k", 1e300, "keyed");
		},
		keyed() { emit("keyed"); self.timers.cancel("k") },
	};`)
	r.call(ref, "go")
	r.advance(time.Hour)
	r.quiet(ref)
	r.advance((1<<31-1)*time.Millisecond - time.Hour)
	got := r.expect(3)
	slices.SortFunc(got, func(a, b any) int { return cmp.Compare(a.(string), b.(string)) })
	if !slices.Equal(got, []any{"interval", "keyed", "timeout"}) {
		t.Fatalf("fired %v", got)
	}
	r.quiet(ref)
}
