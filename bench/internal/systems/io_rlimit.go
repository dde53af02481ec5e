package systems

import "syscall"

// maxOpenFiles returns the soft RLIMIT_NOFILE, or 0 if unknown.
func maxOpenFiles() int {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return 0
	}
	return int(lim.Cur)
}
