package isolate

import (
	"os"
	"os/exec"
	"syscall"
)

// findCgroupParent finds the host's own cgroup v2 directory, the one
// children are created under unless WithCgroup names another.
func findCgroupParent() (string, error) {
	mountinfo, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return "", err
	}
	own, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return "", err
	}
	return ownCgroupDir(string(mountinfo), string(own))
}

// placeInCgroup makes cmd's process start in the cgroup dir (clone3 with
// CLONE_INTO_CGROUP): it is in it from its first instruction. The
// returned file is to be closed once cmd has started.
func placeInCgroup(cmd *exec.Cmd, dir string) (*os.File, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.UseCgroupFD = true
	cmd.SysProcAttr.CgroupFD = int(f.Fd())
	return f, nil
}
