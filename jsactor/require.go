package jsactor

import (
	"fmt"

	"github.com/dop251/goja"
)

// require(name) returns a host-registered module (WithModule), loaded once
// per instance; any other name throws. There is no file system loader:
// a script reaches nothing the host did not hand it.
func (in *instance) require(call goja.FunctionCall) goja.Value {
	name := call.Argument(0).String()
	c := in.cached()
	if v, ok := c.modules[name]; ok {
		return v
	}
	m, ok := in.cfg.modules[name]
	if !ok {
		panic(in.rt.NewGoError(fmt.Errorf("%w: %q", ErrModule, name)))
	}
	module := in.rt.NewObject()
	_ = module.Set("exports", in.rt.NewObject())
	m(in.rt, module)
	v := module.Get("exports")
	if c.modules == nil {
		c.modules = map[string]goja.Value{}
	}
	c.modules[name] = v
	return v
}
