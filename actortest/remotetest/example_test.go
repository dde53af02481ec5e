package remotetest_test

import (
	"fmt"
	"testing"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest"
	"github.com/troupe-go/troupe/actortest/remotetest"
)

// Two nodes in one process: an actor on n2 tells a probe on n1.
func ExampleCluster() {
	t := exampleT() // in a test: the test's *testing.T
	defer t.finish()

	c := remotetest.NewCluster(t)
	n1, n2 := c.Node("n1"), c.Node("n2")
	p := n1.NewProbe("p")
	greeter, _ := n2.Spawn("greeter", "g", func() actor.Actor {
		return actor.ActorFunc(func(ctx *actor.Context, msg any) (any, error) {
			return nil, ctx.Tell(p.Ref(), "hello "+msg.(string))
		})
	})
	n1.Tell(greeter, "ann")
	fmt.Println(actortest.ExpectMessageType[string](p))
	// Output: hello ann
}

// exampleTB stands in for the *testing.T of a test, so the example runs.
type exampleTB struct {
	testing.TB
	cleanups []func()
}

func exampleT() *exampleTB { return &exampleTB{} }

func (t *exampleTB) Helper()                   {}
func (t *exampleTB) Name() string              { return "Example" }
func (t *exampleTB) Logf(string, ...any)       {}
func (t *exampleTB) Cleanup(fn func())         { t.cleanups = append(t.cleanups, fn) }
func (t *exampleTB) Failed() bool              { return false }
func (t *exampleTB) Errorf(f string, a ...any) { fmt.Printf("FAIL: "+f+"\n", a...) }
func (t *exampleTB) Fatalf(f string, a ...any) { t.Errorf(f, a...); panic("fatal") }

func (t *exampleTB) finish() {
	for i := len(t.cleanups) - 1; i >= 0; i-- {
		t.cleanups[i]()
	}
}
