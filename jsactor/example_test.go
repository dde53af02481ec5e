package jsactor_test

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/jsactor"
)

func ExampleSpawn() {
	sys, _ := actor.NewSystem("demo")
	defer sys.Shutdown(context.Background())

	script := jsactor.MustCompile("counter.js", `
		let total = 0;
		module.exports = {
			add(n) { total += n; return total },
			async later(n) { await new Promise(r => setTimeout(r, 1)); return { total, doubled: n * 2 } },
		};`)
	ref, err := jsactor.Spawn(sys, "counter", "c1", script)
	if err != nil {
		panic(err)
	}
	_ = jsactor.Tell(sys, ref, "add", 40)
	sum, _ := jsactor.Ask[int](context.Background(), sys, ref, "add", 2)
	fmt.Println(sum)

	var out struct {
		Total   int `json:"total"`
		Doubled int `json:"doubled"`
	}
	out, _ = jsactor.Ask[struct {
		Total   int `json:"total"`
		Doubled int `json:"doubled"`
	}](context.Background(), sys, ref, "later", 21)
	fmt.Println(out.Total, out.Doubled)
	// Output:
	// 42
	// 42 42
}

func ExampleFactory() {
	sys, _ := actor.NewSystem("demo")
	defer sys.Shutdown(context.Background())

	script := jsactor.MustCompile("echo.js", `module.exports = { receive(msg) { return "echo " + msg } };`)
	factory, _ := jsactor.Factory(script, jsactor.WithBudget(50e6))
	ref, _ := sys.Spawn("echo", "e1", factory, actor.WithRestartLimit(3, 60e9))
	v, _ := actor.Ask[any](context.Background(), sys, ref, "hi")
	fmt.Println(v)
	// Output: echo hi
}

func ExampleSpawnChild() {
	sys, _ := actor.NewSystem("demo")
	defer sys.Shutdown(context.Background())

	script := jsactor.MustCompile("greeter.js", `module.exports = { greet(name) { return "hello " + name } };`)
	// A Go supervisor starts a JS worker as its child and forwards asks to it.
	parent, _ := sys.Spawn("boss", "b1", func() actor.Actor {
		var worker actor.Ref
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			if worker.IsZero() {
				var err error
				if worker, err = jsactor.SpawnChild(c, "greeter", "g1", script); err != nil {
					return nil, err
				}
			}
			// Returning the promise answers the ask with the child's reply.
			return jsactor.AskAsync[string](c, worker, "greet", msg), nil
		})
	})
	v, err := actor.Ask[string](context.Background(), sys, parent, "troupe")
	fmt.Println(v, err)
	// Output: hello troupe <nil>
}

func ExampleWithConversionLimits() {
	sys, _ := actor.NewSystem("demo")
	defer sys.Shutdown(context.Background())

	script := jsactor.MustCompile("sizes.js", `module.exports = { size(list) { return list.length } };`)
	ref, _ := jsactor.Spawn(sys, "sizes", "s1", script, jsactor.WithConversionLimits(1000, 1<<20))
	n, err := jsactor.Ask[int](context.Background(), sys, ref, "size", make([]int, 100))
	fmt.Println(n, err)
	_, err = jsactor.Ask[int](context.Background(), sys, ref, "size", make([]int, 5000))
	fmt.Println(errors.Is(err, jsactor.ErrCannotCross))
	// Output:
	// 100 <nil>
	// true
}

func ExampleFloat64Array() {
	sys, _ := actor.NewSystem("demo")
	defer sys.Shutdown(context.Background())

	script := jsactor.MustCompile("typed.js", `module.exports = {
		kinds(a, b, c) { return [a.constructor.name, b.constructor.name, typeof c] },
		halves(n) { return new Float64Array(n).fill(0.5) },
	};`)
	ref, _ := jsactor.Spawn(sys, "typed", "t1", script)
	kinds, _ := jsactor.Ask[[]string](context.Background(), sys, ref, "kinds", jsactor.Float64Array{1}, []float64{1}, big.NewInt(7))
	fmt.Println(kinds)
	halves, _ := jsactor.Ask[jsactor.Float64Array](context.Background(), sys, ref, "halves", 2)
	fmt.Println(halves)
	// Output:
	// [Float64Array Array bigint]
	// [0.5 0.5]
}
