package suite

import "github.com/troupe-go/troupe/bench/internal/systems"

// Remote is the remote suite: two nodes in separate processes, each
// connected over loopback TCP to one nats-server (Proto.Actor's column:
// to each other, by gRPC).
var Remote = Suite{
	Name:      "remote",
	Scenarios: remoteScenarios,
	Systems:   []string{systems.Troupe, systems.NATS, systems.ProtoActor, systems.CBOR, systems.JSON},
	Reference: systems.NATS,
	Peers:     []string{"github.com/nats-io/nats-server/v2", "github.com/nats-io/nats.go", "github.com/fxamacker/cbor/v2", "github.com/asynkron/protoactor-go", "google.golang.org/grpc"},
	Method: "Two processes, each connected over loopback TCP to one nats-server run by the first; the second is the same binary re-executed. " +
		"Proto.Actor's column has no server: each process runs Proto.Actor remote with its default configuration (endpoint writer batches of up to 1000 messages), serving gRPC on its own loopback port and dialling the other's; " +
		"its messages are protobuf well-known wrappers (a 64-byte BytesValue per tell, Int64Value per ask), sent from the root context. " +
		"Times are wall-clock ns per operation in the first process (a rate is 1e9 ÷ the time); CPU is the first process's only. " +
		"The ask rows give a latency quantile as their time figure: each quantile row is its own run of the whole ask series.",
}

// remoteScenarios are the remote suite's scenarios, in report order.
var remoteScenarios = []Scenario{
	{
		Name:       "remote_tell",
		Definition: "1M tells of a 64-byte []byte from outside actors on node 1 to an actor on node 2; time until node 1 hears the last was handled, per message (batching allowed; a tell refused with ErrOverloaded is retried after 100 µs)",
		Per:        "message",
		Params:     systems.Params{N: million},
		Targets: []Target{
			{Metric: Time, Limit: 1000},
			{Metric: Time, Against: systems.ProtoActor, Speedup: true, Limit: 2},
			{Metric: Time, Against: systems.ProtoActor, Speedup: true, Limit: 2.5}, // issue 15
		},
	},
	{
		Name:       "remote_ask_p50",
		Definition: "100k sequential asks from node 1 to an actor on node 2 answering n with n+1; p50 latency. Baseline: plain NATS request-reply between the same two processes",
		Per:        "ask",
		Params:     systems.Params{N: 100_000},
		Targets:    []Target{{Metric: Time, Against: systems.NATS, Limit: 1.3}},
	},
	{
		Name:       "remote_ask_p99",
		Definition: "as remote_ask_p50; p99 latency",
		Per:        "ask",
		Params:     systems.Params{N: 100_000},
		Targets:    []Target{{Metric: Time, Against: systems.NATS, Limit: 1.5}},
	},
	{
		Name: "codec",
		Definition: "marshal + unmarshal, through a wire.Registry, of a struct {int64, 16-byte string, float64, bool, 32-byte []byte} with a hand-written binary codec registered as generated code registers it (wire.RegisterFuncs); 1M times. " +
			"References: the same struct through CBOR and encoding/json (200 ns is about a third of CBOR and a tenth of encoding/json on the machine the targets were set on)",
		Per:    "round trip",
		Params: systems.Params{N: million},
		Targets: []Target{
			{Metric: Time, Limit: 200},
			{Metric: Time, Against: systems.CBOR, Speedup: true, Limit: 3},
			{Metric: Time, Against: systems.CBOR, Speedup: true, Limit: 4}, // issue 15
		},
	},
	{
		Name: "codec_scalars",
		Definition: "marshal + unmarshal of a struct of scalars {int64, int64, float64, bool, uint32} through its binary codec's methods, as generated code calls them (MarshalWire into a reused buffer, UnmarshalWire into a value); 1M times; allocations per round trip from runtime.MemStats.Mallocs. " +
			"Reference: the same struct through CBOR",
		Per:     "round trip",
		Params:  systems.Params{N: million},
		Targets: []Target{{Metric: Allocs, Limit: 0, Slack: zeroAllocSlack}}, // issue 15
	},
	{
		Name:       "server_start",
		Definition: "remote.Start of a node with an embedded nats-server and in-process connection, start to ready; 20 times, each stopped untimed",
		Per:        "start",
		Params:     systems.Params{N: 20},
		Targets:    []Target{{Metric: Time, Limit: 10_000_000}},
	},
}
