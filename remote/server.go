package remote

import (
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// startServer starts the embedded nats-server: no client port (the node
// connects in-process), a leaf-node listener and remotes if configured.
// Its name carries the node's incarnation: a hub takes a second leaf
// connection from a server of the same name for a reconnection and drops
// the first, so that a second node of one name would push the first off
// the network instead of being refused (see checkUnique).
func startServer(name string, inc uint64, cfg *config, log *serverLog) (*server.Server, *server.Options, error) {
	opts := &server.Options{
		ServerName: "troupe-" + EncodeToken(name) + "-" + strconv.FormatUint(inc, 36),
		DontListen: true,
		NoLog:      true,
		NoSigs:     true,
		MaxPayload: int32(max(cfg.maxFrame, 1<<20)),
	}
	if cfg.leafListen != "" {
		host, port, err := net.SplitHostPort(cfg.leafListen)
		if err != nil {
			return nil, nil, fmt.Errorf("remote: leaf listen address: %w", err)
		}
		p, err := strconv.Atoi(port)
		if err != nil {
			return nil, nil, fmt.Errorf("remote: leaf listen port: %w", err)
		}
		if p == 0 {
			p = server.RANDOM_PORT
		}
		opts.LeafNode.Host, opts.LeafNode.Port = host, p
	}
	if len(cfg.leafRemotes) > 0 {
		opts.LeafNode.ReconnectInterval = 250 * time.Millisecond
		opts.LeafNode.Remotes = append(opts.LeafNode.Remotes, &server.RemoteLeafOpts{URLs: cfg.leafRemotes})
	}
	for _, fn := range cfg.serverOpts {
		fn(opts)
	}
	s, err := server.NewServer(opts)
	if err != nil {
		return nil, nil, fmt.Errorf("remote: embedded server: %w", err)
	}
	s.SetLogger(log, false, false)
	s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		s.Shutdown()
		s.WaitForShutdown()
		return nil, nil, fmt.Errorf("remote: embedded server not ready")
	}
	// The server wrote a randomly chosen leaf port back into opts, under
	// the lock ReadyForConnections took.
	return s, opts, nil
}
