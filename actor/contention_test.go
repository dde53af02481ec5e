package actor_test

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"fmt"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/troupe-go/troupe/actor"
)

// BenchmarkMeshContention measures lock contention, not speed: the mesh
// scenario of bench/cmd/compare (meshActors actors forwarding meshTokens
// messages to random peers) on contentionWorkers workers with GOMAXPROCS
// raised to match, whatever the machine's cores. Goroutines then run on
// more Ps than cores, so every lock held across a preemption is seen
// waited for, as it would be with that many cores busy. It reports the
// mutex profile's wait time (contended sync.Mutex, at the unlocker) and the
// block profile's (sync.Mutex waits and channel waits, at the waiter) per
// message, and with -v the top call sites of each. A worker's idle wait for
// work (park) is a channel receive and is reported apart, as park-ns/op.
//
//	go test -run '^$' -bench MeshContention -benchtime 200000x -v ./actor/
func BenchmarkMeshContention(b *testing.B) {
	s := contentionSystem(b, "mesh")
	var err error
	refs := make([]actor.Ref, meshActors)
	var done sync.WaitGroup
	for i := range refs {
		rng := uint64(i)*0x9E3779B97F4A7C15 | 1
		refs[i], err = s.Spawn("mesh", strconv.Itoa(i), func() actor.Actor {
			return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
				h := msg.(*meshHop)
				if h.left == 0 {
					done.Done()
					return nil, nil
				}
				h.left--
				rng ^= rng << 13
				rng ^= rng >> 7
				rng ^= rng << 17
				return nil, c.Tell(refs[rng%meshActors], h)
			})
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	per := max(b.N/meshTokens, 1)
	mu0, bl0 := readContention(b, "mutex"), readContention(b, "block")
	b.ResetTimer()
	done.Add(meshTokens)
	for i := range meshTokens {
		if err := s.Tell(refs[i%meshActors], &meshHop{left: per - 1}); err != nil {
			b.Fatal(err)
		}
	}
	done.Wait()
	b.StopTimer()
	reportContention(b, float64(per*meshTokens), readContention(b, "mutex").minus(mu0), readContention(b, "block").minus(bl0))
}

// BenchmarkInjectContention measures lock contention, not speed, of work
// arriving from outside the pool: contentionWorkers goroutines that are
// no workers (request handlers, say) each tell random actors of
// meshActors, most of them idle, so nearly every tell schedules its
// receiver from outside, on as many workers and Ps. It reports as
// BenchmarkMeshContention does; with -v, the top call sites.
//
//	go test -run '^$' -bench InjectContention -benchtime 1000000x -v ./actor/
func BenchmarkInjectContention(b *testing.B) {
	s := contentionSystem(b, "inject")
	var err error
	per := max(b.N/contentionWorkers, 1)
	var done sync.WaitGroup
	done.Add(per * contentionWorkers)
	refs := make([]actor.Ref, meshActors)
	for i := range refs {
		refs[i], err = s.Spawn("sink", strconv.Itoa(i), func() actor.Actor {
			return actor.ActorFunc(func(*actor.Context, any) (any, error) { done.Done(); return nil, nil })
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	mu0, bl0 := readContention(b, "mutex"), readContention(b, "block")
	b.ResetTimer()
	var senders sync.WaitGroup
	for g := range contentionWorkers {
		senders.Go(func() {
			rng := uint64(g)*0x9E3779B97F4A7C15 | 1
			for range per {
				rng ^= rng << 13
				rng ^= rng >> 7
				rng ^= rng << 17
				if err := s.Tell(refs[rng%meshActors], g); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	senders.Wait()
	done.Wait()
	b.StopTimer()
	reportContention(b, float64(per*contentionWorkers), readContention(b, "mutex").minus(mu0), readContention(b, "block").minus(bl0))
}

// contentionSystem returns a system of contentionWorkers workers, with
// GOMAXPROCS raised to match and the mutex and block profiles on, all
// undone when b ends.
func contentionSystem(b *testing.B, name string) *actor.System {
	procs := runtime.GOMAXPROCS(contentionWorkers)
	fraction := runtime.SetMutexProfileFraction(1)
	runtime.SetBlockProfileRate(1)
	s, err := actor.NewSystem(name, actor.WithWorkers(contentionWorkers))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		s.Shutdown(context.Background())
		runtime.SetBlockProfileRate(0)
		runtime.SetMutexProfileFraction(fraction)
		runtime.GOMAXPROCS(procs)
	})
	return s
}

// reportContention reports the wait time of mutex profile mu and block
// profile bl over msgs messages, a worker's idle wait apart.
func reportContention(b *testing.B, msgs float64, mu, bl contention) {
	park := bl.take(isPark)
	mu.take(func(s string) bool { return s == "" }) // the testing package's own locks
	b.ReportMetric(mu.total().ns/msgs, "mutex-ns/op")
	b.ReportMetric(bl.total().ns/msgs, "block-ns/op")
	b.ReportMetric(1000*bl.total().n/msgs, "waits/1000op")
	b.ReportMetric(park.total().ns/msgs, "park-ns/op")
	sched := contention{}
	for k, v := range mu {
		if isRunQueueLock(k) {
			sched[k] = v
		}
	}
	b.ReportMetric(1000*sched.total().n/msgs, "runq-waits/1000op")
	if testing.Verbose() {
		b.Logf("N=%d msgs=%.0f\n%s%s%s", b.N, msgs, mu.top("mutex", msgs), bl.top("block", msgs), park.top("park", msgs))
	}
}

const (
	contentionWorkers = 32
	meshActors        = 10_000
	meshTokens        = 100
)

type meshHop struct{ left int }

// contention is wait time and waits per call site: the first frame
// outside the runtime and sync, with the frame below it.
type contention map[string]waits

type waits struct{ ns, n float64 }

// readContention parses a mutex or block profile's text form (debug=1),
// whose header gives cycles/second.
func readContention(b *testing.B, name string) contention {
	var buf bytes.Buffer
	if err := pprof.Lookup(name).WriteTo(&buf, 1); err != nil {
		b.Fatal(err)
	}
	c := contention{}
	hz := 1.0
	var cycles, count float64
	var frames []string
	flush := func() {
		if cycles > 0 {
			w := c[site(frames)]
			c[site(frames)] = waits{w.ns + cycles/hz*1e9, w.n + count}
		}
		cycles, count, frames = 0, 0, nil
	}
	sc := bufio.NewScanner(&buf)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "cycles/second="):
			hz, _ = strconv.ParseFloat(strings.TrimPrefix(line, "cycles/second="), 64)
		case line != "" && line[0] >= '0' && line[0] <= '9':
			flush()
			f := strings.Fields(line)
			cycles, _ = strconv.ParseFloat(f[0], 64)
			count, _ = strconv.ParseFloat(f[1], 64)
		case strings.HasPrefix(line, "#\t"):
			f := strings.Fields(line)
			if len(f) >= 4 {
				frames = append(frames, f[2]+" "+f[3])
			}
		}
	}
	flush()
	return c
}

// site names a stack by its first two frames outside the runtime, sync and
// this file's plumbing.
func site(frames []string) string {
	var keep []string
	for _, f := range frames {
		fn := strings.Fields(f)[0]
		if strings.HasPrefix(fn, "runtime.") || strings.HasPrefix(fn, "sync.") || strings.HasPrefix(fn, "internal/") ||
			strings.HasPrefix(fn, "testing.") {
			continue
		}
		keep = append(keep, shortFrame(f))
		if len(keep) == 2 {
			break
		}
	}
	return strings.Join(keep, " < ")
}

func shortFrame(f string) string {
	fn, file, _ := strings.Cut(f, " ")
	if i := strings.LastIndex(fn, "/"); i >= 0 {
		fn = fn[i+1:]
	}
	if i := strings.LastIndex(file, "/"); i >= 0 {
		file = file[i+1:]
	}
	if j := strings.Index(fn, "+0x"); j >= 0 {
		fn = fn[:j]
	}
	return fn + " (" + file + ")"
}

func (c contention) minus(o contention) contention {
	d := contention{}
	for k, v := range c {
		if v.ns -= o[k].ns; v.ns > 0 {
			v.n -= o[k].n
			d[k] = v
		}
	}
	return d
}

func (c contention) total() (t waits) {
	for _, v := range c {
		t.ns += v.ns
		t.n += v.n
	}
	return t
}

// take moves the sites matching f to a new contention.
func (c contention) take(f func(string) bool) contention {
	d := contention{}
	for k, v := range c {
		if f(k) {
			d[k] = v
			delete(c, k)
		}
	}
	return d
}

// isPark tells idle waits from contention: a worker parked for want of
// work, the stall sampler asleep, the benchmark waiting for the end.
func isPark(site string) bool {
	return strings.Contains(site, "(*worker).park") || strings.Contains(site, "startSampler") ||
		strings.Contains(site, "BenchmarkMeshContention") || strings.Contains(site, "BenchmarkInjectContention")
}

// isRunQueueLock tells the scheduler's run-queue locks (the global queue's,
// the idle list's, a worker's local queue's) from the mailboxes'.
func isRunQueueLock(site string) bool {
	for _, f := range []string{"scheduleGlobal", "takeGlobal", "wakeIdle", "inject", "runQueue", "steal", "pushLocal", "(*worker).find"} {
		if strings.Contains(site, f) {
			return true
		}
	}
	return false
}

// top lists the sites with the most wait, in ns per message and as a
// share of the total.
func (c contention) top(name string, msgs float64) string {
	type kv struct {
		k string
		v waits
	}
	var all []kv
	for k, v := range c {
		all = append(all, kv{k, v})
	}
	slices.SortFunc(all, func(a, b kv) int { return cmp.Compare(b.v.ns, a.v.ns) })
	var sb strings.Builder
	t := c.total()
	fmt.Fprintf(&sb, "%s: %.1f ns/msg, %.2f waits per 1000 msgs\n", name, t.ns/msgs, 1000*t.n/msgs)
	for _, e := range all[:min(len(all), 8)] {
		fmt.Fprintf(&sb, "  %8.1f ns/msg %5.1f%% %7.2f/1000 msgs  %s\n", e.v.ns/msgs, 100*e.v.ns/t.ns, 1000*e.v.n/msgs, e.k)
	}
	return sb.String()
}
