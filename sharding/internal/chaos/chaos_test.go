//go:build unix

package chaos

import (
	"os"
	"strconv"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	MaybeNode()
	goleak.VerifyTestMain(m)
}

// TestChaos is the bounded run CI makes: 3 nodes, a scripted kill -9 and
// restart, a SIGSTOP past the leases, a graceful leave and join, and
// another kill. CHAOS_LONG=1 makes the full run instead (CHAOS_MINUTES,
// default 5; CHAOS_NATS_RESTART=0 leaves the NATS server alone);
// CHAOS_NATS=1 restarts the NATS server under load, and kills a node.
func TestChaos(t *testing.T) {
	if testing.Short() {
		t.Skip("a chaos run takes about a minute")
	}
	cfg := Config{
		Dir: t.TempDir(), Exe: os.Args[0], Args: []string{"-test.run=^$"},
		Nodes: 3, Entities: 2000, Senders: 4, Rate: 400, Shards: 64,
		Idle: 5 * time.Second, Buffer: 4 * time.Second, Seed: 1, Logf: t.Logf,
		Faults: []Step{
			{At: 2 * time.Second, Kind: "kill", Node: "n2", For: time.Second},
			{At: 5 * time.Second, Kind: "pause", Node: "n3", For: lease + 1500*time.Millisecond},
			{At: 11 * time.Second, Kind: "leave", Node: "n1", For: 2 * time.Second},
			{At: 16 * time.Second, Kind: "kill", Node: "n3", For: time.Second},
		},
	}
	if os.Getenv("CHAOS_NATS") != "" { // a NATS restart alone, under load
		cfg.Faults = []Step{{At: 3 * time.Second, Kind: "restart-nats"}, {At: 20 * time.Second, Kind: "kill", Node: "n2", For: time.Second}}
	}
	if os.Getenv("CHAOS_LONG") != "" {
		minutes, _ := strconv.Atoi(os.Getenv("CHAOS_MINUTES"))
		cfg.Nodes, cfg.Entities, cfg.Senders, cfg.Rate, cfg.Shards = 5, 10_000, 8, 2000, 256
		cfg.Faults, cfg.Duration, cfg.Buffer = nil, time.Duration(max(minutes, 5))*time.Minute, 10*time.Second
		cfg.NATS = os.Getenv("CHAOS_NATS_RESTART") != "0"
		cfg.Seed = uint64(time.Now().UnixNano())
		dir, err := os.MkdirTemp("", "troupe-chaos") // kept, for the nodes' output
		if err != nil {
			t.Fatal(err)
		}
		cfg.Dir = dir
		t.Logf("logs in %s", dir)
	}
	rep, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("chaos run (seed %d):\n%s", cfg.Seed, rep)
	if !rep.OK() {
		t.Errorf("the run broke a guarantee:\n%s", rep)
	}
	if rep.Handled == 0 || rep.Faults["kill"] == 0 {
		t.Errorf("the run did not run: %s", rep)
	}
}
