package sandbox

import (
	"io/fs"
	"sync"

	"github.com/dop251/goja"
)

// The host's own JavaScript helpers ("shims") are function expressions
// the host runs in a Runtime and calls with what they need. They are
// compiled under names starting with ShimPrefix, so that CleanStack
// keeps their frames out of the script's stacks.

// MustCompileShim compiles the helper at path name+".js" of fsys (an
// embedded directory of the host), named ShimPrefix+base name in stacks.
// It panics if the file is missing or does not compile: a helper is part
// of the host's own program.
func MustCompileShim(fsys fs.FS, dir, name string, strict bool) *goja.Program {
	src, err := fs.ReadFile(fsys, dir+"/"+name+".js")
	if err != nil {
		panic(err)
	}
	return goja.MustCompile(ShimPrefix+name, string(src), strict)
}

// LazyShim is MustCompileShim on first call: a program holds a helper's
// compiled code (several kilobytes each) from then on, so helpers a
// program's scripts never reach (text codecs, events) cost it neither
// memory nor start-up time.
func LazyShim(fsys fs.FS, dir, name string, strict bool) func() *goja.Program {
	return sync.OnceValue(func() *goja.Program { return MustCompileShim(fsys, dir, name, strict) })
}

// RunShim runs a compiled helper that evaluates to a factory function
// and calls it with args, returning what it returns. What the helper
// throws is panicked, to propagate as a JavaScript exception from the
// native function that runs it.
func RunShim(rt *goja.Runtime, p *goja.Program, args ...any) goja.Value {
	f, err := rt.RunProgram(p)
	if err != nil {
		panic(err)
	}
	fn, _ := goja.AssertFunction(f)
	vals := make([]goja.Value, len(args))
	for i, a := range args {
		vals[i] = rt.ToValue(a)
	}
	v, err := fn(goja.Undefined(), vals...)
	if err != nil {
		panic(err)
	}
	return v
}
