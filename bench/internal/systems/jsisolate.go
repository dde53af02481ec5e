package systems

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/jsactor"
	"github.com/troupe-go/troupe/jsactor/isolate"

	"github.com/troupe-go/troupe/bench/internal/measure"
)

// troupe's isolated JS actors (package jsactor/isolate): the js suite's
// scripts in a child process of the benchmark's binary, one group of one
// actor per process, reached through refs over the host's embedded NATS.
// The binary must call isolate.Main first (cmd/compare does).
func init() {
	troupe.Cases["js_isolated_spawn"] = troupeIsolatedSpawn
	troupe.Cases["js_isolated_ask"] = troupeIsolatedAsk
	troupe.Cases["js_isolated_actor"] = troupeIsolatedIdle
	gojaNodejs.cannotRun("no process isolation: a goja_nodejs loop runs in its host's process",
		"js_isolated_spawn", "js_isolated_ask", "js_isolated_actor")
}

// Extra figures of the isolated scenarios.
const (
	// ExtraChildRSS is a child's resident memory (VmRSS), bytes.
	ExtraChildRSS = "child_rss_bytes"
	// ExtraChildPSS is a child's proportional share of resident memory
	// (Pss: pages shared with the other children, the binary's text
	// above all, divided among them), bytes.
	ExtraChildPSS = "child_pss_bytes"
	// ExtraChildCPU is the children's CPU time per operation, ns,
	// included in the case's CPU figure.
	ExtraChildCPU = "child_cpu_ns_per_op"
)

// The groups the isolated cases run: js/asked of the chain script (the
// js_ask actor), js/small of the js_actor script.
var (
	isolatedChain = isolate.Define("bench-js-chain", func(c *isolate.Child) error {
		_, err := troupeJSSpawn1(c.System(), jsChainScript, "asked")
		return err
	})
	isolatedSmall = isolate.Define("bench-js-small", func(c *isolate.Child) error {
		_, err := troupeJSSpawn1(c.System(), jsSmallScript, "small")
		return err
	})
)

// troupeIsolatedHost starts a JS system made a host of isolated groups.
func troupeIsolatedHost() (*actor.System, *isolate.Host, context.Context, func(), error) {
	s, ctx, stop, err := troupeJSSystem()
	if err != nil {
		return nil, nil, nil, nil, err
	}
	h, err := isolate.Start(s)
	if err != nil {
		stop()
		if errors.Is(err, isolate.ErrNoMain) {
			err = fmt.Errorf("%w (call isolate.Main first in the benchmark's main)", err)
		}
		return nil, nil, nil, nil, err
	}
	return s, h, ctx, func() {
		c, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_ = h.Close(c)
		stop()
	}, nil
}

// isolatedHello spawns group name of the js_actor script and asks its
// actor hello once (its timer fires before the answer).
func isolatedHello(ctx context.Context, s *actor.System, h *isolate.Host, name string, i int) (*isolate.Group, error) {
	g, err := h.Spawn(ctx, isolatedSmall, name)
	if err != nil {
		return nil, err
	}
	v, err := jsactor.Ask[int](ctx, s, g.Ref("js", "small"), "hello", i)
	if err == nil && v != i+1 {
		err = fmt.Errorf("hello(%d) = %d", i, v)
	}
	return g, err
}

// troupeIsolatedSpawn: p.N groups spawned one after the other, each until
// its actor answered hello; they stay up until the end.
func troupeIsolatedSpawn(p Params) (measure.Figures, error) {
	s, h, ctx, stop, err := troupeIsolatedHost()
	if err != nil {
		return measure.Figures{}, err
	}
	defer stop()
	if _, err := isolatedHello(ctx, s, h, "warm", -1); err != nil {
		return measure.Figures{}, err
	}
	pids := make([]int, 0, p.N)
	childCPU := -childrenCPU(pids)
	m := measure.Start()
	for i := range p.N {
		g, err := isolatedHello(ctx, s, h, "g"+strconv.Itoa(i), i)
		if err != nil {
			return measure.Figures{}, err
		}
		pids = append(pids, g.PID())
	}
	f := m.Stop(p.N)
	childCPU += childrenCPU(pids) // the children's whole lives: they began in the region
	addChildCPU(&f, childCPU, p.N)
	return f, nil
}

