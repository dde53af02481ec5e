package jsactor

import (
	"embed"

	"github.com/dop251/goja"

	"github.com/troupe-go/troupe/jsactor/internal/sandbox"
)

// The host's own JavaScript helpers, kept as .js files rather than Go
// strings so that they read, diff and lint as JavaScript. Each is a
// function expression the host calls with what it needs (see shim). The
// web builtins' helpers are in internal/web/js.
//
//go:embed js/*.js
var shimFiles embed.FS

// shim is the helper js/name.js, compiled on first use, named
// sandbox.ShimPrefix+name in stacks (which cleanStack leaves out of the
// script's stacks).
func shim(name string, strict bool) func() *goja.Program {
	return sandbox.LazyShim(shimFiles, "js", name, strict)
}
