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

// mustCompileShim compiles js/name.js, named sandbox.ShimPrefix+name in
// stacks (which cleanStack leaves out of the script's stacks).
func mustCompileShim(name string, strict bool) *goja.Program {
	return sandbox.MustCompileShim(shimFiles, "js", name, strict)
}
