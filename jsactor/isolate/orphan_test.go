//go:build unix

package isolate_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/jsactor/isolate"
)

// envParent makes the test binary a parent process that spawns one group,
// prints its child's pid and waits to be killed.
const envParent = "ISOLATE_TEST_PARENT"

// runParent is the test binary as such a parent.
func runParent() int {
	ctx := context.Background()
	sys, err := actor.NewSystem("parent")
	if err != nil {
		return 1
	}
	h, err := isolate.Start(sys)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	g, err := h.Spawn(ctx, tenant, "t-orphan")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println(g.PID())
	select {} // until killed
}

// A parent that dies without a word (SIGKILL) leaves no child behind: the
// child finds its control pipe closed and leaves.
func TestParentDies(t *testing.T) {
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	parent := exec.Command(bin)
	parent.Env = append(os.Environ(), envParent+"=1")
	parent.Stderr = os.Stderr
	stdout, err := parent.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		_ = parent.Process.Kill()
		_ = parent.Wait()
		t.Fatalf("parent's child pid: %v", err)
	}
	child, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || !alive(child) {
		t.Fatalf("child pid %q: %v, alive %t", line, err, alive(child))
	}
	if err := parent.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = parent.Wait()
	// The child's exit takes its own time: wait for the condition, with
	// a deadline only against a hang.
	deadline := time.Now().Add(30 * time.Second)
	for alive(child) {
		if time.Now().After(deadline) {
			_ = syscall.Kill(child, syscall.SIGKILL)
			t.Fatalf("child %d outlived its killed parent by 30 s", child)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
