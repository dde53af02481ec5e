package jsactor

import (
	"sync"
	"time"

	"github.com/dlclark/regexp2/v2"
)

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

var regexpTimeoutOnce sync.Once

func boundRegexps() {
	regexpTimeoutOnce.Do(func() { regexp2.DefaultMatchTimeout = RegexpMatchTimeout })
}
