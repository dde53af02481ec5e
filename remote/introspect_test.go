package remote_test

import (
	"testing"

	"github.com/troupe-go/troupe/actor"
)

func TestTransportStatsListPeersAndCounters(t *testing.T) {
	ns := cluster(t, 2)
	acct := spawnAccount(t, ns[1], "a1")
	if _, err := actor.Ask[int64](waitCtx(t), ns[0].sys, acct, "balance"); err != nil {
		t.Fatal(err)
	}
	ts, ok := ns[0].sys.TransportStats()
	if !ok {
		t.Fatal("the node's system reports no transport stats")
	}
	if ts.Node != "n1" || len(ts.Peers) != 1 || ts.Peers[0].Node != "n2" || !ts.Peers[0].Reachable {
		t.Fatalf("transport stats %+v", ts)
	}
	if ts.Counters["sent"] == 0 || ts.Counters["frames_received"] == 0 {
		t.Fatalf("counters %v", ts.Counters)
	}
}
