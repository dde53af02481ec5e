package systems

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// The remote suite's topology is two processes, each connected over
// loopback TCP to one nats-server. The case's process (node "a") starts
// the server and re-executes its own binary as the second node ("b"),
// with peerEnv set; that process runs the peer side from init, before
// main parses any flag, and exits when its standard input closes.
const peerEnv = "TROUPE_BENCH_REMOTE_PEER"

func init() {
	spec, ok := os.LookupEnv(peerEnv)
	if !ok {
		return
	}
	stop := StartProfile("peer")
	err := runPeer(spec)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "remote peer:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// runPeer parses "mode=M,url=U,n=N" and serves until stdin closes.
func runPeer(spec string) error {
	kv := map[string]string{}
	for _, part := range strings.Split(spec, ",") {
		k, v, _ := strings.Cut(part, "=")
		kv[k] = v
	}
	n, _ := strconv.Atoi(kv["n"])
	switch kv["mode"] {
	case "troupe":
		return troupePeer(kv["url"], n)
	case "nats":
		return natsPeer(kv["url"])
	case "protoactor":
		return protoPeer(kv["url"], n) // url is node 1's Proto.Actor address
	}
	return fmt.Errorf("unknown mode in %q", spec)
}

// benchServer starts a nats-server listening on a free loopback port.
func benchServer() (*server.Server, error) {
	s, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: server.RANDOM_PORT, NoLog: true, NoSigs: true})
	if err != nil {
		return nil, err
	}
	s.Start()
	if !s.ReadyForConnections(30 * time.Second) {
		s.Shutdown()
		return nil, fmt.Errorf("nats-server not ready")
	}
	return s, nil
}

// peerProcess is the second node's process.
type peerProcess struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
}

// startPeer re-executes this binary as the peer node.
func startPeer(mode, url string, n int) (*peerProcess, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=mode=%s,url=%s,n=%d", peerEnv, mode, url, n))
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &peerProcess{cmd: cmd, stdin: stdin}, nil
}

// stop closes the peer's stdin and waits for it to exit.
func (p *peerProcess) stop() error {
	_ = p.stdin.Close()
	return p.cmd.Wait()
}

// waitStdinClosed blocks until the parent closes our stdin.
func waitStdinClosed() { _, _ = io.Copy(io.Discard, os.Stdin) }
