package systems

import (
	"encoding/binary"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/troupe-go/troupe/bench/internal/measure"
)

// NATS names the remote suite's baseline: plain NATS request-reply
// between the same two processes, through the same kind of server.
const NATS = "NATS"

var natsBaseline = register(&System{
	Name: NATS,
	Cases: map[string]Case{
		"remote_ask_p50": func(p Params) (measure.Figures, error) { return natsRequestReply(p, 0.50) },
		"remote_ask_p99": func(p Params) (measure.Figures, error) { return natsRequestReply(p, 0.99) },
	},
})

// natsPeer answers requests on bench.echo with the 8-byte number plus one.
func natsPeer(url string) error {
	nc, err := nats.Connect(url)
	if err != nil {
		return err
	}
	defer nc.Close()
	if _, err := nc.Subscribe("bench.echo", func(m *nats.Msg) {
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], binary.LittleEndian.Uint64(m.Data)+1)
		_ = m.Respond(b[:])
	}); err != nil {
		return err
	}
	if err := nc.Flush(); err != nil {
		return err
	}
	if err := nc.Publish("bench.ready", nil); err != nil {
		return err
	}
	waitStdinClosed()
	return nil
}

// natsRequestReply: p.N sequential requests from process a to the peer's
// echo; the time figure is the q quantile of the latencies.
func natsRequestReply(p Params, q float64) (measure.Figures, error) {
	srv, err := benchServer()
	if err != nil {
		return measure.Figures{}, err
	}
	defer srv.Shutdown()
	nc, err := nats.Connect(srv.ClientURL())
	if err != nil {
		return measure.Figures{}, err
	}
	defer nc.Close()
	ready, err := nc.SubscribeSync("bench.ready")
	if err != nil {
		return measure.Figures{}, err
	}
	if err := nc.Flush(); err != nil {
		return measure.Figures{}, err
	}
	peer, err := startPeer("nats", srv.ClientURL(), 0)
	if err != nil {
		return measure.Figures{}, err
	}
	defer peer.stop()
	if _, err := ready.NextMsg(time.Minute); err != nil {
		return measure.Figures{}, fmt.Errorf("peer not ready: %w", err)
	}
	lat := make([]time.Duration, p.N)
	var b [8]byte
	m := measure.Start()
	for i := range lat {
		binary.LittleEndian.PutUint64(b[:], uint64(i))
		t := time.Now()
		r, err := nc.Request("bench.echo", b[:], time.Minute)
		lat[i] = time.Since(t)
		if err != nil || binary.LittleEndian.Uint64(r.Data) != uint64(i)+1 {
			return measure.Figures{}, fmt.Errorf("request %d: %v", i, err)
		}
	}
	return quantileFigures(m.Stop(p.N), lat, q), nil
}
