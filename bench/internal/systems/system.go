package systems

import (
	"errors"
	"fmt"
	"sort"

	"github.com/troupe-go/troupe/bench/internal/measure"
)

// Params are a scenario's counts, already scaled down in quick mode.
type Params struct {
	// N is the number of timed operations.
	N int
	// Batch is the inner count where a scenario has one (microtasks per
	// drain).
	Batch int
	// Pending is the number of other timers pending during the timed region.
	Pending int
	// Senders is the number of goroutines sharing the N operations, where a
	// scenario has several (fan-in).
	Senders int
	// Actors is the number of actors a scenario spreads its work over
	// (mesh, idle_timers).
	Actors int
}

// Case runs one scenario once and reports its figures. It runs in a fresh
// process and may leave that process's goroutines behind.
type Case func(p Params) (measure.Figures, error)

// System is one column of the report.
type System struct {
	Name  string
	Cases map[string]Case
	// NA maps scenario name to the reason the system cannot run it.
	NA map[string]string
}

// ErrNA is returned by [Lookup] when a system cannot run a scenario, wrapped
// with the reason when the system gives one.
var ErrNA = errors.New("n/a")

// Names of the systems, in report order.
const (
	Troupe      = "troupe"
	GoEventloop = "go-eventloop"
	GojaNodejs  = "goja_nodejs"
	RawChannels = "raw channels"
	ProtoActor  = "Proto.Actor"
)

// ActorScenarios names the actor suite's scenarios, for systems that mark
// them all at once.
var ActorScenarios = []string{
	"pingpong", "pingpong_typed", "fanin", "ask", "spawn", "idle_actor", "idle_1m",
	"mesh_100", "mesh_10k", "mesh_1m",
	"idle_timers_10k", "idle_timers_1m", "idle_timers_fire_10k", "idle_timers_fire_1m",
}

var registry = map[string]*System{}

func register(s *System) *System {
	registry[s.Name] = s
	return s
}

// cannotRun records that s cannot run the named scenarios, and why.
func (s *System) cannotRun(why string, scenarios ...string) {
	if s.NA == nil {
		s.NA = map[string]string{}
	}
	for _, name := range scenarios {
		s.NA[name] = why
	}
}

// All returns every registered system in report order; a suite picks its
// columns from them by name.
func All() []*System {
	order := map[string]int{Troupe: 0, GoEventloop: 1, GojaNodejs: 2, ProtoActor: 3, RawChannels: 4}
	out := make([]*System, 0, len(registry))
	for _, s := range registry {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return order[out[i].Name] < order[out[j].Name] })
	return out
}

// Lookup returns the case for system and scenario. The error wraps [ErrNA]
// with the reason when the system cannot run the scenario.
func Lookup(system, scenario string) (Case, error) {
	s, ok := registry[system]
	if !ok {
		return nil, fmt.Errorf("unknown system %q", system)
	}
	if c, ok := s.Cases[scenario]; ok {
		return c, nil
	}
	if why, ok := s.NA[scenario]; ok {
		return nil, fmt.Errorf("%w: %s", ErrNA, why)
	}
	return nil, ErrNA // no case and nothing to explain (a baseline elsewhere)
}