// troupeIsolatedAsk: p.N sequential asks of an isolated JS actor, as
// js_ask asks one in process.
func troupeIsolatedAsk(p Params) (measure.Figures, error) {
	s, h, ctx, stop, err := troupeIsolatedHost()
	if err != nil {
		return measure.Figures{}, err
	}
	defer stop()
	g, err := h.Spawn(ctx, isolatedChain, "asked")
	if err != nil {
		return measure.Figures{}, err
	}
	ref := g.Ref("js", "asked")
	if _, err := jsactor.Ask[int](ctx, s, ref, "inc", 0); err != nil {
		return measure.Figures{}, err
	}
	pids := []int{g.PID()}
	childCPU := -childrenCPU(pids)
	m := measure.Start()
	for i := range p.N {
		v, err := jsactor.Ask[int](ctx, s, ref, "inc", i)
		if err != nil {
			return measure.Figures{}, err
		}
		if v != i+1 {
			return measure.Figures{}, fmt.Errorf("inc(%d) = %d", i, v)
		}
	}
	f := m.Stop(p.N)
	childCPU += childrenCPU(pids)
	if g.Starts() != 1 {
		return f, fmt.Errorf("the child restarted during the asks (%d starts): %v", g.Starts(), g.Err())
	}
	addChildCPU(&f, childCPU, p.N)
	return f, nil
}

// troupeIsolatedIdle: p.N groups, each having handled hello, then idle:
// per group, the child's resident memory plus the host's (HeapInuse +
// StackInuse) growth. A warm-up group is excluded.
func troupeIsolatedIdle(p Params) (measure.Figures, error) {
	s, h, ctx, stop, err := troupeIsolatedHost()
	if err != nil {
		return measure.Figures{}, err
	}
	defer stop()
	if _, err := isolatedHello(ctx, s, h, "warm", -1); err != nil {
		return measure.Figures{}, err
	}
	time.Sleep(idleSettle)
	before := measure.TakeFootprint()
	groups := make([]*isolate.Group, p.N)
	for i := range groups {
		if groups[i], err = isolatedHello(ctx, s, h, "g"+strconv.Itoa(i), i); err != nil {
			return measure.Figures{}, err
		}
	}
	time.Sleep(idleSettle)
	after := measure.TakeFootprint()
	f := measure.PerItem(before, after, p.N)
	var rss, pss float64
	for _, g := range groups {
		r, s, err := residentMemory(g.PID())
		if err != nil {
			return f, err
		}
		rss += r
		pss += s
	}
	runtime.KeepAlive(groups)
	n := float64(p.N)
	f.BytesPerOp += rss / n
	f.Extra = map[string]float64{ExtraChildRSS: rss / n, ExtraChildPSS: pss / n}
	f.Note = fmt.Sprintf("child VmRSS %.1f MB (Pss %.1f MB) + host growth %.0f kB per group",
		rss/n/1e6, pss/n/1e6, (f.BytesPerOp-rss/n)/1e3)
	return f, nil
}

// residentMemory reads a process's VmRSS and Pss, in bytes, from /proc.
func residentMemory(pid int) (rss, pss float64, err error) {
	if rss, err = procKB("/proc/"+strconv.Itoa(pid)+"/status", "VmRSS:"); err != nil {
		return 0, 0, err
	}
	pss, err = procKB("/proc/"+strconv.Itoa(pid)+"/smaps_rollup", "Pss:")
	return rss, pss, err
}

// procKB reads the "<key> <n> kB" line of a /proc file, in bytes.
func procKB(path, key string) (float64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, fmt.Errorf("%w: reading a child's memory: %w", ErrNA, err)
	}
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(line, key); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb * 1024, err
		}
	}
	return 0, fmt.Errorf("%s: no %s line", path, key)
}

// childrenCPU sums the user+sys CPU time of processes, in ns, from
// /proc/<pid>/stat (clock ticks of 10 ms); processes it cannot read
// count 0.
func childrenCPU(pids []int) float64 {
	const tick = 1e7 // ns: USER_HZ is 100 on Linux
	total := 0.0
	for _, pid := range pids {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			continue
		}
		// The fields after the command, which is in parentheses and may
		// hold spaces: state is field 3, utime 14, stime 15.
		_, rest, ok := strings.Cut(string(b), ") ")
		fields := strings.Fields(rest)
		if !ok || len(fields) < 13 {
			continue
		}
		ut, _ := strconv.ParseFloat(fields[11], 64)
		st, _ := strconv.ParseFloat(fields[12], 64)
		total += (ut + st) * tick
	}
	return total
}

// addChildCPU adds the children's CPU time over the region to f's CPU.
func addChildCPU(f *measure.Figures, ns float64, ops int) {
	per := ns / float64(ops)
	f.CPUNsPerOp += per
	if f.Extra == nil {
		f.Extra = map[string]float64{}
	}
	f.Extra[ExtraChildCPU] = per
}
