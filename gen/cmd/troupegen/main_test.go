package main

import (
	"bytes"
	"os"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestProblems: bad input prints the problems, as the golden files of
// the generator's error cases have them, and exits with status 1.
func TestProblems(t *testing.T) {
	for _, tc := range []string{"bad_clashes", "bad_directives", "bad_signals", "bad_types", "js_bad", "js_clashes", "js_refs"} {
		t.Run(tc, func(t *testing.T) {
			want, err := os.ReadFile("../../testdata/" + tc + "/errors.golden")
			if err != nil {
				t.Fatal(err)
			}
			t.Chdir("../../testdata/" + tc + "/input")
			var stderr bytes.Buffer
			if code := run(nil, &stderr); code != 1 {
				t.Fatalf("exit status %d, want 1", code)
			}
			if stderr.String() != string(want) {
				t.Fatalf("stderr:\n%s\nwant:\n%s", stderr.String(), want)
			}
		})
	}
}

func TestUsage(t *testing.T) {
	var stderr bytes.Buffer
	if code := run([]string{"extra"}, &stderr); code != 2 {
		t.Fatalf("exit status %d, want 2", code)
	}
	if !bytes.Contains(stderr.Bytes(), []byte("usage: troupegen")) {
		t.Fatalf("stderr: %s", stderr.String())
	}
}
