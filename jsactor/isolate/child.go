package isolate

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/remote"
)

// childGrace bounds the child's own goodbye once told to stop: less than
// the parent's default stop grace, and short for an orphan, whose
// goodbye no one hears.
const childGrace = time.Second

// runChild is Main in a child process: it returns the exit code.
func runChild(mc mainConfig) int {
	ctrl, status := os.NewFile(fdControl, "isolate-control"), os.NewFile(fdStatus, "isolate-status")
	if ctrl == nil || status == nil {
		fmt.Fprintf(os.Stderr, "isolate: %s is set but this process has no control pipes: it was not started by isolate\n", envChild)
		return 2
	}
	in := bufio.NewReader(ctrl)
	cfg, err := readConfig(in)
	if err == nil {
		err = serveChild(cfg, mc, status, in)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "isolate: child %s: %v\n", cfg.Group, err)
		return 1
	}
	return 0
}

// readConfig reads the one line of configuration the parent sends.
func readConfig(in *bufio.Reader) (childConfig, error) {
	var cfg childConfig
	line, err := in.ReadBytes('\n')
	if err != nil {
		return cfg, fmt.Errorf("reading config: %w", err)
	}
	if err := json.Unmarshal(line, &cfg); err != nil {
		return cfg, fmt.Errorf("decoding config: %w", err)
	}
	return cfg, nil
}

// serveChild sets the limits, joins the parent, runs the setup, reports
// ready and serves until the control pipe closes or SIGTERM comes.
func serveChild(cfg childConfig, mc mainConfig, status *os.File, ctrl io.Reader) error {
	sys, n, err := startChild(cfg, mc)
	if err != nil {
		fmt.Fprintf(status, "%s%s\n", statusError, oneLine(err.Error()))
		return err
	}
	fmt.Fprintln(status, statusReady)
	_ = status.Close()

	stop := make(chan struct{})
	go func() { _, _ = io.Copy(io.Discard, ctrl); close(stop) }()
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	select {
	case <-stop:
	case <-sig:
	}
	ctx, cancel := context.WithTimeout(context.Background(), childGrace)
	defer cancel()
	if n.Conn().IsConnected() { // else the parent is gone: no one to tell
		_ = n.Close(ctx)
	} else {
		n.Kill()
	}
	return sys.Shutdown(ctx)
}

// startChild does everything before the child is ready.
func startChild(cfg childConfig, mc mainConfig) (*actor.System, *remote.Node, error) {
	if err := setCgroupMemory(cfg.Cgroup, cfg.MemoryLimit); err != nil {
		return nil, nil, err
	}
	if err := setLimits(cfg); err != nil {
		return nil, nil, err
	}
	def := lookup(cfg.Definition)
	if def == nil {
		return nil, nil, fmt.Errorf("%w: no group %q defined in this binary (define it at package level, before isolate.Main)", ErrSetup, cfg.Definition)
	}
	reg, err := newRegistry(mc.registry)
	if err != nil {
		return nil, nil, err
	}
	sys, err := actor.NewSystem(cfg.Group)
	if err != nil {
		return nil, nil, err
	}
	n, err := remote.Start(sys, remote.WithURL(cfg.URL), remote.WithRegistry(reg),
		remote.WithNATSOptions(nats.UserInfo(cfg.User, cfg.Password)), remote.WithHeartbeat(cfg.Heartbeat, cfg.Missed))
	if err != nil {
		_ = sys.Shutdown(context.Background())
		return nil, nil, err
	}
	err = runSetup(def, &Child{sys: sys, node: n, group: cfg.Group})
	if err == nil {
		// Ready once this node has heard the parent's too: a node obeys
		// control traffic (a watch) only from nodes it has heard.
		ctx, cancel := context.WithTimeout(context.Background(), cfg.StartTimeout)
		err = n.WaitPeer(ctx, cfg.Parent)
		cancel()
	}
	if err != nil {
		_ = n.Close(context.Background())
		_ = sys.Shutdown(context.Background())
		return nil, nil, err
	}
	return sys, n, nil
}

// runSetup runs the group's setup, a panic in it being its error.
func runSetup(def *Definition, c *Child) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%w: panic: %v", ErrSetup, p)
		}
	}()
	if err := def.setup(c); err != nil {
		return fmt.Errorf("%w: %w", ErrSetup, err)
	}
	return nil
}

// oneLine keeps a status line one line long.
func oneLine(s string) string { return strings.ReplaceAll(s, "\n", " ") }
