//go:build unix

package isolate_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/jsactor"
	"github.com/troupe-go/troupe/jsactor/isolate"
)

// The cost of isolation, side by side with an in-process JS actor of the
// same script (go test -run '^$' -bench . -benchtime 20x -count 3
// ./jsactor/isolate; figures in bench/RESULTS.md):
//
//   - Spawn: start one actor and wait until it answers, then stop it: an
//     in-process jsactor.Spawn, or a group of one actor in a child
//     process (fork, exec, runtime start, NATS connection, setup).
//   - Ask: an external goroutine's sequential asks, add(i, 1).
//   - Memory: bytes one more actor costs: in-process, the heap and stacks
//     of 100 JS actors divided by 100; isolated, the resident memory of a
//     child running one actor (VmRSS), beside its address space (VmSize),
//     what WithMemoryLimit must leave room for.

var benchScript = jsactor.MustCompile("bench.js", `module.exports.add = (a, b) => a + b;`)

var benchGroup = isolate.Define("bench", func(c *isolate.Child) error {
	_, err := jsactor.Spawn(c.System(), "js", "main", benchScript)
	return err
})

func BenchmarkSpawn(b *testing.B) {
	ctx := context.Background()
	b.Run("in-process", func(b *testing.B) {
		sys, _ := actor.NewSystem("host")
		defer sys.Shutdown(ctx)
		i := 0
		for b.Loop() {
			ref, err := jsactor.Spawn(sys, "js", strconv.Itoa(i), benchScript)
			if err != nil {
				b.Fatal(err)
			}
			mustAdd(b, sys, ref, i)
			sys.Stop(ref)
			i++
		}
	})
	b.Run("isolated", func(b *testing.B) {
		sys, h := benchHost(b)
		i := 0
		for b.Loop() {
			g, err := h.Spawn(ctx, benchGroup, "b"+strconv.Itoa(i))
			if err != nil {
				b.Fatal(err)
			}
			mustAdd(b, sys, g.Ref("js", "main"), i)
			if err := g.Stop(ctx); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
}

func BenchmarkAsk(b *testing.B) {
	ctx := context.Background()
	b.Run("in-process", func(b *testing.B) {
		sys, _ := actor.NewSystem("host")
		defer sys.Shutdown(ctx)
		ref, err := jsactor.Spawn(sys, "js", "main", benchScript)
		if err != nil {
			b.Fatal(err)
		}
		benchAsk(b, sys, ref)
	})
	b.Run("isolated", func(b *testing.B) {
		sys, h := benchHost(b)
		g, err := h.Spawn(ctx, benchGroup, "b-ask")
		if err != nil {
			b.Fatal(err)
		}
		benchAsk(b, sys, g.Ref("js", "main"))
	})
}

func BenchmarkMemory(b *testing.B) {
	ctx := context.Background()
	b.Run("in-process", func(b *testing.B) {
		const n = 100
		sys, _ := actor.NewSystem("host")
		defer sys.Shutdown(ctx)
		for b.Loop() {
			before := inuse()
			refs := make([]actor.Ref, n)
			for i := range refs {
				ref, err := jsactor.Spawn(sys, "js", strconv.Itoa(i), benchScript)
				if err != nil {
					b.Fatal(err)
				}
				mustAdd(b, sys, ref, i)
				refs[i] = ref
			}
			b.ReportMetric(float64(inuse()-before)/n, "bytes/actor")
			runtime.KeepAlive(refs)
			for _, r := range refs {
				sys.Stop(r)
			}
		}
	})
	b.Run("isolated", func(b *testing.B) {
		sys, h := benchHost(b)
		for b.Loop() {
			g, err := h.Spawn(ctx, benchGroup, "b-mem")
			if err != nil {
				b.Fatal(err)
			}
			mustAdd(b, sys, g.Ref("js", "main"), 1)
			b.ReportMetric(float64(procStatus(b, g.PID(), "VmRSS")), "bytes/actor")
			b.ReportMetric(float64(procStatus(b, g.PID(), "VmSize")), "vm-bytes/child")
			if err := g.Stop(ctx); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func benchHost(b *testing.B) (*actor.System, *isolate.Host) {
	sys, err := actor.NewSystem("host")
	if err != nil {
		b.Fatal(err)
	}
	h, err := isolate.Start(sys)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		_ = h.Close(context.Background())
		_ = sys.Shutdown(context.Background())
	})
	return sys, h
}

func benchAsk(b *testing.B, sys *actor.System, ref actor.Ref) {
	i := 0
	for b.Loop() {
		mustAdd(b, sys, ref, i)
		i++
	}
}

func mustAdd(b *testing.B, sys *actor.System, ref actor.Ref, i int) {
	if n, err := jsactor.Ask[int](context.Background(), sys, ref, "add", i, 1); err != nil || n != i+1 {
		b.Fatalf("add(%d, 1) = %d, %v", i, n, err)
	}
}

// inuse is the heap and stacks in use, after two collections.
func inuse() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapInuse + m.StackInuse
}

// procStatus reads a "kB" field of /proc/<pid>/status, in bytes.
func procStatus(b *testing.B, pid int, field string) uint64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Skip("no /proc here:", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				b.Fatal(err)
			}
			return kb << 10
		}
	}
	b.Fatalf("no %s in /proc/%d/status", field, pid)
	return 0
}
