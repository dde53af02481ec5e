package main

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"go.uber.org/goleak"

	"github.com/troupe-go/troupe/remote"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// The cluster runs from start to end, with no setup, and leaves nothing
// running.
func TestClusterRuns(t *testing.T) {
	tests := []struct {
		name string
		url  func(t *testing.T) string
	}{
		{"embedded servers and leaf nodes", func(*testing.T) string { return "" }},
		{"external server", externalServer},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			var out bytes.Buffer
			if err := run(ctx, &out, tt.url(t), heartbeat); err != nil {
				t.Fatal(err)
			}
			if out.String() != want {
				t.Fatalf("output:\n%s\nwant:\n%s", out.String(), want)
			}
		})
	}
}

// heartbeat: the demo's quick 100 ms heartbeat, but a live node is lost
// only after a minute of silence, the test's deadline: a loaded machine
// that runs the nodes' heartbeats late loses none, and the killed courier
// is still found at once, by the hub's ping (see loseCourier).
var heartbeat = remote.WithHeartbeat(100*time.Millisecond, 600)

// externalServer starts a stand-alone nats-server on a free loopback port
// and returns its URL.
func externalServer(t *testing.T) string {
	t.Helper()
	s, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: server.RANDOM_PORT, NoLog: true, NoSigs: true})
	if err != nil {
		t.Fatal(err)
	}
	s.Start()
	t.Cleanup(func() { s.Shutdown(); s.WaitForShutdown() })
	if !s.ReadyForConnections(30 * time.Second) {
		t.Fatal("nats-server not ready")
	}
	return s.ClientURL()
}

const want = `shop spawned troupe://courier/courier/bike
warehouse has 1 apples left
bike delivered 9 apples (delivery #1)
reserve 5 apples: remote warehouse: warehouse: only 1 apples left
troupe://warehouse/pricer/main quotes 3 apples at 1.50 (ledger entries: 1)
troupe://warehouse/pricer/main quotes 2 pears at 1.50 (ledger entries: 2)
quote for plums: remote warehouse: jsactor: Error: no price for plums
killing node courier
dispatcher: troupe://courier/courier/bike is gone (unreachable: true)
shop asks troupe://courier/courier/bike again: unreachable: true
`
