package suite

import "github.com/troupe-go/troupe/bench/internal/systems"

// Sharding is the sharding suite: entities of package sharding against
// the plain actors they are made of, on one node whose embedded nats-server
// runs the bucket's JetStream in memory.
var Sharding = Suite{
	Name:      "sharding",
	Scenarios: shardingScenarios,
	Systems:   []string{systems.Troupe},
	Method: "One process: an actor.System, its remote.Node with an embedded nats-server running JetStream, and a sharding.Cluster whose bucket is in memory; " +
		"every shard of the kind is owned by this node before the timed region. Times are wall-clock ns per operation; CPU is the process's user+sys time over the same region. " +
		"The *_plain rows are the baselines of the rows after them, in the same run: troupe's own actors without sharding. " +
		"The claim rows give a latency quantile as their time figure (Cluster.Stats: request to answer of each create, up to 8 in flight).",
}

// shardingScenarios are the sharding suite's scenarios, in report order.
var shardingScenarios = []Scenario{
	{
		Name:       "shard_tell_plain",
		Definition: "1M tells (System.Tell) from one goroutine outside actors to one local actor; time until it has handled the last, per message",
		Per:        "message",
		Params:     systems.Params{N: million},
	},
	{
		Name:       "shard_tell_local",
		Definition: "as shard_tell_plain, to an active entity on this node (Ref.Tell: the local path)",
		Per:        "message",
		Params:     systems.Params{N: million},
		Targets:    []Target{{Metric: Time, Scenario: "shard_tell_plain", Limit: 1.5}},
	},
	{
		Name:       "shard_first_plain",
		Definition: "100k times from one goroutine: spawn a new actor (System.Spawn) and tell it one message; time until every actor has handled its message, per actor",
		Per:        "actor",
		Params:     systems.Params{N: 100_000},
	},
	{
		Name:       "shard_first_tell",
		Definition: "100k first tells (Ref.Tell) to new entities on shards this node owns; time until every entity has handled its message, per entity",
		Per:        "entity",
		Params:     systems.Params{N: 100_000},
		Targets:    []Target{{Metric: Time, Scenario: "shard_first_plain", Limit: 2}},
	},
	{
		Name:       "shard_claim_p50",
		Definition: "a node claims the 4096 unowned shards of a kind; p50 of the claims' latencies",
		Per:        "claim",
		Params:     systems.Params{N: 4096},
		Targets:    []Target{{Metric: Time, Limit: 1_000_000}},
	},
	{
		Name:       "shard_claim_p99",
		Definition: "as shard_claim_p50; p99",
		Per:        "claim",
		Params:     systems.Params{N: 4096},
		Targets:    []Target{{Metric: Time, Limit: 10_000_000}},
	},
}
