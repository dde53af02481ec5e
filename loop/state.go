package loop

// State is a loop's lifecycle state, as reported by [Loop.State].
//
//	New ──Run/first work──► Active ──Shutdown──► ShuttingDown ──► Closed
//
// A driven loop between activations is Active (it holds no goroutine then,
// but it is open for work).
type State int32

const (
	// StateNew: created, never run (standalone) and no work yet.
	StateNew State = iota
	// StateActive: open for work; running, parked or (driven) idle.
	StateActive
	// StateShuttingDown: no new work is accepted; accepted work is being run.
	StateShuttingDown
	// StateClosed: done; every callback has returned and none will run again.
	StateClosed
)

// String returns the state's name.
func (s State) String() string {
	switch s {
	case StateNew:
		return "new"
	case StateActive:
		return "active"
	case StateShuttingDown:
		return "shutting-down"
	case StateClosed:
		return "closed"
	}
	return "unknown"
}
