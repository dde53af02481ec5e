package isolate

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// process is one run of a group's child process, seen from the parent.
type process struct {
	cmd    *exec.Cmd
	ctrl   *os.File        // write end of the control pipe: closing it stops the child
	status *os.File        // read end of the status pipe
	done   chan struct{}   // closed once the process is reaped
	ctx    context.Context // cancelled once the process is reaped
	cancel context.CancelFunc

	cgroup *cgroupChild // its cgroup, removed once it is reaped; nil: none
	oom    bool         // its cgroup's OOM killer killed it (set before done closes)

	watched chan struct{} // closed when the group's watcher of it returned
	retired atomic.Bool   // its supervisor is done with it: report nothing

	mu     sync.Mutex
	reason error // why the parent ended it, if it did (a setup error, a timeout)
	err    error // Wait's result, once done is closed
}

// startProcess starts bin as the child described by cfg, in cgroup cg
// if not nil (which it then owns): fork and exec, then the configuration
// through the control pipe. It does not wait for the child to be ready
// (see awaitReady).
func startProcess(bin string, cfg childConfig, cg *cgroupChild) (p *process, err error) {
	if cg != nil {
		defer func() {
			if err != nil {
				cg.remove()
			}
		}()
	}
	line, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	ctrlR, ctrlW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	statR, statW, err := os.Pipe()
	if err != nil {
		_ = ctrlR.Close()
		_ = ctrlW.Close()
		return nil, err
	}
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), envChild+"=1")
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	cmd.ExtraFiles = []*os.File{ctrlR, statW} // fdControl, fdStatus
	var cgFile *os.File
	if cg != nil {
		if cgFile, err = placeInCgroup(cmd, cg.dir); err != nil {
			_ = ctrlR.Close()
			_ = statW.Close()
			_ = ctrlW.Close()
			_ = statR.Close()
			return nil, fmt.Errorf("isolate: the child's cgroup: %w", err)
		}
	}
	err = cmd.Start()
	_ = ctrlR.Close()
	_ = statW.Close()
	if cgFile != nil {
		_ = cgFile.Close()
	}
	if err != nil {
		_ = ctrlW.Close()
		_ = statR.Close()
		return nil, fmt.Errorf("%w: start %s: %w", ErrExited, bin, err)
	}
	p = &process{cmd: cmd, ctrl: ctrlW, status: statR, cgroup: cg, done: make(chan struct{}), watched: make(chan struct{})}
	p.ctx, p.cancel = context.WithCancel(context.Background())
	go p.wait()
	// The pipe's buffer holds the line: this does not wait for the child.
	if _, err := ctrlW.Write(append(line, '\n')); err != nil {
		p.end(fmt.Errorf("%w: writing config: %w", ErrExited, err))
	}
	return p, nil
}

// wait reaps the process, and removes its cgroup.
func (p *process) wait() {
	err := p.cmd.Wait()
	oom := false
	if p.cgroup != nil {
		oom = p.cgroup.oomKilled()
		p.cgroup.remove()
	}
	p.mu.Lock()
	p.err, p.oom = err, oom
	p.mu.Unlock()
	close(p.done)
	p.cancel()
}

// pid returns the process id.
func (p *process) pid() int { return p.cmd.Process.Pid }

// awaitReady reads the child's status line within timeout: nil once it
// is ready, else why not (the child is then being ended).
func (p *process) awaitReady(timeout time.Duration) error {
	// Closed here, not when the process is reaped: a child that failed
	// at once has its status line in the pipe, to be read yet.
	defer p.status.Close()
	_ = p.status.SetReadDeadline(time.Now().Add(timeout))
	line, err := bufio.NewReader(p.status).ReadString('\n')
	line = strings.TrimSuffix(line, "\n")
	switch {
	case err == nil && line == statusReady:
		return nil
	case err == nil && strings.HasPrefix(line, statusError):
		text := strings.TrimPrefix(strings.TrimPrefix(line, statusError), ErrSetup.Error()+": ")
		err = fmt.Errorf("%w: %s", ErrSetup, text)
	case os.IsTimeout(err):
		err = fmt.Errorf("%w (%v)", ErrStartTimeout, timeout)
	default: // it died before a word
		err = fmt.Errorf("%w before it was ready", ErrExited)
	}
	p.end(err)
	return err
}

// end ends the process for reason, at once.
func (p *process) end(reason error) {
	p.mu.Lock()
	if p.reason == nil {
		p.reason = reason
	}
	p.mu.Unlock()
	_ = p.ctrl.Close()
	_ = p.cmd.Process.Kill()
}

// stop asks the child to leave (its control pipe closes), kills it if it
// has not exited within grace, and returns once it is reaped.
func (p *process) stop(grace time.Duration) {
	_ = p.ctrl.Close()
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-p.done:
		return
	case <-t.C:
	}
	p.end(fmt.Errorf("%w: killed after %v of grace", ErrExited, grace))
	<-p.done
}

// exitError says how the process ended: the reason the parent ended it,
// or its exit status, wrapping ErrExited. Call it once done is closed.
func (p *process) exitError() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.reason != nil {
		return p.reason
	}
	if p.oom {
		return fmt.Errorf("%w: pid %d: killed by its cgroup's OOM killer (memory.max): %w", ErrExited, p.pid(), p.err)
	}
	if p.err != nil {
		return fmt.Errorf("%w: pid %d: %w", ErrExited, p.pid(), p.err)
	}
	return fmt.Errorf("%w: pid %d: exit status 0", ErrExited, p.pid())
}
