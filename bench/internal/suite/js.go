package suite

import (
	"github.com/troupe-go/troupe/bench/internal/measure"
	"github.com/troupe-go/troupe/bench/internal/systems"
)

// JS is the js suite: JavaScript on goja, troupe's JS actors (jsactor)
// against goja_nodejs's event loop running the same scripts.
var JS = Suite{
	Name:      "js",
	Scenarios: jsScenarios,
	Systems:   []string{systems.Troupe, systems.GojaNodejs},
	Reference: systems.GojaNodejs,
	Peers:     []string{"github.com/dop251/goja_nodejs", "github.com/dop251/goja"},
	Method: "Times are wall-clock ns per operation (a rate is 1e9 ÷ the time); CPU is the child's user+sys time over the same timed region, per operation. " +
		"troupe runs each script in a JS actor (jsactor, default options unless a note says otherwise) of one actor.System; goja_nodejs runs it on one started eventloop.EventLoop per script. " +
		"random10k's figures are whole-case: the scheduling turn's length, the lateness percentiles of the 10k timers, and the count of inversions. " +
		"Memory is (HeapInuse+StackInuse) growth after runtime.GC() twice, per actor (troupe) or per started loop (goja_nodejs), each having handled one message.",
}

// Metrics of random10k, read from Figures.Extra (durations in ns).
var (
	ScheduleTime = extraMetric("schedule turn", "ns", systems.ExtraSchedule)
	LatenessP50  = extraMetric("lateness p50", "ns", systems.ExtraLatenessP50)
	LatenessP99  = extraMetric("lateness p99", "ns", systems.ExtraLatenessP99)
	LatenessMax  = extraMetric("lateness max", "ns", systems.ExtraLatenessMax)
	Inversions   = extraMetric("inversions", "", systems.ExtraInversions)
)

func extraMetric(name, unit, key string) Metric {
	return Metric{Name: name, Unit: unit, Total: true, get: func(f measure.Figures) float64 { return f.Extra[key] }}
}

// jsScenarios are the js suite's scenarios, in report order.
var jsScenarios = []Scenario{
	{
		Name:       "settimeout0_chain",
		Definition: "one script chains 100k setTimeout(f, 0) (each callback sets the next; no nested-timeout clamping); from the first call to the last callback, per step",
		Per:        "step",
		Params:     systems.Params{N: 100_000},
		Targets: []Target{
			{Metric: Time, Limit: 1000},
			{Metric: Time, Against: systems.GojaNodejs, Speedup: true, Limit: 2.7},
		},
	},
	{
		Name:       "setimmediate_chain",
		Definition: "one script chains 100k setImmediate(f); per step",
		Per:        "step",
		Params:     systems.Params{N: 100_000},
		Targets: []Target{
			{Metric: Time, Limit: 500},
			{Metric: Time, Against: systems.GojaNodejs, Speedup: true, Limit: 2.4},
		},
	},
	{
		Name:       "then_step",
		Definition: "an async function runs 1M sequential steps x = await Promise.resolve(x).then(v => v + 1), O(1) promises live; per step",
		Per:        "step",
		Params:     systems.Params{N: million},
		Targets:    []Target{{Metric: Time, Against: systems.GojaNodejs, Limit: 1.1}},
	},
	{
		Name: "random10k",
		Definition: "one script turn schedules 10k setTimeout callbacks with seeded random delays in [0, 50] ms (integers). " +
			"schedule turn = that turn's length; lateness = fire time − max(turn start + delay, turn end), p50/p99/max; " +
			"inversions = callbacks that fired after one with a later (delay, scheduling order)",
		Per:    "timer",
		Params: systems.Params{N: 10_000},
		Targets: []Target{
			{Metric: ScheduleTime, Limit: 10e6},
			{Metric: LatenessP99, Limit: 2e6},
			{Metric: Inversions, Limit: 0},
		},
	},
	{
		Name:       "js_ask",
		Definition: "an external goroutine asks a JS actor whose handler returns its argument + 1, sequentially, 100k times (goja_nodejs: RunOnLoop calling the same function, the result sent back over a channel); per round trip",
		Per:        "round trip",
		Params:     systems.Params{N: 100_000},
		Targets:    []Target{{Metric: Time, Limit: 5000}},
	},
	{
		Name: "js_actor",
		Definition: "1,000 JS actors of one small script (JSON, a Map, a Promise, one 1 ms timer), each having handled one message (its timer fired), then idle: " +
			"(HeapInuse+StackInuse) growth per actor; one warm-up actor is excluded",
		Per:     "actor",
		Params:  systems.Params{N: 1000},
		Targets: []Target{{Metric: Bytes, Limit: 64 << 10}},
	},
	{
		Name:       "js_actor_spawn",
		Definition: "spawn 10k JS actors of the js_actor script from one goroutine; time until every script's top level has run, per actor",
		Per:        "actor",
		Params:     systems.Params{N: 10_000},
		Targets:    []Target{{Metric: Time, Limit: 50_000}},
	},
	{
		Name: "js_isolated_spawn",
		Definition: "troupe only (jsactor/isolate): spawn 20 groups of one JS actor of the js_actor script, one after the other from one goroutine, " +
			"each in a child process of its own; time from Host.Spawn until its actor has answered hello, per group (a warm-up group is excluded). " +
			"CPU adds the children's user+sys time (/proc, 10 ms ticks). Baseline: troupe's js_actor_spawn (per actor, in process) in the same run",
		Per:     "group",
		Params:  systems.Params{N: 20},
		Targets: []Target{{Metric: Time, Scenario: "js_actor_spawn", Limit: isolatedSpawnLimit}},
	},
	{
		Name: "js_isolated_ask",
		Definition: "troupe only: js_ask against the same actor in an isolated child process, reached over the host's embedded NATS (loopback TCP), sequentially, 10k times; per round trip. " +
			"CPU adds the child's. Baseline: troupe's js_ask (in process) in the same run",
		Per:     "round trip",
		Params:  systems.Params{N: 10_000},
		Targets: []Target{{Metric: Time, Scenario: "js_ask", Limit: isolatedAskLimit}},
	},
	{
		Name: "js_isolated_actor",
		Definition: "troupe only: 10 isolated groups of one js_actor actor, each having handled one message, then idle: per group, the child's resident memory (VmRSS; its Pss in the JSON samples) " +
			"plus the host's (HeapInuse+StackInuse) growth; a warm-up group is excluded. Baseline: troupe's js_actor (per actor, in process) in the same run",
		Per:     "group",
		Params:  systems.Params{N: 10},
		Targets: []Target{{Metric: Bytes, Scenario: "js_actor", Limit: isolatedMemoryLimit}},
	},
}

// The costs of an isolated JS actor that jsactor/isolate stays within,
// against one in process (issue 28): a group is meant to hold a tenant's
// actors, not one each, so it may cost as much as a small process, but
// no more.
const (
	isolatedSpawnLimit  = 1000 // a fork, an exec and a Go runtime's start, against an actor's
	isolatedAskLimit    = 50   // two loopback hops through the host's server and a serialization each way
	isolatedMemoryLimit = 1000 // a Go runtime's resident memory, against a JS actor's heap
)
