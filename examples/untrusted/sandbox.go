package main

import (
	_ "embed"

	"github.com/dop251/goja"

	"github.com/troupe-go/troupe/jsactor"
	"github.com/troupe-go/troupe/jsactor/isolate"
)

//go:embed untrusted.js
var untrustedJS string

// sandbox is what the child process runs: the untrusted script as
// untrusted/main, granted the thumbnail module. Defined at package level,
// so that the child, which runs this same program, knows it.
var sandbox = isolate.Define("sandbox", func(c *isolate.Child) error {
	script, err := jsactor.Compile("untrusted.js", untrustedJS)
	if err != nil {
		return err
	}
	_, err = jsactor.Spawn(c.System(), "untrusted", "main", script, jsactor.WithModule("thumbnail", thumbnail))
	return err
})

// thumbnail stands for a native capability the host grants scripts, with
// a bug the JavaScript sandbox cannot see: a negative width crashes the
// process from a goroutine of its own, where no recover reaches.
func thumbnail(rt *goja.Runtime, module *goja.Object) {
	exports := module.Get("exports").ToObject(rt)
	_ = exports.Set("shrink", func(width int) int {
		if width < 0 {
			done := make(chan struct{})
			go func() {
				defer close(done)
				var pixels []byte
				_ = pixels[width] // index out of range, on a goroutine no one recovers
			}()
			<-done
		}
		return width / 2
	})
}
