package main

import (
	"bytes"
	"context"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/troupe-go/troupe/jsactor/isolate"
)

// TestMain runs the sandbox when the host re-executes the test binary as
// its child, as main does.
func TestMain(m *testing.M) {
	isolate.Main()
	goleak.VerifyTestMain(m)
}

// The host survives the untrusted script's crash, sees it as its node
// lost, gets a fresh child, and leaves nothing running.
func TestUntrustedRuns(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var out bytes.Buffer
	if err := run(ctx, &out); err != nil {
		t.Fatal(err)
	}
	if out.String() != want {
		t.Fatalf("output:\n%s\nwant:\n%s", out.String(), want)
	}
}

const want = `untrusted add(2, 3) = 5
untrusted hog(): RangeError: String.prototype.repeat would allocate more than the actor's memory budget (see jsactor.WithMemoryBudget)
untrusted shrink(-1): unreachable: true
host: troupe://sandbox/untrusted/main terminated (unreachable: true)
host: sandbox restarted, untrusted add(4, 5) = 9
`
