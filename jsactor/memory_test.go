package jsactor_test

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/jsactor"
)

// The js_actor script of the benchmark suite: JSON, a Map, a Promise and
// one timer, each actor having handled one message.
const smallScript = `
const seen = new Map();
module.exports = {
	hello(n) {
		seen.set("n", JSON.parse(JSON.stringify({ n })));
		setTimeout(() => seen.delete("n"), 1);
		return Promise.resolve(n + 1);
	},
};`

// BenchmarkJSActorMemory reports bytes per idle JS actor (the js_actor
// scenario in small).
func BenchmarkJSActorMemory(b *testing.B) {
	sys, _ := actor.NewSystem("mem")
	defer sys.Shutdown(context.Background())
	s := jsactor.MustCompile("small.js", smallScript)
	const n = 500
	use := func(i int) actor.Ref {
		ref, err := jsactor.Spawn(sys, "js", fmt.Sprint(i), s)
		if err != nil {
			b.Fatal(err)
		}
		if v, err := jsactor.Ask[int](context.Background(), sys, ref, "hello", i); err != nil || v != i+1 {
			b.Fatalf("hello: %v %v", v, err)
		}
		return ref
	}
	use(-1)
	for b.Loop() {
		before := heap()
		refs := make([]actor.Ref, n)
		for i := range refs {
			refs[i] = use(i)
		}
		after := heap()
		b.ReportMetric(float64(after-before)/n, "B/actor")
		b.StopTimer()
		for _, r := range refs {
			sys.Stop(r)
		}
		b.StartTimer()
	}
}

func heap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse + m.StackInuse
}
