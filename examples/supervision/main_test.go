package main

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/troupe-go/troupe/loop"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// runDemo runs the scenes on vc (nil: the real clock) and returns the
// demo and its output.
func runDemo(t *testing.T, vc *loop.VirtualClock) (*demo, string) {
	t.Helper()
	var out bytes.Buffer
	d, err := newDemo(&out, vc)
	if err != nil {
		t.Fatal(err)
	}
	runErr := d.run()
	if err := d.shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if runErr != nil {
		t.Fatalf("%v; output:\n%s", runErr, out.String())
	}
	return d, out.String()
}

// wantLines are lines, or beginnings of lines, every run prints.
var wantLines = []string{
	"one-for-one: a crashed and restarted alone; jobs done: a=0 b=2",
	"all-for-one: c crashed and both restarted; jobs done: c=0 d=0",
	"  d restarted because: actor: sibling troupe://supervision/team/all-for-one/worker/c failed",
	"escalation: fragile crash 1, restarted after a 50ms backoff",
	"escalation: fragile crash 2, restarted after a 100ms backoff",
	"escalation: fragile crash 3 is past its limit of 2 restarts; team restarted: actor: child troupe://supervision/team/strict/worker/fragile escalated",
	"  team strict: worker fragile stopped: actor: troupe://supervision/team/strict/worker/fragile: restart limit (2 in 1m0s) exceeded",
	"  team strict: restarting: actor: child troupe://supervision/team/strict/worker/fragile escalated",
}

func checkOutput(t *testing.T, out string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	for _, want := range wantLines {
		if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, want) }) {
			t.Errorf("no line %q in:\n%s", want, out)
		}
	}
	if len(lines) != len(wantLines) {
		t.Errorf("%d lines, want %d:\n%s", len(lines), len(wantLines), out)
	}
}

// TestScenesVirtualClock: on the virtual clock, each restart of the
// fragile worker comes exactly its exponential backoff after its crash.
func TestScenesVirtualClock(t *testing.T) {
	d, out := runDemo(t, loop.NewVirtualClock())
	checkOutput(t, out)
	want := []time.Duration{backoffMin, 2 * backoffMin}
	if !slices.Equal(d.backoffs, want) {
		t.Fatalf("restarts came %v after the crashes, want %v", d.backoffs, want)
	}
}

// TestScenesRealClock: the command's own run, on the real clock, prints
// the same story; restarts never come before their backoff.
func TestScenesRealClock(t *testing.T) {
	d, out := runDemo(t, nil)
	checkOutput(t, out)
	for i, got := range d.backoffs {
		if min := backoffMin << i; got < min {
			t.Fatalf("restart %d came %v after the crash, before its %v backoff", i+1, got, min)
		}
	}
}
