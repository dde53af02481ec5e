package jsactor_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/jsactor"
)

// BenchmarkTrivialJSActorMemory reports bytes per idle JS actor whose
// script does nothing but export one handler, which was asked once: what
// the memory guards cost an actor that never uses a guarded builtin.
func BenchmarkTrivialJSActorMemory(b *testing.B) {
	sys, _ := actor.NewSystem("mem")
	defer sys.Shutdown(context.Background())
	s := jsactor.MustCompile("trivial.js", `module.exports = { hello(n) { return n + 1 } };`)
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
