package suite

import (
	"bufio"
	"os"
	"runtime"
	"strings"
)

// Machine describes where the suite ran.
type Machine struct {
	CPUModel  string
	Cores     int
	GoVersion string
}

// ThisMachine reads the CPU model from /proc/cpuinfo.
func ThisMachine() Machine {
	return Machine{CPUModel: cpuModel(), Cores: runtime.NumCPU(), GoVersion: runtime.Version()}
}

func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return "unknown (" + err.Error() + ")"
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}
