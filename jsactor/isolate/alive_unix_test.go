//go:build unix

package isolate_test

import (
	"errors"
	"syscall"
)

// alive reports whether a process of id pid exists, zombies included.
func alive(pid int) bool {
	return !errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
