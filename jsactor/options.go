package jsactor

import (
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/dop251/goja"

	"github.com/troupe-go/troupe/actor"
)

// Option configures the JS actors made by [Factory] or [Spawn].
type Option func(*config) error

// Module is a host-provided module a script may require. Its signature is
// that of goja_nodejs's module loaders, so those can be registered as
// they are: it fills module.exports (module is an object with an
// `exports` object).
type Module func(rt *goja.Runtime, module *goja.Object)

// config is shared by every instance made by one Factory.
type config struct {
	budget    time.Duration
	maxStack  int
	clamp     bool
	node      bool // Node's timer objects; see WithNodeTimers
	modules   map[string]Module
	scripts   map[string]*Script
	onError   func(ref actor.Ref, err error)
	spawnOpts []actor.SpawnOption
	convNodes int // conversion budget; 0 for the defaults (see values.go)
	convBytes int
	memBudget int64 // see sandbox.go; 0 for the default

	crashOnThrow bool
	args         []any // init's arguments; see WithArgs
	files        fs.FS // require's file system; see WithFS
	fileCache    fileCache
	async        map[string]map[string]AsyncFunc // see WithAsyncModule
	hooks        []InstanceHook                  // see WithInstanceHook
}

// DefaultBudget is the watchdog budget of a turn unless WithBudget says
// otherwise.
const DefaultBudget = 100 * time.Millisecond

// DefaultMaxCallStack is the JavaScript call depth unless
// WithMaxCallStackSize says otherwise.
const DefaultMaxCallStack = 5000

func newConfig(opts []Option) (*config, error) {
	boundRegexps()
	cfg := &config{budget: DefaultBudget, maxStack: DefaultMaxCallStack}
	for _, o := range opts {
		if err := o(cfg); err != nil {
			return nil, err
		}
	}
	return cfg, nil
}

// WithBudget sets how long one turn (one message, timer, immediate or
// settlement handled by JavaScript, with its microtasks) may run before
// the watchdog interrupts it; 0 disables the watchdog. An interrupted turn
// is fatal to the instance: supervision restarts the actor, and asks
// pending on the instance fail with ErrInstanceLost. The default is
// DefaultBudget. A turn is measured by the CPU time it got, as estimated
// from the process's CPU time (on Unix; elsewhere by the real clock), so
// that a host's load alone never interrupts a correct turn, and is
// interrupted anyway once it has held its worker for 50 d of real time (a
// turn blocked in a call that uses no CPU). The watchdog samples a few
// times per budget, on the real clock whatever clock the system's timers
// use, so a turn is interrupted between d and about 1.5 d of CPU time
// after it began.
func WithBudget(d time.Duration) Option {
	return func(c *config) error {
		if d < 0 {
			return errors.New("jsactor: WithBudget needs d >= 0")
		}
		c.budget = d
		return nil
	}
}

// WithMaxCallStackSize bounds the JavaScript call depth; deeper recursion
// is fatal to the instance, as an interrupt is. The default is
// DefaultMaxCallStack.
func WithMaxCallStackSize(n int) Option {
	return func(c *config) error {
		if n <= 0 {
			return errors.New("jsactor: WithMaxCallStackSize needs n > 0")
		}
		c.maxStack = n
		return nil
	}
}

// WithNestedTimerClamping turns on HTML's nested-timeout clamping. Off by
// default.
//
// The rule is the current HTML one: a timer set while a timer callback of
// nesting level n runs (n = 0 outside timer callbacks) gets level n+1,
// and when n is greater than 4 a delay under 4 ms becomes 4 ms; so the
// 6th and deeper levels of setTimeout chains are clamped (older HTML
// texts, which compared n > 5, clamped from the 7th). One deviation: HTML
// also raises a repeating interval's level at each repetition, clamping a
// short interval from its 5th repetition on; here an interval keeps the
// level it was set at.
func WithNestedTimerClamping() Option {
	return func(c *config) error {
		c.clamp = true
		return nil
	}
}

// WithNodeTimers makes setTimeout and setInterval return Node's Timeout
// object and setImmediate Node's Immediate object, and call each callback
// with its object as this, as Node does. A Timeout has ref, unref,
// hasRef, refresh, close and [Symbol.toPrimitive] (its number, which
// clearTimeout takes too, as it takes the object); an Immediate has ref,
// unref and hasRef, and clearImmediate takes it. ref and unref record
// whether the timer would keep a Node process alive, which hasRef and the
// js_refed_pending figure of Stats report; an actor lives until it is
// stopped, so they change nothing else.
//
// Off by default: timers are then integers and callbacks run with this
// undefined, as the HTML timers do but for this (HTML passes the global
// object). An object per timer costs what Node pays for it: 100 to 150
// bytes of garbage per setTimeout or setImmediate, where without the
// option a timer allocates nothing once warm, and up to a third more CPU
// per step in a chain of timers (BenchmarkSetTimeoutChainNodeTimers and
// BenchmarkSetImmediateChainNodeTimers against the same without it).
func WithNodeTimers() Option {
	return func(c *config) error {
		c.node = true
		return nil
	}
}

