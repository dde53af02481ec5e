package systems

import (
	"context"
	"net"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/examples/kvserver/kv"
	"github.com/troupe-go/troupe/netactor"

	"github.com/troupe-go/troupe/bench/internal/measure"
)

// troupe's column of the io suite: netactor connection actors on one
// actor.System; kv is examples/kvserver's server, run in this process.
func init() {
	troupe.Cases["echo"] = echoCase(troupeEchoServer)
	troupe.Cases["idle_conn"] = idleConnCase(troupeEchoServer)
	troupe.Cases["kv"] = kvCase(troupeKVServer)
}

// troupeEcho is the echo connection actor.
type troupeEcho struct{}

func (troupeEcho) Receive(*actor.Context, any) (any, error) { return nil, nil }

func (troupeEcho) Data(_ *actor.Context, conn *netactor.Conn, p []byte) { _, _ = conn.Write(p) }

func troupeEchoServer() (string, func(), error) {
	s, err := troupeActorSystem()
	if err != nil {
		return "", nil, err
	}
	srv, err := netactor.Serve(s, "echo", "server", "tcp", "127.0.0.1:0",
		func() netactor.ConnActor { return troupeEcho{} })
	if err != nil {
		troupeActorShutdown(s)
		return "", nil, err
	}
	return srv.Addr().String(), func() { troupeIOShutdown(s) }, nil
}

func troupeKVServer() (int, func() time.Duration, func(), error) {
	s, err := troupeActorSystem()
	if err != nil {
		return 0, nil, nil, err
	}
	srv, err := kv.Start(s, "tcp", "127.0.0.1:0", 4)
	if err != nil {
		troupeActorShutdown(s)
		return 0, nil, nil, err
	}
	port := srv.Addr().(*net.TCPAddr).Port
	return port, measure.CPUTime, func() { troupeIOShutdown(s) }, nil
}

// troupeIOShutdown stops a system whose connections may still be open;
// their linger is short, the clients are gone or going.
func troupeIOShutdown(s *actor.System) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_ = s.Shutdown(ctx)
}
