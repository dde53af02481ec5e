//go:build unix

package isolate_test

import (
	"context"
	"fmt"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/jsactor"
	"github.com/troupe-go/troupe/jsactor/isolate"
)

// greeters is a kind of group, defined at package level so that the
// child process, which runs this same program, knows it. The test
// binary's TestMain calls isolate.Main, as a program's main would.
var greeters = isolate.Define("greeters", func(c *isolate.Child) error {
	_, err := jsactor.Spawn(c.System(), "greeter", "main", jsactor.MustCompile("greeter.js", `
		module.exports.greet = (name) => "hello, " + name + ", from another process";
	`))
	return err
})

func Example() {
	// In a program: func main() { isolate.Main(); ... } comes first.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	sys, _ := actor.NewSystem("host")
	defer func() { _ = sys.Shutdown(ctx) }()
	h, err := isolate.Start(sys)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer func() { _ = h.Close(ctx) }()

	// One child process for the tenant acme: at most 2 GiB of address
	// space and a minute of CPU time, restarted whenever it dies.
	g, err := h.Spawn(ctx, greeters, "acme", isolate.WithMemoryLimit(2<<30), isolate.WithCPUTimeLimit(time.Minute))
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := jsactor.Ask[string](ctx, sys, g.Ref("greeter", "main"), "greet", "acme")
	fmt.Println(s, err)
	// Output: hello, acme, from another process <nil>
}