// WithModule lets scripts require(name): with WithAsyncModule and WithFS,
// the only ways a script reaches anything beyond its own actor. Each
// actor instance loads the module once, on its first require.
func WithModule(name string, m Module) Option {
	return func(c *config) error {
		if name == "" || (m == nil && c.async[name] == nil) {
			return errors.New("jsactor: WithModule needs a name and a module")
		}
		if c.modules == nil {
			c.modules = map[string]Module{}
		}
		if _, dup := c.modules[name]; dup {
			return fmt.Errorf("jsactor: module %q registered twice", name)
		}
		c.modules[name] = m
		return nil
	}
}

// WithScript lets scripts spawn(kind, id, name) children running s. A
// child spawned without a script name runs its parent's script; children
// share their parent's options.
func WithScript(name string, s *Script) Option {
	return func(c *config) error {
		if name == "" || s == nil {
			return errors.New("jsactor: WithScript needs a name and a script")
		}
		if c.scripts == nil {
			c.scripts = map[string]*Script{}
		}
		c.scripts[name] = s
		return nil
	}
}

// WithErrorHandler sets a function told of every JavaScript error an
// actor reports: exceptions in handlers and callbacks, unhandled
// rejections (a *Error), watchdog interrupts. It runs on the actor's loop,
// after the error is logged, and must not block.
func WithErrorHandler(fn func(ref actor.Ref, err error)) Option {
	return func(c *config) error {
		c.onError = fn
		return nil
	}
}

// WithSpawnOptions passes actor spawn options (mailbox, restart limit,
// backoff...) to [Spawn], [SpawnChild] and the children a script spawns.
// [Factory] cannot apply them: an actor.Factory makes actors, it does not
// spawn them, so the caller passes its spawn options to
// actor.System.Spawn or actor.Context.Spawn itself (the children the
// script spawns still get these).
func WithSpawnOptions(opts ...actor.SpawnOption) Option {
	return func(c *config) error {
		c.spawnOpts = append(c.spawnOpts, opts...)
		return nil
	}
}

// WithCrashOnThrow makes an exception thrown by a handler, or a rejection
// of its promise, fail the actor as an uncaught panic does: supervision
// restarts it with a fresh Runtime, and an ask gets the error. Without it
// (the default) a throw is the handler's answer, as a Go handler's
// returned error is: an ask gets the *Error, a tell's is logged at Warn,
// and the actor keeps its state.
func WithCrashOnThrow() Option {
	return func(c *config) error {
		c.crashOnThrow = true
		return nil
	}
}

// WithArgs gives the script initial arguments: at each start of the actor
// (its spawn, and again after each restart, in the fresh Runtime),
// once the top level has run, module.exports.init(...args) is called, if
// the script exports an init function, in the same turn. The arguments
// cross as a message's do (refs arrive as refs), so a JS actor can be
// handed the refs it needs without a setup message a restart would lose.
// A throw from init is a top-level error: [Spawn] returns it. A promise
// init returns is not awaited; its rejection is reported as unhandled.
func WithArgs(args ...any) Option {
	return func(c *config) error {
		c.args = append([]any(nil), args...)
		return nil
	}
}

// WithFS grants scripts require of module files from fsys (an embed.FS,
// or an fs.Sub of one, typically): require("./lib/x") in a file resolves
// relative to that file's directory (the main script's directory is that
// of its name, as given to Compile), trying the name, then name + ".js",
// then name/index.js. Each file is compiled once for all actors, and run
// once per actor instance: its module.exports is cached, a cycle gets
// the exports filled in so far, as in Node. A module file sees exports,
// module, require, __filename and __dirname (paths in fsys, from "/").
// Paths are confined to fsys, but what fsys opens is its own business:
// os.DirFS follows symbolic links out of its directory, so for a
// directory on disk pass an os.Root's file system instead
// (root, err := os.OpenRoot(dir); ... WithFS(root.FS())), which refuses
// them. A require that fails (a file that does not compile or cannot be
// opened) throws an error wrapping ErrModule, which the script can catch.
func WithFS(fsys fs.FS) Option {
	return func(c *config) error {
		if fsys == nil {
			return errors.New("jsactor: WithFS needs a file system")
		}
		c.files = fsys
		return nil
	}
}
