package suite

import "github.com/troupe-go/troupe/bench/internal/systems"

// actorScenarios are the actor suite's scenarios, in report order.
var actorScenarios = []Scenario{
	{
		Name: "pingpong",
		Definition: "two actors, each handler tells the other (one preallocated pointer message); 1M round trips, the first tell from outside inside the timed region; per round trip. " +
			"Baseline (raw channels): unbuffered-channel ping-pong between two goroutines",
		Per:    "round trip",
		Params: systems.Params{N: million},
		Targets: []Target{
			{Metric: Time, Against: systems.ProtoActor, Speedup: true, Limit: 8},
			{Metric: Time, Against: systems.RawChannels, Speedup: true, Limit: 0.8},
			{Metric: CPU, Against: systems.RawChannels, Limit: 1.5},
		},
	},
	{
		Name:       "fanin",
		Definition: "8 goroutines × 1M tells of one preallocated pointer message to one actor, released together; time until the actor has handled the last, per message",
		Per:        "message",
		Params:     systems.Params{N: 8 * million, Senders: 8},
		Targets:    []Target{{Metric: Time, Against: systems.ProtoActor, Speedup: true, Limit: 4}},
	},
	{
		Name:       "ask",
		Definition: "one external goroutine asks one actor 300k times in sequence; the handler answers n with n+1; per round trip",
		Per:        "ask",
		Params:     systems.Params{N: 300_000},
		Targets:    []Target{{Metric: Time, Against: systems.ProtoActor, Speedup: true, Limit: 5}},
	},
	{
		Name:       "spawn",
		Definition: "one goroutine spawns 100k actors (no-op handler); time until the last spawn call returns, per actor",
		Per:        "actor",
		Params:     systems.Params{N: 100_000},
		Targets:    []Target{{Metric: Time, Against: systems.ProtoActor, Speedup: true, Limit: 4}},
	},
	{
		Name: "idle_actor",
		Definition: "100k actors, each having handled one message, one fired 1 ms timer (set by its handler, firing as a message to it) and one ask, then idle: " +
			"(HeapInuse+StackInuse) growth and goroutines per actor; one warm-up actor is excluded",
		Per:    "actor",
		Params: systems.Params{N: 100_000},
		Targets: []Target{
			{Metric: Bytes, Limit: 400},
			{Metric: Goroutines, Limit: 0},
		},
	},
	{
		Name:       "idle_1m",
		Definition: "1M actors as in idle_actor: total (HeapInuse+StackInuse) growth, and total time to spawn them from one goroutine (before they are used)",
		Per:        "actor",
		Params:     systems.Params{N: million},
		Targets: []Target{
			{Metric: TotalBytes, Limit: 500},
			{Metric: SpawnTime, Limit: 1.1},
		},
	},
}
