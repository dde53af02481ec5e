// Package looplayout says where the groups of a loop.Loop's fields begin,
// for two tests: the loop's TestLoopLayout, which keeps each field in its
// group, and the actor's TestCellLines, which checks that an actor's cell
// lines the groups up with cache lines. One source keeps the two from
// drifting apart. Nothing else uses it.
package looplayout

// Offsets in a loop.Loop, in bytes.
const (
	// ProducersFrom begins the ingress, with the wake-up word, which every
	// producer touches: ProducerBytes of them.
	ProducersFrom = 0
	ProducerBytes = 64
	// ReadOnlyFrom begins the state, config, host, side state and list
	// links, written at set-up and shutdown and when the scheduler's list
	// changes beside the loop.
	ReadOnlyFrom = 64
	// WrittenFrom begins what the loop writes as it runs, first what only
	// its timers, promises and microtasks write.
	WrittenFrom = 120
	// PerRoundFrom begins what the loop writes once a round or an
	// activation.
	PerRoundFrom = 160
	// PerCallFrom begins what the loop writes with every callback, to its
	// end.
	PerCallFrom = 216
)
