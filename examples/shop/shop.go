package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/troupe-go/troupe/sharding"
)

// shop is the launcher: the NATS server (JetStream in files: the leases
// and the carts), the node processes, and the front door that spreads
// HTTP requests over the live nodes.
type shop struct {
	cfg   shopConfig
	nats  *server.Server
	front *http.Server
	url   string // the front door

	mu      sync.Mutex
	nodes   map[string]*child
	closing bool
	wg      sync.WaitGroup
}

// shopConfig is how the shop runs.
type shopConfig struct {
	nodes   int
	listen  string // the front door's address
	dir     string // JetStream's store
	exe     string // the binary that runs a node (this one)
	env     func(name, url string) []string
	restart time.Duration // restart a node that died after this; 0: never
	out     io.Writer     // what the nodes and the shop print
}

// child is one node process.
type child struct {
	name string
	cmd  *exec.Cmd
	url  string // its HTTP
	done chan struct{}
}

// startShop starts the NATS server, the nodes and the front door, and
// returns once every node serves HTTP.
func startShop(cfg shopConfig) (*shop, error) {
	s := &shop{cfg: cfg, nodes: map[string]*child{}}
	ns, err := server.NewServer(&server.Options{
		Host: "127.0.0.1", Port: -1, NoLog: true, NoSigs: true,
		JetStream: true, StoreDir: filepath.Join(cfg.dir, "jetstream"), JetStreamDomain: sharding.DefaultDomain,
	})
	if err != nil {
		return nil, err
	}
	go ns.Start()
	if !ns.ReadyForConnections(30 * time.Second) {
		ns.Shutdown()
		return nil, errors.New("shop: nats-server not ready after 30 s")
	}
	s.nats = ns
	for i := 1; i <= cfg.nodes; i++ {
		if err := s.startNode(fmt.Sprintf("n%d", i)); err != nil {
			s.close()
			return nil, err
		}
	}
	ln, err := net.Listen("tcp", cfg.listen)
	if err != nil {
		s.close()
		return nil, err
	}
	s.url = "http://" + ln.Addr().String()
	s.front = &http.Server{Handler: http.HandlerFunc(s.forward), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = s.front.Serve(ln) }()
	return s, nil
}

// startNode starts node name as a process and waits for its HTTP URL.
func (s *shop) startNode(name string) error {
	cmd := exec.Command(s.cfg.exe)
	cmd.Env = s.cfg.env(name, s.nats.ClientURL())
	cmd.Stderr = s.cfg.out
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("shop: start %s: %w", name, err)
	}
	lines := bufio.NewReader(stdout)
	first, err := lines.ReadString('\n')
	if err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return fmt.Errorf("shop: node %s did not start (its errors are above)", name)
	}
	c := &child{name: name, cmd: cmd, url: strings.TrimSpace(first), done: make(chan struct{})}
	s.mu.Lock()
	s.nodes[name] = c
	s.mu.Unlock()
	s.wg.Add(1)
	go s.watch(c, lines)
	return nil
}

// watch copies a node's output and, when it dies, takes it out of the
// front door's rotation and restarts it (if configured).
func (s *shop) watch(c *child, out io.Reader) {
	defer s.wg.Done()
	_, _ = io.Copy(s.cfg.out, out)
	err := c.cmd.Wait()
	close(c.done)
	s.mu.Lock()
	if s.nodes[c.name] == c {
		delete(s.nodes, c.name)
	}
	closing := s.closing
	s.mu.Unlock()
	if closing || s.cfg.restart == 0 {
		return
	}
	fmt.Fprintf(s.cfg.out, "shop: node %s died (%v); restarting it in %v\n", c.name, err, s.cfg.restart)
	time.Sleep(s.cfg.restart)
	if err := s.startNode(c.name); err != nil {
		fmt.Fprintf(s.cfg.out, "shop: %v\n", err)
	}
}

// live returns the nodes that run, by name.
func (s *shop) live() []*child {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*child, 0, len(s.nodes))
	for i := 1; i <= s.cfg.nodes; i++ {
		if c := s.nodes[fmt.Sprintf("n%d", i)]; c != nil {
			out = append(out, c)
		}
	}
	return out
}

// kill kills node name with SIGKILL, as `kill -9` would.
func (s *shop) kill(name string) error {
	s.mu.Lock()
	c := s.nodes[name]
	s.mu.Unlock()
	if c == nil {
		return fmt.Errorf("shop: no node %s", name)
	}
	if err := c.cmd.Process.Kill(); err != nil {
		return err
	}
	<-c.done
	return nil
}

// close stops the front door, makes every node leave gracefully, and
// stops the NATS server.
func (s *shop) close() {
	s.mu.Lock()
	s.closing = true
	s.mu.Unlock()
	if s.front != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		_ = s.front.Shutdown(ctx)
		cancel()
	}
	for _, c := range s.live() {
		_ = c.cmd.Process.Signal(os.Interrupt)
	}
	s.wg.Wait()
	s.nats.Shutdown()
	s.nats.WaitForShutdown()
}
