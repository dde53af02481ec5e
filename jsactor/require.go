package jsactor

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"sync"

	"github.com/dop251/goja"

	"github.com/troupe-go/troupe/jsactor/internal/web"
)

// require(name) returns, in this order: a host-registered module
// (WithModule, WithAsyncModule), loaded once per instance; one of the
// built-in pure modules ("events", "util", and "timers", whose functions
// are the timer globals); for a name starting with
// "./", "../" or "/", a module file of the file system the host granted
// (WithFS), resolved relative to the requiring file. Any other name
// throws. A script reaches no file the host did not put in that fs.FS.

// requireFrom is require for a module whose file is in dir.
func (in *instance) requireFrom(dir string) func(goja.FunctionCall) goja.Value {
	return func(call goja.FunctionCall) goja.Value {
		return in.load(dir, call.Argument(0).String())
	}
}

// require is the global require, relative to the main script's file.
func (in *instance) require(call goja.FunctionCall) goja.Value {
	return in.load(path.Dir(in.script.name), call.Argument(0).String())
}

func (in *instance) load(dir, name string) goja.Value {
	c := in.cached()
	if v, ok := c.modules[name]; ok {
		return v
	}
	if m, ok := in.cfg.modules[name]; ok {
		if m == nil { // an async module
			m = in.asyncModule(in.cfg.async[name])
		}
		return in.loadNative(name, m)
	}
	if m := web.NodeModule(name); m != nil {
		return in.loadNative(name, m)
	}
	if name == "timers" {
		return in.loadNative(name, in.timersModule)
	}
	if in.cfg.files != nil && isPathName(name) {
		return in.loadFile(dir, name)
	}
	panic(in.rt.NewGoError(fmt.Errorf("%w: %q", ErrModule, name)))
}

func (in *instance) loadNative(name string, m Module) goja.Value {
	c := in.cached()
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

// timersModule is Node's "timers": the timer globals, the same functions.
func (in *instance) timersModule(_ *goja.Runtime, module *goja.Object) {
	exports := module.Get("exports").(*goja.Object)
	global := in.rt.GlobalObject()
	for _, name := range []string{"setTimeout", "clearTimeout", "setInterval", "clearInterval", "setImmediate", "clearImmediate"} {
		_ = exports.Set(name, global.Get(name))
	}
}

func isPathName(name string) bool {
	return strings.HasPrefix(name, "./") || strings.HasPrefix(name, "../") || strings.HasPrefix(name, "/")
}

// loadFile runs a module file once per instance and returns its
// module.exports. As in Node, a module is cached before its top level
// runs, so a cycle gets the exports the module had filled in so far; a
// module whose top level throws is dropped from the cache.
func (in *instance) loadFile(dir, name string) goja.Value {
	p, prog, err := in.cfg.resolveFile(dir, name)
	if err != nil { // a file that does not compile or cannot be read: a catchable error
		panic(in.rt.NewGoError(fmt.Errorf("%w: %q (from %q): %w", ErrModule, name, dir, err)))
	}
	if prog == nil {
		panic(in.rt.NewGoError(fmt.Errorf("%w: %q (from %q)", ErrModule, name, dir)))
	}
	c := in.cached()
	if m, ok := c.files[p]; ok {
		return m.Get("exports")
	}
	fnv, err := in.rt.RunProgram(prog)
	if err != nil {
		panic(err)
	}
	fn, _ := goja.AssertFunction(fnv)
	exports := in.rt.NewObject()
	module := in.rt.NewObject()
	_ = module.Set("exports", exports)
	_ = module.Set("id", p)
	if c.files == nil {
		c.files = map[string]*goja.Object{}
	}
	c.files[p] = module
	d := path.Dir(p)
	if _, err := fn(exports, exports, module, in.rt.ToValue(in.requireFrom(d)), in.rt.ToValue("/"+p), in.rt.ToValue("/"+d)); err != nil {
		delete(c.files, p)
		panic(err)
	}
	return module.Get("exports")
}

// fileCache holds the module files compiled so far, shared by the actors
// of one config: each file is compiled once.
type fileCache struct {
	mu    sync.Mutex
	progs map[string]*goja.Program // by clean path in the fs.FS
	errs  map[string]error
}

// resolveFile finds name relative to dir in the granted fs.FS (trying
// name, name.js and name/index.js, as Node does) and returns its clean
// path and compiled program, or nil when there is no such file. A file
// that does not compile, or a lookup that fails otherwise (a name the
// fs.FS refuses, a symlink out of an os.Root), is an error.
func (cfg *config) resolveFile(dir, name string) (string, *goja.Program, error) {
	base := path.Join(dir, name)
	if strings.HasPrefix(name, "/") {
		base = path.Clean(strings.TrimPrefix(name, "/"))
	}
	for _, p := range []string{base, base + ".js", path.Join(base, "index.js")} {
		if !fs.ValidPath(p) {
			continue
		}
		if prog, err := cfg.fileCache.compile(cfg.files, p); err == nil {
			return p, prog, nil
		} else if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, errIsDir) {
			return "", nil, err
		}
	}
	return "", nil, nil
}

var errIsDir = errors.New("a directory")

func (fc *fileCache) compile(fsys fs.FS, p string) (*goja.Program, error) {
	fc.mu.Lock()
	defer fc.mu.Unlock()
	if prog, ok := fc.progs[p]; ok {
		return prog, nil
	}
	if err, ok := fc.errs[p]; ok {
		return nil, err
	}
	prog, err := compileFile(fsys, p)
	if fc.progs == nil {
		fc.progs, fc.errs = map[string]*goja.Program{}, map[string]error{}
	}
	if err != nil {
		fc.errs[p] = err
		return nil, err
	}
	fc.progs[p] = prog
	return prog, nil
}

func compileFile(fsys fs.FS, p string) (*goja.Program, error) {
	if st, err := fs.Stat(fsys, p); err != nil {
		return nil, err
	} else if st.IsDir() {
		return nil, errIsDir
	}
	src, err := fs.ReadFile(fsys, p)
	if err != nil {
		return nil, err
	}
	s, err := Compile(p, string(src))
	if err != nil {
		return nil, err
	}
	return s.prog, nil
}
