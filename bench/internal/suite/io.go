package suite

import "github.com/troupe-go/troupe/bench/internal/systems"

// ioScenarios are the io suite's scenarios, in report order.
var ioScenarios = []Scenario{
	{
		Name: "echo",
		Definition: "64 client connections in a separate process, each sending a 64-byte message and awaiting its echo, for 10 s (N is the duration in ms); per round trip (msg/s = 1e9 ÷ time). " +
			"Baseline: a net server with one goroutine per connection",
		Per:    "round trip",
		Params: systems.Params{N: 10_000, Senders: 64},
		Targets: []Target{
			{Metric: Time, Against: systems.NetGoroutine, Speedup: true, Limit: 1},
			// Issue 15: ≥ 1.1× at no more CPU per round trip.
			{Metric: Time, Against: systems.NetGoroutine, Speedup: true, Limit: 1.1},
			{Metric: CPU, Against: systems.NetGoroutine, Limit: 1},
		},
	},
	{
		Name: "idle_conn",
		Definition: "10k connections opened by a separate process, each having made one 64-byte round trip, then idle: the server's (HeapInuse+StackInuse) growth, goroutines and fds per connection; " +
			"one warm-up connection is excluded; scaled down to RLIMIT_NOFILE if needed",
		Per:    "connection",
		Params: systems.Params{N: 10_000},
		Targets: []Target{
			{Metric: Bytes, Against: systems.NetGoroutine, Limit: 0.25},
			// Slack: a scheduler worker's poller goroutine, started by its
			// first watched fd, amortised over the connections.
			{Metric: Goroutines, Limit: 0, Slack: 0.001},
		},
	},
	{
		Name: "kv",
		Definition: "redis-benchmark -t set,get -n 200000 -P 16 -c 50 -q against examples/kvserver (4 shards, in the case's process) and against redis-server (persistence off), same machine, same run; " +
			"per operation, the mean of SET's and GET's reported rates; CPU is the server process's",
		Per:     "operation",
		Params:  systems.Params{N: 200_000},
		Targets: []Target{{Metric: Time, Against: systems.RedisServer, Speedup: true, Limit: 0.5}},
	},
}

// IO is the io suite.
var IO = Suite{
	Name:      "io",
	Scenarios: ioScenarios,
	Systems:   []string{systems.Troupe, systems.NetGoroutine, systems.RedisServer},
	Reference: systems.NetGoroutine,
	Method: "Times are wall-clock ns per operation (a rate is 1e9 ÷ the time); CPU is the server's user+sys time over the same region, per operation " +
		"(for redis-server read from /proc in 10 ms ticks). Memory is (HeapInuse+StackInuse) growth of the server process after runtime.GC() twice, per connection. " +
		"Clients always run in another process.",
}
