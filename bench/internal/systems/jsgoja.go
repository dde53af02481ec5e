package systems

import (
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/eventloop"

	"github.com/troupe-go/troupe/bench/internal/measure"
)

// goja_nodejs's column of the js suite: each script runs on a started
// eventloop.EventLoop, with `module` and a require("host") shim defined
// before it, so the scripts are the same text as troupe's.
func init() {
	gojaNodejs.Cases["settimeout0_chain"] = func(p Params) (measure.Figures, error) { return gojaJSChain(p, "timeout") }
	gojaNodejs.Cases["setimmediate_chain"] = func(p Params) (measure.Figures, error) { return gojaJSChain(p, "immediate") }
	gojaNodejs.Cases["then_step"] = func(p Params) (measure.Figures, error) { return gojaJSChain(p, "then") }
	gojaNodejs.Cases["random10k"] = gojaJSRandom
	gojaNodejs.Cases["js_ask"] = gojaJSAsk
	gojaNodejs.Cases["js_actor"] = gojaJSIdle
	gojaNodejs.Cases["js_actor_spawn"] = gojaJSSpawn
}

// gojaLoad evaluates src as a module on vm and returns its exports.
func gojaLoad(vm *goja.Runtime, src string, started func()) (*goja.Object, error) {
	host := vm.NewObject()
	_ = host.Set("now", func(goja.FunctionCall) goja.Value { return vm.ToValue(monoNow()) })
	_ = host.Set("started", func(goja.FunctionCall) goja.Value {
		if started != nil {
			started()
		}
		return goja.Undefined()
	})
	_ = vm.Set("require", func(goja.FunctionCall) goja.Value { return host })
	module := vm.NewObject()
	_ = module.Set("exports", vm.NewObject())
	_ = vm.Set("module", module)
	if _, err := vm.RunString(src); err != nil {
		return nil, err
	}
	return module.Get("exports").ToObject(vm), nil
}

// gojaCallThen calls exports[method](args...) on the loop and hands the
// value its promise fulfils with to done (or the error).
func gojaCallThen(l *eventloop.EventLoop, src, method string, done func(goja.Value, error), args ...any) error {
	return gojaRun(l, func(vm *goja.Runtime) {
		exports, err := gojaLoad(vm, src, nil)
		if err != nil {
			done(nil, err)
			return
		}
		fn, _ := goja.AssertFunction(exports.Get(method))
		vals := make([]goja.Value, len(args))
		for i, a := range args {
			vals[i] = vm.ToValue(a)
		}
		p, err := fn(exports, vals...)
		if err != nil {
			done(nil, err)
			return
		}
		then, _ := goja.AssertFunction(p.ToObject(vm).Get("then"))
		_, err = then(p, vm.ToValue(func(call goja.FunctionCall) goja.Value {
			done(call.Argument(0), nil)
			return goja.Undefined()
		}), vm.ToValue(func(call goja.FunctionCall) goja.Value {
			done(nil, fmt.Errorf("rejected: %v", call.Argument(0)))
			return goja.Undefined()
		}))
		if err != nil {
			done(nil, err)
		}
	})
}

type gojaOutcome struct {
	v   any
	err error
}

func gojaJSChain(p Params, method string) (measure.Figures, error) {
	l := gojaStart()
	defer l.Terminate()
	out := make(chan gojaOutcome, 1)
	var f measure.Figures
	var m *measure.Meter
	err := gojaRun(l, func(vm *goja.Runtime) {
		exports, err := gojaLoad(vm, jsChainScript, nil)
		if err != nil {
			out <- gojaOutcome{err: err}
			return
		}
		fn, _ := goja.AssertFunction(exports.Get(method))
		m = measure.Start()
		pv, err := fn(exports, vm.ToValue(p.N))
		if err != nil {
			out <- gojaOutcome{err: err}
			return
		}
		then, _ := goja.AssertFunction(pv.ToObject(vm).Get("then"))
		_, _ = then(pv, vm.ToValue(func(call goja.FunctionCall) goja.Value {
			f = m.Stop(p.N)
			out <- gojaOutcome{v: call.Argument(0).Export()}
			return goja.Undefined()
		}))
	})
	if err != nil {
		return measure.Figures{}, err
	}
	o := <-out
	if o.err != nil {
		return f, o.err
	}
	if n, _ := o.v.(int64); int(n) != p.N {
		return f, fmt.Errorf("%s: %v steps, want %d", method, o.v, p.N)
	}
	return f, nil
}

