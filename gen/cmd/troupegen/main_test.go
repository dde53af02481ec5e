package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestProblems: bad input prints the warnings and then the problems, as
// the golden files of the generator's error cases have them, and exits
// with status 1. Each case runs the go command; the generator's own tests
// cover the problems themselves, so three cases (a Go actor with
// warnings, a JavaScript actor, a hand-written file in the way) do unless
// TROUPE_GEN_EXHAUSTIVE is set, as in CI.
func TestProblems(t *testing.T) {
	cases := []string{"bad_types", "js_clashes", "bad_overwrite"}
	if os.Getenv("TROUPE_GEN_EXHAUSTIVE") != "" {
		cases = append(cases, "bad_clashes", "bad_directives", "bad_messages", "bad_near_miss", "bad_signals", "js_bad", "js_refs")
	}
	for _, tc := range cases {
		t.Run(tc, func(t *testing.T) {
			t.Parallel()
			want, err := os.ReadFile("../../testdata/" + tc + "/errors.golden")
			if err != nil {
				t.Fatal(err)
			}
			if warns, err := os.ReadFile("../../testdata/" + tc + "/warnings.golden"); err == nil {
				want = append(warns, want...)
			}
			var stderr bytes.Buffer
			if code := run("../../testdata/"+tc+"/input", nil, &stderr); code != 1 {
				t.Fatalf("exit status %d, want 1", code)
			}
			if stderr.String() != string(want) {
				t.Fatalf("stderr:\n%s\nwant:\n%s", stderr.String(), want)
			}
		})
	}
}

// TestNoRuntimeDeps: troupegen names the runtime in the code it writes
// but does not link it (nor its logger) into its binary.
func TestNoRuntimeDeps(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, dep := range strings.Fields(string(out)) {
		switch dep {
		case "github.com/troupe-go/troupe/actor", "github.com/troupe-go/troupe/loop", "go.uber.org/zap":
			t.Errorf("troupegen depends on %s", dep)
		}
	}
}

func TestUsage(t *testing.T) {
	var stderr bytes.Buffer
	if code := run(".", []string{"extra"}, &stderr); code != 2 {
		t.Fatalf("exit status %d, want 2", code)
	}
	if !bytes.Contains(stderr.Bytes(), []byte("usage: troupegen")) {
		t.Fatalf("stderr: %s", stderr.String())
	}
}
