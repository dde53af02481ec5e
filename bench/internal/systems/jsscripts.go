package systems

import (
	"math/rand/v2"
	"slices"
	"sort"
	"time"

	"github.com/troupe-go/troupe/bench/internal/measure"
)

// The js suite's scripts, shared by troupe (as CommonJS modules of JS
// actors) and goja_nodejs (evaluated on its loop, with the same
// module.exports). Each exports run(...) returning a promise, and calls
// the host module's now() (monotonic ns) where a scenario needs times:
// require("host") is a registered module for troupe and a two-line shim on
// goja_nodejs.

const jsChainScript = `
module.exports = {
	timeout(n) {
		return new Promise((resolve) => {
			let i = 0;
			const step = () => { if (++i >= n) resolve(i); else setTimeout(step, 0); };
			setTimeout(step, 0);
		});
	},
	immediate(n) {
		return new Promise((resolve) => {
			let i = 0;
			const step = () => { if (++i >= n) resolve(i); else setImmediate(step); };
			setImmediate(step);
		});
	},
	async then(n) {
		let x = 0;
		for (let i = 0; i < n; i++) x = await Promise.resolve(x).then((v) => v + 1);
		return x;
	},
	inc(n) { return n + 1; },
};`

// jsRandomScript schedules one timer per delay in a single turn and
// resolves with the firing order and times once all fired.
const jsRandomScript = `
module.exports = {
	random(delays) {
		const now = require("host").now;
		return new Promise((resolve) => {
			const n = delays.length, order = [], at = [];
			const cb = (i) => {
				order.push(i); at.push(now());
				if (order.length === n) resolve({ order, at, start, end });
			};
			const start = now();
			for (let i = 0; i < n; i++) setTimeout(cb, delays[i], i);
			const end = now();
		});
	},
};`

// jsSmallScript is the js_actor script: JSON, a Map, a Promise and one
// timer; started() tells the host its top level ran.
const jsSmallScript = `
const seen = new Map();
require("host").started();
module.exports = {
	hello(n) {
		seen.set("n", JSON.parse(JSON.stringify({ n })));
		return new Promise((resolve) => setTimeout(() => { seen.delete("n"); resolve(n + 1); }, 1));
	},
};`

// Keys of Figures.Extra in random10k.
const (
	ExtraSchedule    = "schedule_ns"
	ExtraLatenessP50 = "lateness_p50_ns"
	ExtraLatenessP99 = "lateness_p99_ns"
	ExtraLatenessMax = "lateness_max_ns"
	ExtraInversions  = "inversions"
)

// randomDelays returns n seeded delays in [0, 50] ms.
func randomDelays(n int) []int {
	r := rand.New(rand.NewPCG(10, 20))
	out := make([]int, n)
	for i := range out {
		out[i] = r.IntN(51)
	}
	return out
}

// randomFigures computes random10k's figures from a run: delays by timer,
// the firing order, the fire times, and the scheduling turn's start and
// end (all times in ns from one origin).
func randomFigures(delays []int, order []int, at []int64, start, end int64) measure.Figures {
	late := make([]float64, len(order))
	inversions := 0
	type key struct{ delay, seq int }
	var maxSeen key
	for k, i := range order {
		due := max(start+int64(delays[i])*int64(time.Millisecond), end)
		late[k] = float64(at[k] - due)
		cur := key{delays[i], i}
		if k > 0 && (cur.delay < maxSeen.delay || (cur.delay == maxSeen.delay && cur.seq < maxSeen.seq)) {
			inversions++
		} else {
			maxSeen = cur
		}
	}
	sort.Float64s(late)
	pct := func(p float64) float64 { return late[min(len(late)-1, int(p*float64(len(late))))] }
	return measure.Figures{
		Ops:     len(order),
		NsPerOp: float64(end-start) / float64(len(order)),
		Extra: map[string]float64{
			ExtraSchedule:    float64(end - start),
			ExtraLatenessP50: pct(0.50),
			ExtraLatenessP99: pct(0.99),
			ExtraLatenessMax: slices.Max(late),
			ExtraInversions:  float64(inversions),
		},
	}
}

// toInts converts exported JavaScript numbers.
func toInts(v []any) []int64 {
	out := make([]int64, len(v))
	for i, x := range v {
		switch n := x.(type) {
		case int64:
			out[i] = n
		case float64:
			out[i] = int64(n)
		}
	}
	return out
}
