package suite

import (
	"fmt"

	"github.com/troupe-go/troupe/bench/internal/systems"
)

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
			{Metric: Time, Against: systems.RawChannels, Speedup: true, Limit: 2},
			{Metric: CPU, Against: systems.RawChannels, Limit: 1},
		},
	},
	{
		Name: "pingpong_typed",
		Definition: "pingpong written with the ref troupegen generates (internal/typedpong): each handler tells the other a Ball " +
			"(a two-word value, a fresh message per hit) through its typed ref; 1M round trips, the first tell from outside inside the timed region; per round trip. " +
			"Baseline: troupe's own pingpong (untyped tells of one preallocated pointer) in the same run. troupe only",
		Per:    "round trip",
		Params: systems.Params{N: million},
		Targets: []Target{
			{Metric: Time, Scenario: "pingpong", Limit: 1.1},
			{Metric: Allocs, Limit: 0, Slack: zeroAllocSlack}, // issue 25
		},
	},
	{
		Name: "fanin",
		Definition: "8 goroutines × 1M tells of one preallocated pointer message to one actor, released together; time until the actor has handled the last, per message. " +
			"Baseline (raw channels): the 8 goroutines send the pointer on one `chan` of capacity 1024 drained by one consumer goroutine",
		Per:    "message",
		Params: systems.Params{N: 8 * million, Senders: 8},
		Targets: []Target{
			{Metric: Time, Against: systems.ProtoActor, Speedup: true, Limit: 4},
			{Metric: Time, Against: systems.RawChannels, Limit: 2},
		},
	},
	{
		Name: "ask",
		Definition: "one external goroutine asks one actor 300k times in sequence; the handler answers n with n+1; per round trip. " +
			"Baseline (raw channels): the goroutine sends n on one unbuffered channel and waits for n+1 on another, from a partner goroutine",
		Per:    "ask",
		Params: systems.Params{N: 300_000},
		Targets: []Target{
			{Metric: Time, Against: systems.ProtoActor, Speedup: true, Limit: 5},
			{Metric: Time, Against: systems.RawChannels, Limit: 2},
		},
	},
	{
		Name:       "spawn",
		Definition: "one goroutine spawns 100k actors (no-op handler); time until the last spawn call returns, per actor",
		Per:        "actor",
		Params:     systems.Params{N: 100_000},
		Targets: []Target{
			{Metric: Time, Limit: 500},
			{Metric: Time, Against: systems.ProtoActor, Speedup: true, Limit: 5},
		},
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
			{Metric: TotalBytes, Limit: 420},
			{Metric: SpawnTime, Limit: 0.6},
		},
	},
	mesh("mesh_100", 100),
	mesh("mesh_10k", 10_000),
	mesh("mesh_1m", million),
	idleTimers("idle_timers_10k", 10_000, false),
	idleTimers("idle_timers_1m", million, false),
	idleTimers("idle_timers_fire_10k", 10_000, true),
	idleTimers("idle_timers_fire_1m", million, true),
}

// mesh is the mesh scenario at one size. Its per-message cost must stay
// flat: at 10k and 1M actors within 1.3× of the cost at 100 (the same
// system, the same run).
func mesh(name string, actors int) Scenario {
	s := Scenario{
		Name: name,
		Definition: fmt.Sprintf("%s actors (spawned untimed), each forwarding every message it receives to a peer picked uniformly at random among them; "+
			"%d messages (preallocated pointers, each carrying its hop count) start from outside and travel 10M hops in all; "+
			"time from the first tell to the last hop handled, per hop (msg/s = 1e9 ÷ it)", countName(actors), systems.MeshTokens),
		Per:    "message",
		Params: systems.Params{N: 10 * million, Actors: actors},
	}
	if actors > 100 {
		s.Targets = []Target{{Metric: Time, Scenario: "mesh_100", Limit: 1.3}}
	}
	return s
}

// idleTimers is idle_timers at one size: re-arming (fire false) or firing.
// The 1M case's cost must stay within 1.5× of the 10k case's.
func idleTimers(name string, actors int, fire bool) Scenario {
	def := countName(actors) + " actors (spawned untimed), each arming one keyed single timer (troupe: Context.Timers().StartSingle; " +
		"Proto.Actor: a scheduler.TimerScheduler.SendOnce per actor, the previous one cancelled) at a random deadline in the next 10 min " +
		"when it handles its first message (untimed), then idle; then 100k tells, each to a random actor, make it re-arm its timer under the same key at a new random deadline in the next 10 min"
	s := Scenario{Name: name, Per: "re-arm", Params: systems.Params{N: 100_000, Actors: actors}}
	if fire {
		def += " (untimed); then every deadline passes: troupe advances its virtual clock (actor.WithClock) by 10 min; time until every actor has handled its timer's message, per fire. " +
			"Systems without a virtual clock: n/a (10 min of real time)"
		s.Per = "fire"
	} else {
		def += "; time from the first tell to the last re-arm handled, per re-arm"
	}
	s.Definition = def
	if actors > 10_000 {
		base := "idle_timers_10k"
		if fire {
			base = "idle_timers_fire_10k"
		}
		s.Targets = []Target{{Metric: Time, Scenario: base, Limit: 1.5}}
	}
	return s
}
