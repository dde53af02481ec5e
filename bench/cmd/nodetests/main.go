// Command nodetests scores goja_nodejs on the subset of Node.js's own
// test/parallel tests (timers, immediates, process.nextTick, microtasks)
// that troupe runs in its test suite (package
// jsactor/internal/nodetests, whose testdata it reads), with the same
// helpers and the same runner script. troupe's score is that package's
// test: go test -v -run TestNodeParallel ./jsactor/internal/nodetests.
//
// Each file runs on a fresh goja_nodejs event loop with the registry's
// require (the files' own paths, the 'assert' helper registered as a
// native module) and its process module as process, on the real clock.
// The run ends as Node's does, when the loop has nothing left (Run
// returns), then the runner emits 'exit'. goja_nodejs drops what a timer
// or immediate callback throws; Node would fail the test, so each
// callback is wrapped to record its throw (the wrapper keeps this and the
// arguments), and so are promise rejections left unhandled. A file that
// panics the Go process is recovered here and counted as a failure.
//
// Two columns: goja_nodejs as it is, and with polyfills for what it lacks
// and the files use (process.nextTick and queueMicrotask, as promise
// jobs).
//
//	cd bench && go run ./cmd/nodetests [-dir ../jsactor/internal/nodetests/testdata]
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/eventloop"
	"github.com/dop251/goja_nodejs/process"
	"github.com/dop251/goja_nodejs/require"
)

// limit is the real time a file may run before it counts as not exiting.
const limit = 20 * time.Second

func main() {
	dir := flag.String("dir", "../jsactor/internal/nodetests/testdata", "the testdata directory of jsactor/internal/nodetests")
	flag.Parse()
	abs, err := filepath.Abs(*dir)
	if err != nil {
		fail(err)
	}
	files, err := filepath.Glob(filepath.Join(abs, "parallel", "*.js"))
	if err != nil || len(files) == 0 {
		fail(fmt.Errorf("no test files in %s/parallel: %v", abs, err))
	}
	fmt.Println("| file | goja_nodejs | goja_nodejs + polyfills |")
	fmt.Println("|---|---|---|")
	var plain, poly int
	for _, f := range files {
		name := filepath.Base(f)
		a, b := runFile(abs, name, false), runFile(abs, name, true)
		if a == nil {
			plain++
		}
		if b == nil {
			poly++
		}
		fmt.Printf("| %s | %s | %s |\n", name, verdict(a), verdict(b))
	}
	fmt.Printf("\ngoja_nodejs passes %d of %d; with polyfills %d of %d\n", plain, len(files), poly, len(files))
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "nodetests:", err)
	os.Exit(1)
}

func verdict(err error) string {
	if err == nil {
		return "passes"
	}
	msg := strings.SplitN(err.Error(), "\n", 2)[0]
	if len(msg) > 100 {
		msg = msg[:100] + "…"
	}
	return "fails: " + strings.ReplaceAll(msg, "|", "\\|")
}

// polyfills are what the second column adds: process.nextTick and
// queueMicrotask, both as promise jobs.
const polyfills = `
process.nextTick = function nextTick(fn, ...args) {
	if (typeof fn !== 'function') throw new TypeError('callback is not a function');
	Promise.resolve().then(() => fn(...args));
};
globalThis.queueMicrotask = function queueMicrotask(fn) {
	if (typeof fn !== 'function') throw new TypeError('callback is not a function');
	Promise.resolve().then(() => fn());
};
`

// recordThrows wraps the timer functions so that a callback's throw,
// which goja_nodejs drops, is recorded (__throws), as Node would report
// it; this and the arguments pass through.
const recordThrows = `
globalThis.__throws = [];
for (const name of ['setTimeout', 'setInterval', 'setImmediate']) {
	const orig = globalThis[name];
	globalThis[name] = function (cb, ...rest) {
		if (typeof cb !== 'function') return orig(cb, ...rest);
		return orig(function (...args) {
			try {
				return Reflect.apply(cb, this, args);
			} catch (e) {
				__throws.push(e);
			}
		}, ...rest);
	};
}
`

