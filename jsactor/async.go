package jsactor

import (
	"context"
	"errors"
	"fmt"

	"github.com/dop251/goja"

	"github.com/troupe-go/troupe/loop"
)

// AsyncFunc is a host capability that a script calls as an async
// function (see [WithAsyncModule]): the call returns a promise at once,
// and fn runs on a goroutine of its own, off the actor's loop, so it may
// block (an HTTP request, a query). It gets the call's arguments copied
// to Go as a message's are, and a context cancelled when the actor
// instance that called it dies (it stops, or fails and is restarted).
// The promise settles with fn's result, copied into JavaScript, or is
// rejected with its error, on the actor's loop, in a turn of its own; a
// settlement that comes after the instance died is dropped.
type AsyncFunc func(ctx context.Context, args []any) (any, error)

// WithAsyncModule lets scripts require(name) a module whose functions are
// fns, each returning a promise (see [AsyncFunc]). It is how a host
// grants asynchronous capabilities: a script can fetch over HTTP only if
// the host registers a fetch that does so, on the terms it chooses.
func WithAsyncModule(name string, fns map[string]AsyncFunc) Option {
	return func(c *config) error {
		if name == "" || len(fns) == 0 {
			return errors.New("jsactor: WithAsyncModule needs a name and functions")
		}
		for fname, fn := range fns {
			if fn == nil {
				return fmt.Errorf("jsactor: WithAsyncModule: %s.%s is nil", name, fname)
			}
		}
		fns = clonedFns(fns)
		return WithModule(name, nil)(c.withAsync(name, fns))
	}
}

func clonedFns(fns map[string]AsyncFunc) map[string]AsyncFunc {
	out := make(map[string]AsyncFunc, len(fns))
	for k, v := range fns {
		out[k] = v
	}
	return out
}

// withAsync records an async module; WithModule then reserves its name
// (a nil Module stands for it).
func (c *config) withAsync(name string, fns map[string]AsyncFunc) *config {
	if c.async == nil {
		c.async = map[string]map[string]AsyncFunc{}
	}
	c.async[name] = fns
	return c
}

// asyncModule builds the exports of an async module for this instance.
func (in *instance) asyncModule(fns map[string]AsyncFunc) Module {
	return func(rt *goja.Runtime, module *goja.Object) {
		exports := module.Get("exports").(*goja.Object)
		for name, fn := range fns {
			_ = exports.Set(name, func(call goja.FunctionCall) goja.Value {
				return in.callAsync(fn, in.argsGo(call, 0))
			})
		}
	}
}

// callAsync runs fn off the loop and returns the promise of its result.
func (in *instance) callAsync(fn AsyncFunc, args []any) goja.Value {
	if in.asyncCtx == nil {
		in.asyncCtx, in.asyncCancel = context.WithCancel(context.Background())
	}
	ictx := in.asyncCtx
	p := loop.Go(in.l, func(lctx context.Context) (any, error) {
		ctx, cancel := context.WithCancel(lctx)
		defer cancel()
		stop := context.AfterFunc(ictx, cancel)
		defer stop()
		return fn(ctx, args)
	})
	return in.askJS(p)
}
