//go:build linux

package netactor_test

import (
	"bufio"
	"os"
	"os/exec"
	"strconv"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/troupe-go/troupe/netactor"
)

// wantConns is the target of TestManyConnections.
const wantConns = 10000

// connBudget raises RLIMIT_NOFILE as far as allowed and returns how many
// connections one process can hold with room to spare.
func connBudget(t *testing.T) int {
	var lim unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	if lim.Cur < lim.Max {
		lim.Cur = lim.Max
		if err := unix.Setrlimit(unix.RLIMIT_NOFILE, &lim); err != nil {
			t.Logf("raising RLIMIT_NOFILE: %v", err)
			_ = unix.Getrlimit(unix.RLIMIT_NOFILE, &lim)
		}
	}
	n := min(wantConns, int(lim.Cur)-256)
	if n < wantConns {
		t.Logf("RLIMIT_NOFILE is %d: scaled down to %d connections (target %d)", lim.Cur, n, wantConns)
	}
	if n < 100 {
		t.Skipf("RLIMIT_NOFILE %d is too low for this test", lim.Cur)
	}
	return n
}

func TestManyConnections(t *testing.T) {
	n := connBudget(t)
	checkFDs(t)
	sys, ev := newSystem(t)
	srv := serveEcho(t, sys, netactor.WithBacklog(4096))
	before := openFDs(t)

	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+srv.Addr().String(), childConnsEnv+"="+strconv.Itoa(n))
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || line != "ready\n" {
		_ = stdin.Close()
		_ = cmd.Wait()
		t.Fatalf("client process: %q, %v", line, err)
	}
	// Besides the connections: the pipes and pidfd of the client process,
	// and the pollers of scheduler workers that watched their first fd.
	if open := openFDs(t) - before; open < n || open > n+16 {
		t.Errorf("%d more fds open in the server, want %d connections and a few more", open, n)
	}
	_ = stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("client process: %v", err)
	}
	ev.waitStopped(t, "echo.conn", n)
	t.Logf("%d concurrent connections served, echoed and closed", n)
}
