package sharding

import (
	"errors"

	"github.com/troupe-go/troupe/actor/call"
	"github.com/troupe-go/troupe/remote/wire"
)

// Registry returns the wire registry of the cluster's node, where the
// messages of its kinds must be registered to cross nodes (the functions
// troupegen writes for a //troupe:actor sharded register them there).
func (c *Cluster) Registry() *wire.Registry { return c.node.Registry() }

// callName is the wire name of call.Call (jsactor.Call), the same on
// every node.
const callName = "jsactor.Call"

// registerCalls registers calls by name (call.Call) in reg, unless they
// are there (as a program, or another node of the process, may have done):
// what JS actors send to entities, and what entities generated
// by troupegen and JS entities answer, on any node.
func registerCalls(reg *wire.Registry) error {
	if err := wire.RegisterJS[call.Call](reg, callName); err != nil && !errors.Is(err, wire.ErrDuplicate) {
		return err
	}
	return nil
}
