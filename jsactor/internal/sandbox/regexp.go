package sandbox

import (
	"sync"
	"time"

	"github.com/dlclark/regexp2/v2"
)

// goja runs patterns Go's linear-time regexp cannot (back references,
// lookaround) on regexp2, a backtracking engine where a pattern such as
// /^(a+)+(?=c)/ takes exponential time in native code the watchdog
// cannot interrupt. regexp2 has a match timeout, but only as its
// process-wide default (regexp2.DefaultMatchTimeout), which goja's
// compiled patterns pick up.

var regexpTimeoutOnce sync.Once

// BoundRegexps sets regexp2's process-wide match timeout to d, the first
// time it is called (later calls change nothing). Call it before goja
// compiles a pattern: when a script is compiled, when an actor is
// configured.
func BoundRegexps(d time.Duration) {
	regexpTimeoutOnce.Do(func() { regexp2.DefaultMatchTimeout = d })
}
