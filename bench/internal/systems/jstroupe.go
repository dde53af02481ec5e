package systems

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/dop251/goja"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/jsactor"

	"github.com/troupe-go/troupe/bench/internal/measure"
)

// troupe's column of the js suite: JS actors (jsactor) of one
// actor.System, asked through jsactor.Ask.
func init() {
	troupe.Cases["settimeout0_chain"] = func(p Params) (measure.Figures, error) { return troupeJSChain(p, "timeout") }
	troupe.Cases["setimmediate_chain"] = func(p Params) (measure.Figures, error) { return troupeJSChain(p, "immediate") }
	troupe.Cases["then_step"] = func(p Params) (measure.Figures, error) { return troupeJSChain(p, "then") }
	troupe.Cases["random10k"] = troupeJSRandom
	troupe.Cases["js_ask"] = troupeJSAsk
	troupe.Cases["js_actor"] = troupeJSIdle
	troupe.Cases["js_actor_spawn"] = troupeJSSpawn
}

var benchOrigin = time.Now()

// monoNow is the host's now(): monotonic ns since the process's origin.
func monoNow() int64 { return int64(time.Since(benchOrigin)) }

// troupeHost is the "host" module: now() and started().
func troupeHost(started func()) jsactor.Module {
	return func(rt *goja.Runtime, module *goja.Object) {
		exports := module.Get("exports").ToObject(rt)
		_ = exports.Set("now", func(goja.FunctionCall) goja.Value { return rt.ToValue(monoNow()) })
		_ = exports.Set("started", func(goja.FunctionCall) goja.Value {
			if started != nil {
				started()
			}
			return goja.Undefined()
		})
	}
}

func troupeJSSystem() (*actor.System, context.Context, func(), error) {
	s, err := actor.NewSystem("bench")
	if err != nil {
		return nil, nil, nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	return s, ctx, func() { cancel(); troupeActorShutdown(s) }, nil
}

func troupeJSSpawn1(s *actor.System, src, id string, opts ...jsactor.Option) (actor.Ref, error) {
	script, err := jsactor.Compile(id+".js", src)
	if err != nil {
		return actor.Ref{}, err
	}
	return jsactor.Spawn(s, "js", id, script, append([]jsactor.Option{jsactor.WithModule("host", troupeHost(nil))}, opts...)...)
}

// troupeJSChain runs one of the chain scenarios: the script's method runs
// p.N steps and answers with the count.
func troupeJSChain(p Params, method string) (measure.Figures, error) {
	s, ctx, stop, err := troupeJSSystem()
	if err != nil {
		return measure.Figures{}, err
	}
	defer stop()
	var opts []jsactor.Option
	if method == "then" { // all steps run in one turn's microtask checkpoint
		opts = append(opts, jsactor.WithBudget(time.Minute))
	}
	ref, err := troupeJSSpawn1(s, jsChainScript, "chain", opts...)
	if err != nil {
		return measure.Figures{}, err
	}
	if _, err := jsactor.Ask[int](ctx, s, ref, "inc", 0); err != nil { // started
		return measure.Figures{}, err
	}
	m := measure.Start()
	n, err := jsactor.Ask[int](ctx, s, ref, method, p.N)
	f := m.Stop(p.N)
	if err != nil {
		return f, err
	}
	if n != p.N {
		return f, fmt.Errorf("%s: %d steps, want %d", method, n, p.N)
	}
	if method == "then" {
		f.Note = "watchdog budget raised to 1 min: the 1M steps are one turn's checkpoint"
	}
	return f, nil
}

type randomResult struct {
	Order []int64 `json:"order"`
	At    []int64 `json:"at"`
	Start int64   `json:"start"`
	End   int64   `json:"end"`
}

func troupeJSRandom(p Params) (measure.Figures, error) {
	s, ctx, stop, err := troupeJSSystem()
	if err != nil {
		return measure.Figures{}, err
	}
	defer stop()
	ref, err := troupeJSSpawn1(s, jsRandomScript, "random")
	if err != nil {
		return measure.Figures{}, err
	}
	delays := randomDelays(p.N)
	res, err := jsactor.Ask[randomResult](ctx, s, ref, "random", delays)
	if err != nil {
		return measure.Figures{}, err
	}
	order := make([]int, len(res.Order))
	for i, x := range res.Order {
		order[i] = int(x)
	}
	return randomFigures(delays, order, res.At, res.Start, res.End), nil
}

func troupeJSAsk(p Params) (measure.Figures, error) {
	s, ctx, stop, err := troupeJSSystem()
	if err != nil {
		return measure.Figures{}, err
	}
	defer stop()
	ref, err := troupeJSSpawn1(s, jsChainScript, "asked")
	if err != nil {
		return measure.Figures{}, err
	}
	if _, err := jsactor.Ask[int](ctx, s, ref, "inc", 0); err != nil {
		return measure.Figures{}, err
	}
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
	return m.Stop(p.N), nil
}

// troupeJSIdle: p.N JS actors, each having handled hello (its 1 ms timer
// fired before the reply), then idle.
func troupeJSIdle(p Params) (measure.Figures, error) {
	s, ctx, stop, err := troupeJSSystem()
	if err != nil {
		return measure.Figures{}, err
	}
	defer stop()
	script, err := jsactor.Compile("small.js", jsSmallScript)
	if err != nil {
		return measure.Figures{}, err
	}
	f, err := jsactor.Factory(script, jsactor.WithModule("host", troupeHost(nil)))
	if err != nil {
		return measure.Figures{}, err
	}
	use := func(i int) (actor.Ref, error) {
		ref, err := s.Spawn("js", fmt.Sprint(i), f)
		if err != nil {
			return ref, err
		}
		v, err := jsactor.Ask[int](ctx, s, ref, "hello", i)
		if err == nil && v != i+1 {
			err = fmt.Errorf("hello(%d) = %d", i, v)
		}
		return ref, err
	}
	if _, err := use(-1); err != nil {
		return measure.Figures{}, err
	}
	time.Sleep(idleSettle)
	before := measure.TakeFootprint()
	refs := make([]actor.Ref, p.N)
	for i := range refs {
		if refs[i], err = use(i); err != nil {
			return measure.Figures{}, err
		}
	}
	time.Sleep(idleSettle)
	after := measure.TakeFootprint()
	runtime.KeepAlive(refs)
	return measure.PerItem(before, after, p.N), nil
}

func troupeJSSpawn(p Params) (measure.Figures, error) {
	s, _, stop, err := troupeJSSystem()
	if err != nil {
		return measure.Figures{}, err
	}
	defer stop()
	script, err := jsactor.Compile("small.js", jsSmallScript)
	if err != nil {
		return measure.Figures{}, err
	}
	var started atomic.Int64
	done := make(chan struct{})
	n := int64(p.N)
	f, err := jsactor.Factory(script, jsactor.WithModule("host", troupeHost(func() {
		if started.Add(1) == n {
			close(done)
		}
	})))
	if err != nil {
		return measure.Figures{}, err
	}
	m := measure.Start()
	for i := range p.N {
		if _, err := s.Spawn("js", fmt.Sprint(i), f); err != nil {
			return measure.Figures{}, err
		}
	}
	select {
	case <-done:
	case <-time.After(3 * time.Minute):
		return measure.Figures{}, errors.New("js_actor_spawn: scripts did not all start")
	}
	return m.Stop(p.N), nil
}
