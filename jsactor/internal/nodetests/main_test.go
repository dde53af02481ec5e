package nodetests_test

import (
	"testing"

	"go.uber.org/goleak"
)

// regexp2's clock runs for a second after the last match with a timeout.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreAnyFunction("github.com/dlclark/regexp2/v2.runClock"))
}
