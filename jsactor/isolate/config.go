package isolate

import "time"

// childConfig is what the parent tells a child through its control pipe,
// as one line of JSON: which group to run, and how to reach the parent.
type childConfig struct {
	Definition   string        `json:"definition"`
	Group        string        `json:"group"`
	Parent       string        `json:"parent"` // the host's node name
	URL          string        `json:"url"`
	User         string        `json:"user"`                   // the group's name
	Password     string        `json:"password"`               // this process's secret
	MemoryLimit  uint64        `json:"memory_limit,omitempty"` // RLIMIT_AS bytes; 0: none
	CPUTime      time.Duration `json:"cpu_time,omitempty"`     // RLIMIT_CPU; 0: none
	Cgroup       string        `json:"cgroup,omitempty"`       // its cgroup v2 directory, where it sets memory.max; "": none
	Heartbeat    time.Duration `json:"heartbeat"`
	Missed       int           `json:"missed"`
	StartTimeout time.Duration `json:"start_timeout"`
}

// Status lines a child writes on its status pipe: statusReady once its
// setup has run, or statusError and the error's text.
const (
	statusReady = "ready"
	statusError = "error: "
)

// The child's ends of its pipes, as numbered by exec.Cmd.ExtraFiles.
const (
	fdControl = 3 // parent -> child: the config line, then EOF to stop
	fdStatus  = 4 // child -> parent: one status line
)
