package nodetests_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/dop251/goja"
	"go.uber.org/zap/zaptest"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest"
	"github.com/troupe-go/troupe/jsactor"
)

// expected lists every file of testdata/parallel: "" for a file that
// passes, else why it fails. A passing file that fails, or a known failure
// that passes, fails TestNodeParallel: move it, and update the score in
// testdata/README.md.
var expected = map[string]string{
	"test-microtask-queue-integration.js":              "",
	"test-microtask-queue-run-immediate.js":            "",
	"test-microtask-queue-run.js":                      "",
	"test-next-tick-doesnt-hang.js":                    "",
	"test-next-tick-fixed-queue-regression.js":         "",
	"test-next-tick-intentional-starvation.js":         "",
	"test-next-tick-ordering.js":                       "",
	"test-next-tick-ordering2.js":                      "",
	"test-next-tick.js":                                "",
	"test-timers-api-refs.js":                          "",
	"test-timers-args.js":                              "",
	"test-timers-clear-null-does-not-throw-error.js":   "",
	"test-timers-clear-object-does-not-throw-error.js": "",
	"test-timers-clear-timeout-interval-equivalent.js": "",
	"test-timers-clearImmediate.js":                    "",
	"test-timers-destroyed.js":                         "reads _destroyed, a property of Node's Timeout internals that troupe's Timeout lacks",
	"test-timers-dispose.js":                           "goja has no Symbol.dispose (explicit resource management)",
	"test-timers-immediate-queue.js":                   "",
	"test-timers-immediate-unref-nested-once.js":       "an unref'd immediate runs (see test-timers-immediate-unref.js)",
	"test-timers-immediate-unref-simple.js":            "an unref'd immediate runs (see test-timers-immediate-unref.js)",
	"test-timers-immediate-unref.js":                   "an unref'd immediate runs: an actor never exits, so the run's exit, when nothing ref'd is pending, comes after the loop round that runs it",
	"test-timers-immediate.js":                         "",
	"test-timers-next-tick.js":                         "",
	"test-timers-non-integer-delay.js":                 "",
	"test-timers-process-tampering.js":                 "",
	"test-timers-refresh-in-callback.js":               "",
	"test-timers-this.js":                              "",
	"test-timers-throw-when-cb-not-function.js":        "expects the error code ERR_INVALID_CALLBACK of Node 10 to 14 (this is the file as of that time); troupe's TypeError has no code",
	"test-timers-timeout-to-interval.js":               "sets _repeat, a property of Node's Timeout internals, to turn a timeout into an interval (the test says it is not supported)",
	"test-timers-timeout-with-non-integer.js":          "",
	"test-timers-to-primitive.js":                      "",
	"test-timers-unref.js":                             "",
	"test-timers-unrefd-interval-still-fires.js":       "",
	"test-timers-user-call.js":                         "",
	"test-timers-zero-timeout.js":                      "",
	"test-timers.js":                                   "delays over 2^31-1 ms are clamped to 2^31-1 ms (jsactor/delay.go), where Node fires them after 1 ms: the 2 ms timer finds the timers of 2147483648 and 12345678901234 ms not run",
}

// realTime are the files that spin on Date.now until time has passed
// (busy loops of 2 to 100 ms). On virtual time no time passes within a
// turn, so they run on the real clock; nothing in them asserts how long
// anything took.
var realTime = map[string]bool{
	"test-timers-immediate-queue.js":           true,
	"test-timers-next-tick.js":                 true,
	"test-next-tick-intentional-starvation.js": true,
}

const (
	maxVirtual = time.Minute      // virtual time a file may keep timers pending
	maxReal    = 30 * time.Second // real time a file on the real clock may run
	askLimit   = 30 * time.Second // real time for one call of the runner
)

func TestNodeParallel(t *testing.T) {
	files, err := filepath.Glob("testdata/parallel/*.js")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files: %v", err)
	}
	listed := map[string]bool{}
	passed := 0
	for _, path := range files {
		name := filepath.Base(path)
		why, ok := expected[name]
		listed[name] = ok
		if !ok {
			t.Errorf("%s is not listed in expected: list it as passing or as a known failure, with the reason", name)
		}
		t.Run(name, func(t *testing.T) {
			err := runFile(t, name)
			switch {
			case err == nil:
				passed++
				if why != "" {
					t.Errorf("passes, but is listed as a known failure (%s): list it as passing", why)
				}
			case why == "":
				t.Errorf("fails: %v", err)
			default:
				t.Logf("known failure (%s): %v", why, err)
			}
		})
	}
	for name := range expected {
		if _, ok := listed[name]; !ok {
			t.Errorf("%s is listed in expected but is not in testdata/parallel", name)
		}
	}
	t.Logf("troupe passes %d of %d", passed, len(files))
}

func runFile(t *testing.T, name string) error {
	if realTime[name] {
		return runReal(t, name)
	}
	return runVirtual(t, name)
}

