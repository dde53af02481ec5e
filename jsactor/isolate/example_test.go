//go:build unix

package isolate_test

import (
	"context"
	"errors"
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

// A host uses a cgroup per child where it has a cgroup v2 delegation, and
// rlimits alone where it has none; Host.Cgroup says which. A CPU rate
// needs a cgroup.
func ExampleHost_Cgroup() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	sys, _ := actor.NewSystem("host")
	defer func() { _ = sys.Shutdown(ctx) }()
	// WithoutCgroup makes the outcome the same on every machine; a
	// program would leave it out, or name its delegated cgroup with
	// isolate.WithCgroup("/sys/fs/cgroup/my.service/tenants").
	h, err := isolate.Start(sys, isolate.WithoutCgroup())
	if err != nil {
		fmt.Println(err)
		return
	}
	defer func() { _ = h.Close(ctx) }()
	opts := []isolate.Option{isolate.WithMemoryLimit(1 << 30)}
	if _, err := h.Cgroup(); err == nil {
		opts = append(opts, isolate.WithCPURate(0.5)) // half a core at most
	} else {
		fmt.Println("rlimits only:", errors.Is(err, isolate.ErrNoCgroup))
	}
	g, err := h.Spawn(ctx, greeters, "acme", opts...)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("the child's cgroup: %q\n", g.Cgroup())
	// Output:
	// rlimits only: true
	// the child's cgroup: ""
}

// namers answers with what its setup read from its node: the child's
// node is its group's, connected as the group's own NATS user.
var namers = isolate.Define("namers", func(c *isolate.Child) error {
	name := c.Node().Name()
	_, err := c.System().Spawn("namer", "main", func() actor.Actor {
		return actor.ActorFunc(func(*actor.Context, any) (any, error) { return "node " + name, nil })
	})
	return err
})

func ExampleChild_Node() {
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
	g, err := h.Spawn(ctx, namers, "tenant-7")
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := jsactor.Ask[string](ctx, sys, g.Ref("namer", "main"), "name")
	fmt.Println(s, err)
	// Output: node tenant-7 <nil>
}
