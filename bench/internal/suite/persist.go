package suite

import "github.com/troupe-go/troupe/bench/internal/systems"

// Persist is the persist suite: event-sourced actors (package persist)
// on the JetStream store, against raw JetStream publishing of the same
// bytes to the same kind of stream.
var Persist = Suite{
	Name:      "persist",
	Scenarios: persistScenarios,
	Systems:   []string{systems.Troupe, systems.NATS, systems.Pgx},
	Reference: systems.NATS,
	Peers:     []string{"github.com/nats-io/nats-server/v2", "github.com/nats-io/nats.go", "github.com/jackc/pgx/v5"},
	Method: "One process with an embedded nats-server, JetStream file storage in a fresh temporary directory (default sync interval), connected in-process. " +
		"troupe: persist.EventSourced actors on persist/jetstream.Open; each event is an 8-byte-integer struct in CBOR, one write per message. " +
		"NATS: the same server set-up and stream (persist/jetstream creates it), publishing the very bytes and headers troupe's store wrote for one such event (read back from the stream), to a subject per entity, " +
		"with JetStream publish-with-ack (sequential rows) or async publish (the throughput row). " +
		"Times are wall-clock ns per operation (a rate is 1e9 ÷ the time); CPU is the process's user+sys time over the same region. " +
		"The _p50 rows give a latency quantile as their time figure. " +
		"The PostgreSQL row runs on the server " + systems.PostgresURLEnv + " names (.ci/run starts Debian's postgresql, default settings: each commit waits for its WAL flush), in tables of the case's own; without it the row is n/a.",
}

// persistScenarios are the persist suite's scenarios, in report order.
var persistScenarios = []Scenario{
	{
		Name:       "persist_reply_p50",
		Definition: "20k sequential asks from outside actors to one event-sourced actor that persists one event, then replies; p50 latency. Baseline (NATS): sequential JetStream publish-with-ack of the same bytes",
		Per:        "ask",
		Params:     systems.Params{N: 20_000},
		Targets: []Target{
			{Metric: Time, Against: systems.NATS, Limit: 2},
			{Metric: Time, Limit: 150_000},
		},
	},
	{
		Name:       "persist_events_1000",
		Definition: "1,000 event-sourced actors, each asked 200 times in a row by a goroutine of its own (1,000 at once), each ask persisting one event; time until every ask is answered, per event. Baseline (NATS): 200k async publishes of the same bytes to 1,000 subjects, until every ack",
		Per:        "event",
		Params:     systems.Params{N: 200_000, Actors: 1000},
		Targets: []Target{
			{Metric: Time, Limit: 20_000}, // 50k events/s
			{Metric: Time, Against: systems.NATS, Speedup: true, Limit: 0.5},
		},
	},
	{
		Name:       "persist_recover_1000",
		Definition: "an actor whose entity has 1,000 events and no snapshot: spawn to the answer of its first ask (recovery by replay), 200 times, each actor stopped untimed; per recovery",
		Per:        "recovery",
		Params:     systems.Params{N: 200},
		Targets:    []Target{{Metric: Time, Limit: 5_000_000}},
	},
	{
		Name:       "persist_recover_snap",
		Definition: "as persist_recover_1000, with a snapshot at event 990 (recovery loads it and replays 10 events)",
		Per:        "recovery",
		Params:     systems.Params{N: 200},
		Targets:    []Target{{Metric: Time, Limit: 1_000_000}},
	},
	{
		Name:       "persist_pg_reply_p50",
		Definition: "5k sequential asks from outside actors to one event-sourced actor on the PostgreSQL store (persist/postgres) that persists one event, then replies; p50 latency. Baseline (pgx): sequential INSERTs with pgx of the same row (entity, sequence number, type, version, fence, the same bytes) into a table of the same shape, each its own transaction",
		Per:        "ask",
		Params:     systems.Params{N: 5_000},
		Targets:    []Target{{Metric: Time, Against: systems.Pgx, Limit: 1.5}},
	},
	{
		Name:       "persist_idle_actor",
		Definition: "10k event-sourced actors (int64 state) on the in-memory store (the actor's own memory, not a store's caches), each recovered from a journal of one event and having answered one ask, then idle: bytes per actor minus those of 10k plain actors holding the same int64 state, each having answered one ask, measured before them in the same process",
		Per:        "actor",
		Params:     systems.Params{N: 10_000},
		Targets:    []Target{{Metric: Bytes, Limit: 64}},
	},
}
