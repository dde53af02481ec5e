// Package looplayout says where the groups of a loop.Loop's fields begin,
// for two tests: the loop's TestLoopLayout, which keeps each field in its
// group, and the actor's TestCellLines, which checks that an actor's cell
// lines the groups up with cache lines. One source keeps the two from
// drifting apart. Nothing else uses it.
package looplayout

// Offsets in a loop.Loop, in bytes.
const (
	// ProducersFrom begins the ingress and the wake-up word, which every
	// producer touches: ProducerBytes of them, the last 16 (the ingress's
	// first letter) written only by a post to an empty lane.
	ProducersFrom = 0
	ProducerBytes = 80
	// ReadOnlyFrom begins the config, host, side state and list links,
	// written at set-up and when the scheduler's list changes beside the
	// loop.
	ReadOnlyFrom = 80
	// WrittenFrom begins what the loop writes as it runs, first what only
	// its timers, promises and microtasks write.
	WrittenFrom = 128
	// PerRoundFrom begins what the loop writes once a round or an
	// activation.
	PerRoundFrom = 168
	// PerCallFrom begins what the loop writes with every callback, to its
	// end.
	PerCallFrom = 216
)