// runVirtual runs a file on virtual time: after each settled step, the
// run exits if nothing ref'd is pending, else time moves to the next
// deadline.
func runVirtual(t *testing.T, name string) error {
	sys := actortest.NewSystem(t, actortest.AllowFailures(), actortest.AllowDeadLetters())
	r, err := start(sys.System, name)
	if err != nil {
		return err
	}
	for {
		sys.Settle()
		if err := r.failure(); err != nil {
			return err
		}
		alive, err := r.alive()
		if err != nil || !alive {
			return errors.Join(err, r.exit())
		}
		at, ok := sys.Clock().Next()
		if !ok {
			return errors.New("timers are pending but none is armed on the clock")
		}
		if time.Duration(at) > maxVirtual {
			return fmt.Errorf("does not exit: timers still pending after %v of virtual time", maxVirtual)
		}
		sys.Advance(time.Duration(at - sys.Clock().Now()))
	}
}

// runReal runs a file on the real clock, looking every millisecond
// whether anything ref'd is still pending.
func runReal(t *testing.T, name string) error {
	sys, err := actor.NewSystem("nodetests", actor.WithLogger(zaptest.NewLogger(t)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), askLimit)
		defer cancel()
		if err := sys.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
	})
	r, err := start(sys, name)
	if err != nil {
		return err
	}
	deadline := time.Now().Add(maxReal)
	for {
		if err := r.failure(); err != nil {
			return err
		}
		alive, err := r.alive()
		if err != nil || !alive {
			return errors.Join(err, r.exit())
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("does not exit: timers still pending after %v", maxReal)
		}
		time.Sleep(time.Millisecond)
	}
}

// run is one file running in a JS actor of the runner script.
type run struct {
	sys *actor.System
	ref actor.Ref

	mu     sync.Mutex
	errs   []error // reported by the actor before the run exited
	exited bool
}

// start spawns the runner and runs the file's top level.
func start(sys *actor.System, name string) (*run, error) {
	runner, err := runnerScript()
	if err != nil {
		return nil, err
	}
	r := &run{sys: sys}
	r.ref, err = jsactor.Spawn(sys, "node", name, runner,
		jsactor.WithFS(os.DirFS("testdata")),
		jsactor.WithModule("assert", assertModule),
		jsactor.WithErrorHandler(r.report),
		jsactor.WithBudget(10*time.Second), // Node bounds no turn; one file spins for 100 ms
		jsactor.WithNodeTimers(),
	)
	if err != nil {
		return nil, err
	}
	return r, r.call("start", name)
}

func (r *run) call(method string, args ...any) error {
	ctx, cancel := context.WithTimeout(context.Background(), askLimit)
	defer cancel()
	_, err := jsactor.Ask[any](ctx, r.sys, r.ref, method, args...)
	return err
}

// exit emits the process's 'exit' event and returns what a listener
// threw. What the actor reports besides is ignored from then on: in Node
// the process is gone once the listeners return.
func (r *run) exit() error {
	r.mu.Lock()
	r.exited = true
	r.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), askLimit)
	defer cancel()
	threw, err := jsactor.Ask[string](ctx, r.sys, r.ref, "exit")
	if err != nil {
		return fmt.Errorf("exit: %w", err)
	}
	if threw != "" {
		return fmt.Errorf("an 'exit' listener threw: %s", threw)
	}
	return nil
}

func (r *run) report(_ actor.Ref, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.exited {
		r.errs = append(r.errs, err)
	}
}

func (r *run) failure() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return errors.Join(r.errs...)
}

// alive reports whether anything that would keep a Node process alive is
// pending: a ref'd timer or immediate (js_refed_pending).
func (r *run) alive() (bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), askLimit)
	defer cancel()
	d, err := r.sys.Inspect(ctx, r.ref)
	if err != nil {
		return false, err
	}
	for _, st := range d.Stats {
		if st.Name == "js_refed_pending" {
			return st.Value > 0, nil
		}
	}
	return false, errors.New("the actor reports no js_refed_pending")
}

var runnerScript = sync.OnceValues(func() (*jsactor.Script, error) {
	src, err := os.ReadFile("testdata/harness/run.js")
	if err != nil {
		return nil, err
	}
	return jsactor.Compile("harness/run.js", string(src))
})

var assertProgram = sync.OnceValues(func() (*goja.Program, error) {
	src, err := os.ReadFile("testdata/harness/assert.js")
	if err != nil {
		return nil, err
	}
	return goja.Compile("assert.js", "(function (module, exports) {"+string(src)+"\n})", false)
})

// assertModule is the module 'assert': testdata/harness/assert.js.
func assertModule(rt *goja.Runtime, module *goja.Object) {
	prog, err := assertProgram()
	if err != nil {
		panic(rt.NewGoError(err))
	}
	fnv, err := rt.RunProgram(prog)
	if err != nil {
		panic(err)
	}
	fn, _ := goja.AssertFunction(fnv)
	if _, err := fn(goja.Undefined(), module, module.Get("exports")); err != nil {
		panic(err)
	}
}
