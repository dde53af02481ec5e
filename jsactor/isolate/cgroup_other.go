//go:build !linux

package isolate

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
)

// findCgroupParent: cgroups are Linux's.
func findCgroupParent() (string, error) {
	return "", fmt.Errorf("%w: %s has no cgroups", ErrNoCgroup, runtime.GOOS)
}

// placeInCgroup: never called where findCgroupParent fails.
func placeInCgroup(*exec.Cmd, string) (*os.File, error) {
	return nil, fmt.Errorf("%w: %s has no cgroups", ErrNoCgroup, runtime.GOOS)
}
