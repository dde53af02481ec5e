package isolate_test

import (
	"os"
	"testing"

	"go.uber.org/goleak"

	"github.com/troupe-go/troupe/jsactor/isolate"
)

// TestMain makes the test binary a child when a Host re-executes it, and
// a parent of its own when TestParentDies does.
func TestMain(m *testing.M) {
	isolate.Main()
	if os.Getenv(envParent) != "" {
		os.Exit(runParent())
	}
	// regexp2's clock runs for a second after the last match with a timeout.
	goleak.VerifyTestMain(m, goleak.IgnoreAnyFunction("github.com/dlclark/regexp2/v2.runClock"))
}
