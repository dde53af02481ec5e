package suite

import (
	"fmt"
	"strings"

	"github.com/troupe-go/troupe/bench/internal/measure"
	"github.com/troupe-go/troupe/bench/internal/systems"
)

// Metric is one figure of a case, read from its [measure.Figures].
type Metric struct {
	Name string
	Unit string
	// Total marks a figure for the whole case rather than per operation.
	Total bool
	get   func(measure.Figures) float64
}

// Value returns the metric's figure in f.
func (m Metric) Value(f measure.Figures) float64 { return m.get(f) }

// The metrics targets are stated in.
var (
	Time       = Metric{Name: "time", Unit: "ns", get: func(f measure.Figures) float64 { return f.NsPerOp }}
	CPU        = Metric{Name: "CPU", Unit: "ns", get: func(f measure.Figures) float64 { return f.CPUNsPerOp }}
	Allocs     = Metric{Name: "allocs", get: func(f measure.Figures) float64 { return f.AllocsPerOp }}
	Bytes      = Metric{Name: "memory", Unit: "B", get: func(f measure.Figures) float64 { return f.BytesPerOp }}
	Goroutines = Metric{Name: "goroutines", get: func(f measure.Figures) float64 { return f.GoroutinesPerOp }}
	FDs        = Metric{Name: "fds", get: func(f measure.Figures) float64 { return f.FDsPerOp }}
	// TotalBytes is the whole case's memory growth, in MB.
	TotalBytes = Metric{Name: "total memory", Unit: "MB", Total: true, get: func(f measure.Figures) float64 {
		return f.BytesPerOp * float64(f.Ops) / 1e6
	}}
	// SpawnTime is the whole timed region of idle_1m, its spawn, in seconds.
	SpawnTime = Metric{Name: "spawn time, total", Unit: "s", Total: true, get: func(f measure.Figures) float64 {
		return f.NsPerOp * float64(f.Ops) / 1e9
	}}
)

// Target is one pass/fail criterion for troupe in a scenario.
//
//   - Against == "": troupe's figure must be ≤ Limit.
//   - Against set, Speedup false: troupe's figure / Against's must be ≤ Limit.
//   - Against set, Speedup true: Against's figure / troupe's must be ≥ Limit.
//   - Scenario set: troupe's figure / troupe's in Scenario must be ≤ Limit.
//
// Ratios are taken run by run (run i of troupe with run i of the other
// system), since runs are interleaved.
type Target struct {
	Metric  Metric
	Against string
	Speedup bool
	// Scenario, when set, makes the baseline troupe's own figure in the
	// named scenario of the same run (a flatness target: the cost at a
	// large size against a small one); Against is then empty.
	Scenario string
	Limit    float64
	// Slack is added to Limit for zero targets, so amortised growth (one
	// allocation in a million pairs) does not read as a miss.
	Slack float64
}

// String states the target as the report prints it.
func (t Target) String() string {
	switch {
	case t.Scenario != "":
		return fmt.Sprintf("≤ %.3g× %s", t.Limit, t.Scenario)
	case t.Against == "" && t.Limit == 0 && t.Slack > 0:
		return fmt.Sprintf("0 (≤ %g)", t.Slack)
	case t.Against == "" && t.Limit == 0:
		return "0"
	case t.Against == "":
		return strings.TrimSpace(fmt.Sprintf("≤ %g %s", t.Limit, t.Metric.Unit))
	case t.Speedup && t.Limit < 1:
		return fmt.Sprintf("≥ %.3g× the speed of %s", t.Limit, t.Against)
	case t.Speedup:
		return fmt.Sprintf("≥ %.3g× faster than %s", t.Limit, t.Against)
	default:
		return fmt.Sprintf("≤ %.3g× %s", t.Limit, t.Against)
	}
}

// meets reports whether one value (a figure or a ratio) meets the target.
func (t Target) meets(v float64) bool {
	if t.Speedup {
		return v >= t.Limit
	}
	return v <= t.Limit+t.Slack
}

// Scenario is one row group of the suite.
type Scenario struct {
	Name       string
	Definition string
	// Per names the operation figures are divided by.
	Per     string
	Params  systems.Params
	Targets []Target
}

// ParamsFor returns the scenario's counts, divided by 100 in quick mode
// (microtask batches keep their size; at least one round remains).
func (s Scenario) ParamsFor(quick bool) systems.Params {
	p := s.Params
	if quick {
		p.N = max(p.N/100, max(p.Batch, 1))
		p.Pending /= 100
		p.Actors /= 100
	}
	return p
}

