package main

import (
	"context"
	"io"

	"github.com/dop251/goja"

	"github.com/troupe-go/troupe/jsactor"
	"github.com/troupe-go/troupe/remote"
)

// sandbox is the child process: a node named "sandbox" that joins the
// host's leaf URL and runs the untrusted script as untrusted/main, until
// stop (the host's end of a pipe) closes.
func sandbox(ctx context.Context, hostURL string, stop io.Reader) error {
	sys, n, err := node("sandbox", remote.WithLeafRemotes(hostURL))
	if err != nil {
		return err
	}
	defer func() { _ = sys.Shutdown(ctx) }()
	defer func() { _ = n.Close(ctx) }()
	script, err := jsactor.Compile("untrusted.js", untrustedJS)
	if err != nil {
		return err
	}
	if _, err := jsactor.Spawn(sys, "untrusted", "main", script, jsactor.WithModule("thumbnail", thumbnail)); err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, stop)
	return nil
}

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
