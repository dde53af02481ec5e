package main

import (
	"bytes"
	"context"
	"os"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// TestMain runs the sandbox node when the host re-executes the test
// binary as its child.
func TestMain(m *testing.M) {
	if url := os.Getenv(envSandbox); url != "" {
		if err := sandbox(context.Background(), url, os.Stdin); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	goleak.VerifyTestMain(m)
}

// The host survives the untrusted script's crash, sees it as its node
// lost, and leaves nothing running.
func TestUntrustedRuns(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run(ctx, &out, bin); err != nil {
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
host: still serving, sandbox exit: true
`
