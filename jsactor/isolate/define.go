package isolate

import (
	"fmt"
	"sync"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/remote"
)

// Setup starts a group's actors in its child process, on c.System(),
// typically with jsactor.Spawn. It runs on every start of the child (its
// first, and after each restart), after the process's limits are set and
// before the parent counts the child as ready. An error from it fails
// the start: the parent's Spawn returns it, wrapping [ErrSetup].
type Setup func(c *Child) error

// Definition is a kind of group, declared with [Define]: what its child
// processes run. Pass it to [Host.Spawn].
type Definition struct {
	name  string
	setup Setup
	late  bool // defined after Main: a child would not know it
}

// Name returns the definition's name.
func (d *Definition) Name() string { return d.name }

var definitions struct {
	sync.Mutex
	byName map[string]*Definition
}

// Define declares a kind of group named name whose child processes run
// setup. Call it at package level (var g = isolate.Define(...)) or in an
// init function, so that it has run in every process before Main: a
// child finds its group by name. A definition made after Main cannot be
// spawned ([ErrLateDefine]). Define panics, wrapping [ErrBadDefine], on
// an empty name, a nil setup, or a name defined twice: a programming
// error, found at start-up.
func Define(name string, setup Setup) *Definition {
	if name == "" || setup == nil {
		panic(fmt.Errorf("%w: empty name or nil setup", ErrBadDefine))
	}
	definitions.Lock()
	defer definitions.Unlock()
	if _, ok := definitions.byName[name]; ok {
		panic(fmt.Errorf("%w: %q defined twice", ErrBadDefine, name))
	}
	if definitions.byName == nil {
		definitions.byName = map[string]*Definition{}
	}
	state.Lock()
	late := state.mainCalled
	state.Unlock()
	d := &Definition{name: name, setup: setup, late: late}
	definitions.byName[name] = d
	return d
}

// lookup returns the definition named name, or nil.
func lookup(name string) *Definition {
	definitions.Lock()
	defer definitions.Unlock()
	return definitions.byName[name]
}

// Child is what a group's [Setup] gets in the child process.
type Child struct {
	sys   *actor.System
	node  *remote.Node
	group string
}

// System returns the child's actor system, whose name is the group's:
// actors spawned on it are reached from the parent as
// actor.NewRef(group, kind, id) ([Group.Ref]).
func (c *Child) System() *actor.System { return c.sys }

// Node returns the child's node, joined to the host's server as the
// group's own NATS user: its connection may publish only frames in the
// group's name and read only what is addressed to the group (see
// remote.PermissionsFor).
func (c *Child) Node() *remote.Node { return c.node }

// Group returns the group's name, as given to [Host.Spawn]: for a group
// per tenant, the tenant.
func (c *Child) Group() string { return c.group }
