package netactor_test

import (
	"os"
	"testing"

	"go.uber.org/goleak"
)

// TestMain runs the client side of the many-connections test when the
// test binary is started as that child process, and the tests otherwise.
func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		os.Exit(runChild())
	}
	prepare()
	goleak.VerifyTestMain(m)
}
