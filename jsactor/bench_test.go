package jsactor_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/dop251/goja"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/jsactor"
)

const chainScript = `
module.exports = {
	timeout(n) { return new Promise((resolve) => { let i = 0; const step = () => { if (++i >= n) resolve(i); else setTimeout(step, 0); }; setTimeout(step, 0); }) },
	immediate(n) { return new Promise((resolve) => { let i = 0; const step = () => { if (++i >= n) resolve(i); else setImmediate(step); }; setImmediate(step); }) },
	async then(n) { let x = 0; for (let i = 0; i < n; i++) x = await Promise.resolve(x).then((v) => v + 1); return x },
	inc(n) { return n + 1 },
};`

func benchChain(b *testing.B, method string, steps int, opts ...jsactor.Option) {
	sys, _ := actor.NewSystem("bench")
	defer sys.Shutdown(context.Background())
	opts = append([]jsactor.Option{jsactor.WithBudget(time.Minute)}, opts...)
	ref, err := jsactor.Spawn(sys, "js", "chain", jsactor.MustCompile("chain.js", chainScript), opts...)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for b.Loop() {
		if n, err := jsactor.Ask[int](ctx, sys, ref, method, steps); err != nil || n != steps {
			b.Fatalf("%v %v", n, err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*steps), "ns/step")
}

func BenchmarkSetTimeoutChain(b *testing.B)   { benchChain(b, "timeout", 10_000) }
func BenchmarkSetImmediateChain(b *testing.B) { benchChain(b, "immediate", 10_000) }
func BenchmarkThenStep(b *testing.B)          { benchChain(b, "then", 100_000) }

// The chains with Node's timer objects (WithNodeTimers): an object per
// step.
func BenchmarkSetTimeoutChainNodeTimers(b *testing.B) {
	benchChain(b, "timeout", 10_000, jsactor.WithNodeTimers())
}

func BenchmarkSetImmediateChainNodeTimers(b *testing.B) {
	benchChain(b, "immediate", 10_000, jsactor.WithNodeTimers())
}

func BenchmarkAsk(b *testing.B) {
	sys, _ := actor.NewSystem("bench")
	defer sys.Shutdown(context.Background())
	ref, _ := jsactor.Spawn(sys, "js", "ask", jsactor.MustCompile("chain.js", chainScript))
	ctx := context.Background()
	i := 0
	for b.Loop() {
		if _, err := jsactor.Ask[int](ctx, sys, ref, "inc", i); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkGojaCallFloor is the floor under the chain benchmarks: goja
// alone, calling the chains' step function from Go once per op (a
// top-level call, which drops goja's VM stack on return), the step
// calling one native function as setTimeout would. No loop, no jsactor.
func BenchmarkGojaCallFloor(b *testing.B) {
	rt := goja.New()
	_ = rt.Set("next", func(goja.FunctionCall) goja.Value { return rt.ToValue(int64(1) << 30) })
	v, err := rt.RunString(`let i = 0; const step = () => { if (++i >= 1e15) i = 0; else next(step, 0); }; step`)
	if err != nil {
		b.Fatal(err)
	}
	step, _ := goja.AssertFunction(v)
	for b.Loop() {
		if _, err := step(goja.Undefined()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGojaCallNestedFloor is BenchmarkGojaCallFloor with each call
// made from inside a native function, so goja keeps its VM stack between
// calls (and drains no job queue). The difference between the two is what
// goja's dropping the stack after a top-level call costs each macrotask.
func BenchmarkGojaCallNestedFloor(b *testing.B) {
	rt := goja.New()
	_ = rt.Set("next", func(goja.FunctionCall) goja.Value { return rt.ToValue(int64(1) << 30) })
	v, err := rt.RunString(`let i = 0; const step = () => { if (++i >= 1e15) i = 0; else next(step, 0); }; step`)
	if err != nil {
		b.Fatal(err)
	}
	step, _ := goja.AssertFunction(v)
	var failed error
	_ = rt.Set("drive", func(goja.FunctionCall) goja.Value {
		for b.Loop() {
			if _, err := step(goja.Undefined()); err != nil {
				failed = err
				break
			}
		}
		return goja.Undefined()
	})
	if _, err := rt.RunString(`drive()`); err != nil || failed != nil {
		b.Fatal(err, failed)
	}
}

// BenchmarkSpawn spawns JS actors of the js_actor script; per actor, until
// its top level has run (Spawn waits for it).
func BenchmarkSpawn(b *testing.B) {
	sys, _ := actor.NewSystem("spawn")
	defer sys.Shutdown(context.Background())
	s := jsactor.MustCompile("small.js", smallScript)
	i := 0
	for b.Loop() {
		if _, err := jsactor.Spawn(sys, "js", fmt.Sprint(i), s); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
