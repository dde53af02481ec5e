package remotetest_test

import (
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest"
	"github.com/troupe-go/troupe/actortest/remotetest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// echo answers "ping" with "pong" and forwards anything else to to, after
// a delay on its node's virtual time when it is a time.Duration.
func echo(to actor.Ref) actor.Factory {
	return func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			switch m := msg.(type) {
			case string:
				if m == "ping" {
					return "pong", nil
				}
			case int64:
				return "armed", c.Timers().StartSingle("later", time.Duration(m), "later")
			}
			return nil, c.Tell(to, msg)
		})
	}
}

// TestThreeNodes: tells, asks, timers on a node's virtual time, and death
// watch, across three nodes started with one call each.
func TestThreeNodes(t *testing.T) {
	c := remotetest.NewCluster(t)
	n1, n2, n3 := c.Node("n1"), c.Node("n2"), c.Node("n3")
	p := n1.NewProbe("p")
	e, err := n2.Spawn("echo", "e", echo(p.Ref()))
	if err != nil {
		t.Fatal(err)
	}
	if got := actortest.Ask[string](n3.System, e, "ping"); got != "pong" {
		t.Fatalf("ask across nodes = %q", got)
	}
	n3.Tell(e, "hello")
	p.ExpectMessage("hello")

	// an ask, not a tell: its reply says the timer is armed on n2, whose
	// virtual time alone decides when it fires
	actortest.Ask[string](n3.System, e, int64(time.Second))
	n2.Advance(time.Second - 1)
	p.ExpectNoMessage(0)
	n2.Advance(1)
	p.ExpectMessage("later")

	p.Watch(e)
	n2.Stop(e)
	p.ExpectTerminated(e)
	if len(c.Nodes()) != 3 {
		t.Fatal("nodes")
	}
}
