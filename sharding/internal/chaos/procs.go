//go:build unix

package chaos

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
)

// procs are the node processes of a run, by node name.
type procs struct {
	exe  string
	args []string
	s    settings

	mu      sync.Mutex
	running map[string]*exec.Cmd
	exited  map[*exec.Cmd]chan error
	started int
}

func newProcs(exe string, args []string, s settings) *procs {
	return &procs{exe: exe, args: args, s: s, running: map[string]*exec.Cmd{}, exited: map[*exec.Cmd]chan error{}}
}

// start starts node name as a new process, its output in the run's
// directory.
func (p *procs) start(name string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.running[name] != nil {
		return fmt.Errorf("chaos: %s runs already", name)
	}
	p.started++
	out, err := os.Create(filepath.Join(p.s.dir, fmt.Sprintf("%s-%d.out", name, p.started)))
	if err != nil {
		return err
	}
	cmd := exec.Command(p.exe, p.args...)
	cmd.Env = p.s.env(name)
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		_ = out.Close()
		return fmt.Errorf("chaos: start %s: %w", name, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait(); _ = out.Close() }()
	p.running[name], p.exited[cmd] = cmd, done
	return nil
}

// signal sends sig to node name's process.
func (p *procs) signal(name string, sig syscall.Signal) error {
	p.mu.Lock()
	cmd := p.running[name]
	p.mu.Unlock()
	if cmd == nil {
		return fmt.Errorf("chaos: %s is not running", name)
	}
	return cmd.Process.Signal(sig)
}

// stop sends sig (SIGKILL, or SIGTERM: leave gracefully) to node name
// and waits for its process to exit.
func (p *procs) stop(name string, sig syscall.Signal) error {
	p.mu.Lock()
	cmd := p.running[name]
	delete(p.running, name)
	done := p.exited[cmd]
	delete(p.exited, cmd)
	p.mu.Unlock()
	if cmd == nil {
		return fmt.Errorf("chaos: %s is not running", name)
	}
	_ = cmd.Process.Signal(syscall.SIGCONT) // a paused process would never leave
	if err := cmd.Process.Signal(sig); err != nil {
		return err
	}
	err := <-done
	if sig == syscall.SIGTERM && err != nil {
		return fmt.Errorf("chaos: %s left with %w (see its .out file)", name, err)
	}
	return nil
}

// names returns the running nodes.
func (p *procs) names() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]string, 0, len(p.running))
	for n := range p.running {
		out = append(out, n)
	}
	return out
}

// killAll kills what still runs (on a failed run).
func (p *procs) killAll() {
	for _, n := range p.names() {
		_ = p.stop(n, syscall.SIGKILL)
	}
}