// runFile runs one file and returns why it failed, or nil.
func runFile(dir, name string, polyfill bool) (err error) {
	reg := require.NewRegistry()
	reg.RegisterNativeModule("assert", assertModule(dir))
	loop := eventloop.NewEventLoop(eventloop.WithRegistry(reg), eventloop.EnableConsole(false))
	var (
		mu         sync.Mutex
		unhandled  = map[*goja.Promise]goja.Value{}
		runner     *goja.Object
		throws     func() []goja.Value
		jsFailures []string
	)
	setup := func(vm *goja.Runtime) error {
		process.Enable(vm)
		_ = vm.Set("console", map[string]any{"log": func(...any) {}, "error": func(...any) {}})
		vm.SetPromiseRejectionTracker(func(p *goja.Promise, op goja.PromiseRejectionOperation) {
			mu.Lock()
			defer mu.Unlock()
			if op == goja.PromiseRejectionReject {
				unhandled[p] = p.Result()
			} else {
				delete(unhandled, p)
			}
		})
		src := recordThrows
		if polyfill {
			src = polyfills + src
		}
		if _, err := vm.RunString(src); err != nil {
			return err
		}
		throws = func() []goja.Value {
			var out []goja.Value
			arr := vm.Get("__throws").ToObject(vm)
			for _, k := range arr.Keys() {
				out = append(out, arr.Get(k))
			}
			return out
		}
		v, err := vm.RunString(fmt.Sprintf("require(%q)", filepath.Join(dir, "harness", "run.js")))
		if err != nil {
			return err
		}
		runner = v.ToObject(vm)
		return call(vm, runner, "start", name)
	}
	if err := runLoop(loop, setup); err != nil {
		return err
	}
	var threw error
	exit := func(vm *goja.Runtime) error {
		for _, t := range throws() {
			jsFailures = append(jsFailures, "a callback threw: "+t.String())
		}
		for _, r := range unhandled {
			jsFailures = append(jsFailures, "unhandled rejection: "+r.String())
		}
		fn, _ := goja.AssertFunction(runner.Get("exit"))
		v, err := fn(runner)
		if err != nil {
			return err
		}
		if s := v.String(); s != "" {
			threw = fmt.Errorf("an 'exit' listener threw: %s", s)
		}
		return nil
	}
	if len(jsFailures) == 0 {
		if err := runLoop(loop, exit); err != nil {
			return err
		}
	}
	if len(jsFailures) > 0 {
		return errors.New(strings.Join(jsFailures, "; "))
	}
	return threw
}

// runLoop runs fn and then the loop until it has nothing left, within
// limit; a Go panic on the loop is returned as an error.
func runLoop(loop *eventloop.EventLoop, fn func(*goja.Runtime) error) error {
	done := make(chan error, 1)
	go func() {
		var err error
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("the Go process panicked: %v", p)
			}
			done <- err
		}()
		loop.Run(func(vm *goja.Runtime) { err = fn(vm) })
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(limit):
		loop.StopNoWait()
		<-done
		return fmt.Errorf("does not exit: the loop still had work after %v", limit)
	}
}

func call(vm *goja.Runtime, o *goja.Object, method string, args ...any) error {
	fn, ok := goja.AssertFunction(o.Get(method))
	if !ok {
		return fmt.Errorf("runner has no %s", method)
	}
	vals := make([]goja.Value, len(args))
	for i, a := range args {
		vals[i] = vm.ToValue(a)
	}
	_, err := fn(o, vals...)
	return err
}

// assertModule loads testdata/harness/assert.js as the module 'assert'.
func assertModule(dir string) require.ModuleLoader {
	return func(vm *goja.Runtime, module *goja.Object) {
		src, err := os.ReadFile(filepath.Join(dir, "harness", "assert.js"))
		if err != nil {
			panic(vm.NewGoError(err))
		}
		fnv, err := vm.RunString("(function (module, exports) {" + string(src) + "\n})")
		if err != nil {
			panic(err)
		}
		fn, _ := goja.AssertFunction(fnv)
		if _, err := fn(goja.Undefined(), module, module.Get("exports")); err != nil {
			panic(err)
		}
	}
}
