package main

import (
	"bytes"
	"strings"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestRun plays rallies of several lengths: each round trip is two hits,
// one by each player, and the command shuts the system down.
func TestRun(t *testing.T) {
	tests := []struct {
		rounds int
		want   []string
	}{
		{1, []string{"alice served; 1 round trips played", "alice hit the ball 1 times, bob 1 times"}},
		{1000, []string{"alice served; 1000 round trips played", "alice hit the ball 1000 times, bob 1000 times"}},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		if err := run(&out, tt.rounds); err != nil {
			t.Fatalf("run(%d): %v", tt.rounds, err)
		}
		lines := strings.Split(out.String(), "\n")
		if len(lines) < 3 || lines[0] != tt.want[0] || lines[1] != tt.want[1] || !strings.Contains(lines[2], "round trips/s") {
			t.Fatalf("run(%d) printed:\n%s\nwant first lines %q", tt.rounds, out.String(), tt.want)
		}
	}
}

// TestRunBadRounds: a rally of no round trips is refused.
func TestRunBadRounds(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out, 0); err == nil || !strings.Contains(err.Error(), "at least one round trip") {
		t.Fatalf("run(0): %v, want a refused rally", err)
	}
}
