package suite

import (
	"fmt"
	"strings"

	"github.com/troupe-go/troupe/bench/internal/systems"
)

// Suite is one suite of BENCHMARKS.md: its scenarios, the systems in its
// report's columns, and how its report describes them.
type Suite struct {
	Name      string
	Scenarios []Scenario
	// Systems are the report's columns, in order.
	Systems []string
	// Reference is the peer an absolute time target is also compared with,
	// in the ratio column.
	Reference string
	// Peers are the module paths whose versions the report prints.
	Peers []string
	// Method is the paragraph after the definitions: what the figures mean.
	Method string
}

// Loop is the loop suite.
var Loop = Suite{
	Name:      "loop",
	Scenarios: loopScenarios,
	Systems:   []string{systems.Troupe, systems.GoEventloop, systems.GojaNodejs, systems.RawChannels},
	Reference: systems.GoEventloop,
	Peers:     []string{"github.com/joeycumines/go-eventloop", "github.com/dop251/goja_nodejs", "github.com/dop251/goja"},
	Method: fmt.Sprintf("Times are wall-clock ns per operation; CPU is the child's user+sys time over the same timed region, per operation. "+
		"Memory is (HeapInuse+StackInuse) growth after runtime.GC() twice, per loop. "+
		"Zero-allocation targets allow %.3g allocs per operation of amortised growth.", zeroAllocSlack),
}

// Actor is the actor suite.
var Actor = Suite{
	Name:      "actor",
	Scenarios: actorScenarios,
	Systems:   []string{systems.Troupe, systems.ProtoActor, systems.RawChannels},
	Reference: systems.ProtoActor,
	Peers:     []string{"github.com/asynkron/protoactor-go"},
	Method: "Times are wall-clock ns per operation (a rate is 1e9 ÷ the time: round trips, messages, asks or actors per second); " +
		"CPU is the child's user+sys time over the same timed region, per operation. " +
		"Memory is (HeapInuse+StackInuse) growth after runtime.GC() twice, per actor (idle_actor) or in all (idle_1m), " +
		"with every actor kept reachable; goroutines are the growth in runtime.NumGoroutine per actor.",
}

// Suites lists every suite, for -suite.
var Suites = []Suite{Loop, Actor, JS, IO, Remote, Sharding, Persist}

// ByName returns the suite called name.
func ByName(name string) (Suite, error) {
	var names []string
	for _, s := range Suites {
		if s.Name == name {
			return s, nil
		}
		names = append(names, s.Name)
	}
	return Suite{}, fmt.Errorf("unknown suite %q (have %s)", name, strings.Join(names, ", "))
}

// Heading is the report's title line, without the leading "# ".
func (s Suite) Heading() string {
	return fmt.Sprintf("troupe %s suite: %s", s.Name, strings.Join(s.peerColumns(), ", "))
}

// peerColumns are the suite's systems less the raw-channel baseline.
func (s Suite) peerColumns() []string {
	var out []string
	for _, sys := range s.Systems {
		if sys != systems.RawChannels {
			out = append(out, sys)
		}
	}
	return out
}

// Find returns the scenario called name, from whichever suite holds it
// (scenario names are unique across suites).
func Find(name string) (Scenario, bool) {
	for _, su := range Suites {
		if s, ok := su.find(name); ok {
			return s, true
		}
	}
	return Scenario{}, false
}

func (s Suite) find(name string) (Scenario, bool) {
	for _, sc := range s.Scenarios {
		if sc.Name == name {
			return sc, true
		}
	}
	return Scenario{}, false
}
