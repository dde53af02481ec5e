package suite

import "github.com/troupe-go/troupe/bench/internal/systems"

// Sharding is the sharding suite: entities of package sharding against
// the plain actors they are made of, on one node whose embedded nats-server
// runs the bucket's JetStream in memory.
var Sharding = Suite{
	Name:      "sharding",
	Scenarios: shardingScenarios,
	Systems:   []string{systems.Troupe, systems.ProtoActor},
	Peers:     []string{"github.com/asynkron/protoactor-go"},
	Method: "The one-node rows: one process, an actor.System, its remote.Node with an embedded nats-server running JetStream, and a sharding.Cluster whose bucket is in memory; " +
		"every shard of the kind is owned by this node before the timed region. " +
		"The cluster rows (shard_tell_remote*, shard_failover, shard_join, shard_1m): the case's process runs a nats-server with JetStream (the bucket in memory) and node a, connected over loopback TCP, and re-executes its binary as nodes b, c (and d), each connected alike; " +
		"default lease settings (2 s lease, 500 ms renewal, 400 ms margin); figures are node a's (CPU: its process only). " +
		"Times are wall-clock ns per operation; CPU is the process's user+sys time over the same region. " +
		"The *_plain rows are the baselines of the rows after them, in the same run: troupe's own actors without sharding. " +
		"Proto.Actor's column: its cluster with the automanaged provider (the one that runs without an external service across processes: each member serves its state over HTTP and polls the others' every 2 s) and the disthash identity lookup, members talking Proto.Actor remote (gRPC) over loopback; a grain's PID comes from the sender's PID cache per message, as its grain calls do. " +
		"Its one-node rows: one member alone in one process; its cluster rows: the case's process runs a (a client that runs no grains in shard_tell_remote, a member in shard_failover) and re-executes its binary as members b (and c); its plain rows are its own plain actors alike. " +
		"The claim rows give a latency quantile as their time figure (Cluster.Stats: request to answer of each create, up to 8 in flight).",
}

// shardingScenarios are the sharding suite's scenarios, in report order.
var shardingScenarios = []Scenario{
	{
		Name:       "shard_tell_remote_plain",
		Definition: "1M tells of a 64-byte []byte from outside actors on node a to a plain actor on node b (System.Tell; a tell refused with ErrOverloaded is retried after 100 µs); time until a hears b handled the last, per message",
		Per:        "message",
		Params:     systems.Params{N: million},
	},
	{
		Name:       "shard_tell_remote",
		Definition: "as shard_tell_remote_plain, to one active entity on node b (Ref.Tell from node a, which runs no entities of the kind)",
		Per:        "message",
		Params:     systems.Params{N: million},
		Targets:    []Target{{Metric: Time, Scenario: "shard_tell_remote_plain", Limit: 1.2}},
	},
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
	{
		Name:       "shard_failover",
		Definition: "nodes a, b and c share 256 shards, an entity active on each; c is killed with SIGKILL; time from the kill until an entity of every shard c owned has answered an ask from a (asks retried every 10 ms, each waiting up to 200 ms)",
		Per:        "failover",
		Params:     systems.Params{N: 1},
		Targets:    []Target{{Metric: Time, Limit: 3e9}},
	},
	{
		Name: "shard_join",
		Definition: "nodes a, b and c share 256 shards and 100k active entities (each told once from a); node d starts while a keeps telling the entities in turn; " +
			"time from d's start until a's table shows every shard owned and each of the four nodes within ±1 of 64; then messages lost = sent − handled − dead letters, once all settled",
		Per:     "join",
		Params:  systems.Params{N: 100_000},
		Targets: []Target{{Metric: Time, Limit: 5e9}, {Metric: Lost, Limit: 0}},
	},
	{
		Name:       "shard_mem_active",
		Definition: "one node: 100k idle plain actors, then 100k entities, each having handled one tell; memory per entity minus memory per plain actor, measured side by side in the process",
		Per:        "entity",
		Params:     systems.Params{N: 100_000},
		Targets:    []Target{{Metric: Bytes, Limit: 100}},
	},
	{
		Name: "shard_mem_passivated",
		Definition: "one node: 1M entities each handle one tell, then passivate themselves (sharding.Passivate); then 1M other entities alike; memory the second 1M left per entity once none is active, against before them (the note gives the first 1M's, which includes the high-water mark of the tables). " +
			"1M, not 100k: the heap's and stacks' in-use bytes vary by about ±1 MB between two measurements of a process doing nothing new, ±10 B per entity at 100k",
		Per:     "entity",
		Params:  systems.Params{N: million},
		Targets: []Target{{Metric: Bytes, Limit: 0, Slack: 1}},
	},
	{
		Name:       "shard_1m",
		Definition: "nodes a, b and c share 256 shards; a tells each of 1M new entities one message; time until all are handled, per entity (the note gives messages/s and the memory the three processes grew by)",
		Per:        "entity",
		Params:     systems.Params{N: million},
	},
}

// Lost is shard_join's count of messages neither handled nor dead letters.
var Lost = extraMetric("messages lost", "", systems.ExtraLost)
