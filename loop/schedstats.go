package loop

// SchedulerStats is a snapshot of a scheduler's workers and queues.
type SchedulerStats struct {
	// Loops is the number of open loops the scheduler drives.
	Loops int
	// GlobalQueue is the number of loops waiting in the global run queue:
	// work that arrived from outside the pool.
	GlobalQueue int
	// Workers describes each worker, in a fixed order.
	Workers []WorkerStats
	// Held is the number of goroutines held by a callback that has not
	// returned, whose worker went to a fresh goroutine ([WithStallBudget]):
	// each exits when its callback returns.
	Held int
	// Helpers is the number of helper goroutines running beside the
	// workers while stuck loops are being found ([WithStallBudget]); 0
	// once no callback holds a goroutine or no work waits.
	Helpers int
}

// WorkerStats describes one worker of a [Scheduler].
type WorkerStats struct {
	// RunQueue is the number of loops waiting in the worker's local queue.
	RunQueue int
	// Idle reports whether the worker is parked, waiting for work.
	Idle bool
}

// Stats returns a snapshot of the scheduler's workers and queues. Safe
// from any goroutine; it takes the scheduler's lock, so it suits a
// monitoring period, not a hot path.
func (s *Scheduler) Stats() SchedulerStats {
	st := SchedulerStats{Workers: make([]WorkerStats, len(s.workers))}
	s.mu.Lock()
	st.Loops, st.GlobalQueue = s.count, s.global.len()
	st.Held, st.Helpers = len(s.held), len(s.helpers)
	for _, w := range s.idle {
		for i, x := range s.workers {
			if x == w {
				st.Workers[i].Idle = true
			}
		}
	}
	s.mu.Unlock()
	for i, w := range s.workers {
		st.Workers[i].RunQueue = w.local.len()
	}
	return st
}
