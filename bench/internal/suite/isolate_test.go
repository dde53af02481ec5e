package suite_test

import "github.com/troupe-go/troupe/jsactor/isolate"

// The test binary stands in for cmd/compare, whose js suite's isolated
// cases re-execute it as their child processes: like compare's main, it
// calls isolate.Main before anything else (init runs before TestMain).
func init() { isolate.Main() }
