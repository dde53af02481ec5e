//go:build unix

package isolate_test

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"
)

// alive reports whether a process of id pid runs: it exists and is not a
// zombie (an orphan that exited may wait for a reaper that never comes).
func alive(pid int) bool {
	if errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
		return false
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return !os.IsNotExist(err) // no /proc here: trust kill
	}
	// pid (comm) state ...: the state follows the last ')'.
	s := string(b)
	state := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(state) == 0 || state[0] != "Z"
}
