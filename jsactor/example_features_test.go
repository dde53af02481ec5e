package jsactor_test

import (
	"context"
	"errors"
	"fmt"
	"testing/fstest"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/jsactor"
)

// A host grants an asynchronous capability: here a fake fetch that
// answers from a map. The script awaits it as it would await Node's
// fetch; without the module, it could reach no network at all.
func ExampleWithAsyncModule() {
	sys, _ := actor.NewSystem("demo")
	defer sys.Shutdown(context.Background())

	pages := map[string]string{"https://example.com/": "hello from example.com"}
	fetch := func(ctx context.Context, args []any) (any, error) {
		url, _ := args[0].(string)
		body, ok := pages[url]
		if !ok {
			return nil, fmt.Errorf("fetch %s: 404", url)
		}
		return map[string]any{"status": 200, "body": body}, nil
	}
	script := jsactor.MustCompile("crawler.js", `
		const { fetch } = require("net");
		module.exports = {
			async get(url) {
				try {
					const res = await fetch(url);
					return res.status + " " + res.body;
				} catch (e) {
					return "failed: " + e.message;
				}
			},
		};`)
	ref, err := jsactor.Spawn(sys, "crawler", "c1", script,
		jsactor.WithAsyncModule("net", map[string]jsactor.AsyncFunc{"fetch": fetch}))
	if err != nil {
		panic(err)
	}
	for _, url := range []string{"https://example.com/", "https://example.org/"} {
		v, _ := jsactor.Ask[string](context.Background(), sys, ref, "get", url)
		fmt.Println(v)
	}
	// Output:
	// 200 hello from example.com
	// failed: fetch https://example.org/: 404
}

// A throw answers the ask with the error; the actor keeps its state.
func ExampleWithCrashOnThrow() {
	sys, _ := actor.NewSystem("demo")
	defer sys.Shutdown(context.Background())

	script := jsactor.MustCompile("strict.js", `
		let n = 0;
		module.exports = {
			inc() { return ++n },
			check(v) { if (v < 0) throw new RangeError("negative: " + v); return v },
		};`)
	for _, opts := range [][]jsactor.Option{nil, {jsactor.WithCrashOnThrow()}} {
		ref, _ := jsactor.Spawn(sys, "strict", fmt.Sprint(len(opts)), script, opts...)
		_, _ = jsactor.Ask[int](context.Background(), sys, ref, "inc")
		_, err := jsactor.Ask[int](context.Background(), sys, ref, "check", -1)
		var je *jsactor.Error
		fmt.Println(errors.As(err, &je), je.Message)
		n, _ := jsactor.Ask[int](context.Background(), sys, ref, "inc")
		fmt.Println("n =", n) // 2: state kept; 1: restarted fresh
	}
	// Output:
	// true RangeError: negative: -1
	// n = 2
	// true RangeError: negative: -1
	// n = 1
}

// Initial arguments reach module.exports.init at each start, so an actor
// is handed the refs it needs once, at spawn.
func ExampleWithArgs() {
	sys, _ := actor.NewSystem("demo")
	defer sys.Shutdown(context.Background())

	script := jsactor.MustCompile("greeter.js", `
		let greeting;
		module.exports = {
			init(g) { greeting = g },
			greet(name) { return greeting + ", " + name },
		};`)
	ref, _ := jsactor.Spawn(sys, "greeter", "g1", script, jsactor.WithArgs("Hello"))
	v, _ := jsactor.Ask[string](context.Background(), sys, ref, "greet", "Ada")
	fmt.Println(v)

	// A top-level error is Spawn's.
	_, err := jsactor.Spawn(sys, "greeter", "g2", jsactor.MustCompile("bad.js", `null.x`))
	fmt.Println(errors.Is(err, jsactor.ErrScript), errors.Is(err, actor.ErrStartFailed))
	// Output:
	// Hello, Ada
	// true true
}

// Scripts require their own modules from a file system the host grants
// (an embed.FS in a program; a map here).
func ExampleWithFS() {
	sys, _ := actor.NewSystem("demo")
	defer sys.Shutdown(context.Background())

	files := fstest.MapFS{
		"app/main.js":     {Data: []byte(`const { shout } = require("./lib/text"); module.exports = { hi: (n) => shout("hi " + n) };`)},
		"app/lib/text.js": {Data: []byte(`const EventEmitter = require("events"); exports.shout = (s) => s.toUpperCase() + "!";`)},
	}
	main, _ := fs2script(files, "app/main.js")
	ref, _ := jsactor.Spawn(sys, "app", "a1", main, jsactor.WithFS(files))
	v, _ := jsactor.Ask[string](context.Background(), sys, ref, "hi", "there")
	fmt.Println(v)
	// Output: HI THERE!
}

func fs2script(files fstest.MapFS, name string) (*jsactor.Script, error) {
	return jsactor.Compile(name, string(files[name].Data))
}
