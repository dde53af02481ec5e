package web

import (
	"embed"

	"github.com/dop251/goja"

	"github.com/troupe-go/troupe/jsactor/internal/sandbox"
)

// Env is what the web builtins of one instance need of it: its Runtime
// and two services of the layers above. Built by jsactor on the loop,
// used on the loop.
type Env struct {
	RT *goja.Runtime
	// Define makes name a global of the script, as built-ins are.
	Define func(name string, v goja.Value)
	// Bytes makes a Uint8Array holding a copy of b (null for a nil b),
	// with the genuine constructor, or fails.
	Bytes func(b []byte) (goja.Value, error)
}

// The web builtins' own JavaScript, kept as .js files so that it reads,
// diffs and lints as JavaScript.
//
//go:embed js/*.js
var shimFiles embed.FS

// shim is the helper js/name.js, compiled on first use.
func shim(name string) func() *goja.Program {
	return sandbox.LazyShim(shimFiles, "js", name, true)
}
