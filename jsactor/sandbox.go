package jsactor

import (
	"errors"
	"time"

	"github.com/dop251/goja"

	"github.com/troupe-go/troupe/jsactor/internal/sandbox"
)

// The sandbox's knobs. The guards themselves (memory guards, watchdog,
// regexp bound, stack cleaning) are in internal/sandbox, which knows
// nothing of actors: these are the values jsactor hands it.

// DefaultMemoryBudget is the most one builtin call of a JS actor may
// allocate unless WithMemoryBudget says otherwise.
const DefaultMemoryBudget = 256 << 20

// WithMemoryBudget bounds what one call of a JavaScript builtin may
// allocate: a string built by repeat, padStart, padEnd, concat or join,
// an array filled, sorted or made by Array.from, an ArrayBuffer or typed
// array, the text JSON.stringify makes. A call over the budget throws a
// RangeError the script can catch. Strings count two bytes per UTF-16
// code unit, array elements 16 bytes each. The default is
// DefaultMemoryBudget.
//
// The budget bounds each call, not the actor's total: a script can still
// build up memory a step at a time (the watchdog bounds how long each turn
// may take doing so). See the package doc, "What the sandbox guarantees".
func WithMemoryBudget(bytes int64) Option {
	return func(c *config) error {
		if bytes <= 0 {
			return errors.New("jsactor: WithMemoryBudget needs bytes > 0")
		}
		c.memBudget = bytes
		return nil
	}
}

// memoryBudget is the memory budget of one builtin call.
func (c *config) memoryBudget() int64 {
	if c.memBudget > 0 {
		return c.memBudget
	}
	return DefaultMemoryBudget
}

// installMemGuards puts the memory guards in the Runtime. On the loop,
// after installGlobals, before the script runs.
func (in *instance) installMemGuards() {
	in.cached().mem = sandbox.NewMemGuard(in.rt, in.cached().origGlobal, in.cfg.memoryBudget())
	in.rt.SetMaxBigIntBits(int(min(in.cfg.memoryBudget()*8, goja.DefaultMaxBigIntBits)))
}

// RegexpMatchTimeout bounds one match of a backtracking regular
// expression. goja runs patterns Go's linear-time regexp cannot (back
// references, lookaround) on regexp2, a backtracking engine where a
// pattern such as /^(a+)+(?=c)/ takes exponential time in native code the
// watchdog cannot interrupt. A match that runs out of time fails as if
// the pattern did not match (goja reports no error; an exception would
// be better, but goja gives no way to raise one).
//
// jsactor sets regexp2's process-wide default (regexp2.DefaultMatchTimeout)
// to this value when the first script is compiled or JS actor configured, so it also
// bounds other goja runtimes of the process that are created afterwards.
const RegexpMatchTimeout = time.Second

func boundRegexps() { sandbox.BoundRegexps(RegexpMatchTimeout) }

// UnwatchedTurns returns how many turns, in this process, ran without the
// watchdog because all its slots were busy (see WithBudget).
func UnwatchedTurns() uint64 { return sandbox.UnwatchedTurns() }