const (
	million        = 1_000_000
	zeroAllocSlack = 0.001
)

// loopScenarios are the loop suite's scenarios, in report order.
var loopScenarios = []Scenario{
	{
		Name:       "submit_exec",
		Definition: "one external goroutine submits 1M no-op tasks to a running loop; time from the first submit to the last task's execution, per task",
		Per:        "task",
		Params:     systems.Params{N: million},
		Targets: []Target{
			{Metric: Time, Limit: 50},
			{Metric: Time, Against: systems.GoEventloop, Speedup: true, Limit: 1.5},
		},
	},
	{
		Name:       "roundtrip",
		Definition: "an external goroutine submits a task that signals back over an unbuffered channel, 200k times; per round trip. Baseline (raw channels): unbuffered-channel ping-pong between two goroutines",
		Per:        "round trip",
		Params:     systems.Params{N: 200_000},
		Targets: []Target{
			{Metric: Time, Against: systems.RawChannels, Limit: 1.1},
			{Metric: CPU, Against: systems.RawChannels, Limit: 1.5},
		},
	},
	timerOnLoop("timer_onloop_p0", 0, 40),
	timerOnLoop("timer_onloop_p10k", 10_000, 60),
	timerOnLoop("timer_onloop_p1m", million, 80),
	{
		Name:       "timer_external",
		Definition: "from an external goroutine: schedule a 1 h timer and cancel it (off-loop cancel is asynchronous where the system allows), 100k times, timed until a task queued after the last pair has run; per pair",
		Per:        "pair",
		Params:     systems.Params{N: 100_000},
		Targets:    []Target{{Metric: Time, Limit: 300}},
	},
	{
		Name:       "fire_1m_due",
		Definition: "1M timers whose deadlines have all passed (virtual clock advanced past them), then drained: per fired timer, from the start of the drain to the last callback. Peers without a virtual clock: real-clock 1 ms timers, timed from once every deadline has passed",
		Per:        "timer",
		Params:     systems.Params{N: million},
		Targets:    []Target{{Metric: Time, Limit: 300}},
	},
	{
		Name:       "microtask",
		Definition: "on the loop: enqueue 1,000 microtasks, drain, 1,000 times (each round is one task; the next round is submitted from it); per microtask",
		Per:        "microtask",
		Params:     systems.Params{N: million, Batch: 1000},
		Targets:    []Target{{Metric: Time, Limit: 20}},
	},
	{
		Name:       "promise_then",
		Definition: "on the loop: create a promise, attach one Then, resolve it, drain (the reaction starts the next iteration); 1M times; per iteration",
		Per:        "iteration",
		Params:     systems.Params{N: million},
		Targets:    []Target{{Metric: Time, Limit: 150}},
	},
	{
		Name:       "idle_loop",
		Definition: "10k loops (troupe: driven loops of one scheduler; peers: their loops, each started), each having run one task, one fired 1 ms timer and one settled promise, then idle: (HeapInuse+StackInuse) growth, goroutines and fds per loop; one warm-up loop is excluded",
		Per:        "loop",
		Params:     systems.Params{N: 10_000},
		Targets: []Target{
			{Metric: Bytes, Limit: 400},
			{Metric: Goroutines, Limit: 0},
			{Metric: FDs, Limit: 0},
		},
	},
	{
		Name:       "idle_loop_timer",
		Definition: "as idle_loop, each loop also holding one pending 1 h timer",
		Per:        "loop",
		Params:     systems.Params{N: 10_000},
		Targets:    []Target{{Metric: Bytes, Limit: 600}, {Metric: Bytes, Limit: 500}}, // 500: issue 15
	},
}

func timerOnLoop(name string, pending int, limitNs float64) Scenario {
	return Scenario{
		Name: name,
		Definition: "inside one task on the loop: schedule " + countName(pending) +
			" other 1 h timers (untimed), then schedule a 1 h timer and cancel it, 1M times; per pair; allocs per pair from runtime.MemStats.Mallocs",
		Per:    "pair",
		Params: systems.Params{N: million, Pending: pending},
		Targets: []Target{
			{Metric: Time, Limit: limitNs},
			{Metric: Allocs, Limit: 0, Slack: zeroAllocSlack},
		},
	}
}

// countName writes 10000 as 10k and 1000000 as 1M.
func countName(n int) string {
	switch {
	case n >= million && n%million == 0:
		return fmt.Sprintf("%dM", n/million)
	case n >= 1000 && n%1000 == 0:
		return fmt.Sprintf("%dk", n/1000)
	default:
		return fmt.Sprint(n)
	}
}