func gojaJSRandom(p Params) (measure.Figures, error) {
	l := gojaStart()
	defer l.Terminate()
	delays := randomDelays(p.N)
	out := make(chan gojaOutcome, 1)
	arg := make([]any, len(delays))
	for i, d := range delays {
		arg[i] = d
	}
	err := gojaCallThen(l, jsRandomScript, "random", func(v goja.Value, err error) {
		if err != nil {
			out <- gojaOutcome{err: err}
			return
		}
		out <- gojaOutcome{v: v.Export()}
	}, arg)
	if err != nil {
		return measure.Figures{}, err
	}
	o := <-out
	if o.err != nil {
		return measure.Figures{}, o.err
	}
	res, ok := o.v.(map[string]any)
	if !ok {
		return measure.Figures{}, fmt.Errorf("random10k: result %T", o.v)
	}
	orderAny, _ := res["order"].([]any)
	atAny, _ := res["at"].([]any)
	order := make([]int, len(orderAny))
	for i, x := range toInts(orderAny) {
		order[i] = int(x)
	}
	start, _ := res["start"].(int64)
	end, _ := res["end"].(int64)
	return randomFigures(delays, order, toInts(atAny), start, end), nil
}

func gojaJSAsk(p Params) (measure.Figures, error) {
	l := gojaStart()
	defer l.Terminate()
	var inc goja.Callable
	ready := make(chan error, 1)
	if err := gojaRun(l, func(vm *goja.Runtime) {
		exports, err := gojaLoad(vm, jsChainScript, nil)
		if err == nil {
			inc, _ = goja.AssertFunction(exports.Get("inc"))
		}
		ready <- err
	}); err != nil {
		return measure.Figures{}, err
	}
	if err := <-ready; err != nil {
		return measure.Figures{}, err
	}
	back := make(chan int64)
	m := measure.Start()
	for i := range p.N {
		if err := gojaRun(l, func(vm *goja.Runtime) {
			v, _ := inc(goja.Undefined(), vm.ToValue(i))
			back <- v.ToInteger()
		}); err != nil {
			return measure.Figures{}, err
		}
		if v := <-back; v != int64(i+1) {
			return measure.Figures{}, fmt.Errorf("inc(%d) = %d", i, v)
		}
	}
	return m.Stop(p.N), nil
}

// gojaJSIdle: p.N started loops, each running the small script and having
// handled hello (its 1 ms timer fired), then idle.
func gojaJSIdle(p Params) (measure.Figures, error) {
	use := func(i int) (*eventloop.EventLoop, error) {
		l := gojaStart()
		done := make(chan error, 1)
		err := gojaCallThen(l, jsSmallScript, "hello", func(_ goja.Value, err error) { done <- err }, i)
		if err != nil {
			return l, err
		}
		return l, <-done
	}
	warm, err := use(-1)
	if err != nil {
		return measure.Figures{}, err
	}
	defer warm.Terminate()
	time.Sleep(idleSettle)
	before := measure.TakeFootprint()
	loops := make([]*eventloop.EventLoop, p.N)
	for i := range loops {
		if loops[i], err = use(i); err != nil {
			return measure.Figures{}, err
		}
	}
	time.Sleep(idleSettle)
	after := measure.TakeFootprint()
	runtime.KeepAlive(loops)
	f := measure.PerItem(before, after, p.N)
	f.Note = "a started goja_nodejs loop holds a goroutine; no actor machinery"
	for _, l := range loops {
		l.Terminate()
	}
	return f, nil
}

func gojaJSSpawn(p Params) (measure.Figures, error) {
	var started atomic.Int64
	done := make(chan struct{})
	n := int64(p.N)
	onStart := func() {
		if started.Add(1) == n {
			close(done)
		}
	}
	loops := make([]*eventloop.EventLoop, 0, p.N)
	defer func() {
		for _, l := range loops {
			l.Terminate()
		}
	}()
	m := measure.Start()
	for range p.N {
		l := gojaStart()
		loops = append(loops, l)
		if err := gojaRun(l, func(vm *goja.Runtime) { _, _ = gojaLoad(vm, jsSmallScript, onStart) }); err != nil {
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
