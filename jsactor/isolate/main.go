package isolate

import (
	"os"
	"sync"

	"github.com/troupe-go/troupe/jsactor"
	"github.com/troupe-go/troupe/remote/wire"
)

// envChild marks a child process started by this package. Its value is
// not a secret: the configuration comes through the control pipe.
const envChild = "TROUPE_ISOLATE_CHILD"

// state is what Main recorded, read by the parent's Spawn.
var state struct {
	sync.Mutex
	mainCalled bool
	registry   func() (*wire.Registry, error)
}

// MainOption configures Main. Both processes call Main with the same
// options, since they run the same code.
type MainOption func(*mainConfig)

type mainConfig struct {
	registry func() (*wire.Registry, error)
}

// WithRegistry sets the function that makes the wire.Registry of the
// parent's node and of every child's: the message types scripts and Go
// actors exchange across the process boundary (see package remote). It
// is called once per node. jsactor.Call, what jsactor.Ask and Tell send,
// is added under the name "jsactor.Call" if fn's registry lacks it.
// Without this option the registry holds the built-in types and
// jsactor.Call.
func WithRegistry(fn func() (*wire.Registry, error)) MainOption {
	return func(c *mainConfig) { c.registry = fn }
}

// Main must be called first thing in main, and in TestMain of a test
// binary whose tests spawn groups, before anything else runs. In the
// parent process it records its options and returns at once. In a child
// process started by [Host.Spawn] it runs the child: it sets the
// process's limits, joins the parent's node, runs the group's setup,
// serves until the parent stops it (or dies), and exits; it never
// returns there. Calling it again in the parent is harmless.
func Main(opts ...MainOption) {
	var cfg mainConfig
	for _, o := range opts {
		o(&cfg)
	}
	if IsChild() {
		os.Exit(runChild(cfg))
	}
	state.Lock()
	defer state.Unlock()
	state.mainCalled = true
	state.registry = cfg.registry
}

// IsChild reports whether this process is a child started by
// [Host.Spawn]. Main already branches on it; IsChild is for code that
// runs before Main, such as package initialization that should not run
// in children.
func IsChild() bool { return os.Getenv(envChild) != "" }

// newRegistry makes a node's registry with fn (nil: the default) and
// makes sure jsactor.Call is in it.
func newRegistry(fn func() (*wire.Registry, error)) (*wire.Registry, error) {
	r := wire.NewRegistry()
	if fn != nil {
		var err error
		if r, err = fn(); err != nil {
			return nil, err
		}
	}
	if _, ok := r.Name(jsactor.Call{}); !ok {
		if err := wire.RegisterJS[jsactor.Call](r, "jsactor.Call"); err != nil {
			return nil, err
		}
	}
	return r, nil
}
