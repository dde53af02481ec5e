//go:build unix

package chaos

import (
	"fmt"
	"net"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/troupe-go/troupe/sharding"
)

// hub is the run's NATS server, with JetStream storing in files: every
// node connects to it. It restarts on the same port and store.
type hub struct {
	dir  string
	port int
	s    *server.Server
}

func startHub(dir string) (*hub, error) {
	h := &hub{dir: dir, port: -1}
	if err := h.start(); err != nil {
		return nil, err
	}
	h.port = h.s.Addr().(*net.TCPAddr).Port
	return h, nil
}

func (h *hub) start() error {
	s, err := server.NewServer(&server.Options{
		Host: "127.0.0.1", Port: h.port, NoLog: true, NoSigs: true,
		JetStream: true, StoreDir: h.dir, JetStreamDomain: sharding.DefaultDomain,
	})
	if err != nil {
		return fmt.Errorf("chaos: nats server: %w", err)
	}
	go s.Start()
	if !s.ReadyForConnections(30 * time.Second) {
		s.Shutdown()
		return fmt.Errorf("chaos: nats server not ready after 30s")
	}
	h.s = s
	return nil
}

func (h *hub) url() string { return fmt.Sprintf("nats://127.0.0.1:%d", h.port) }

// restart stops the server and starts it again on the same port and store.
func (h *hub) restart() error {
	h.stop()
	return h.start()
}

func (h *hub) stop() {
	h.s.Shutdown()
	h.s.WaitForShutdown()
}
