package remotetest_test

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest"
	"github.com/troupe-go/troupe/actortest/remotetest"
	"github.com/troupe-go/troupe/remote"
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

// TestStartAndMeet: nodes started one by one, in a topology of the
// test's own, reach each other once Meet returns.
func TestStartAndMeet(t *testing.T) {
	hub := remotetest.Start(t, "hub", remotetest.WithRemoteOptions(remote.WithLeafListen("127.0.0.1:0")))
	leaf := remotetest.Start(t, "leaf", remotetest.WithRemoteOptions(remote.WithLeafRemotes(hub.Remote.LeafURL())))
	remotetest.Meet(t, hub, leaf)
	p := hub.NewProbe("p")
	leaf.Tell(p.Ref(), "hello")
	p.ExpectMessage("hello")
}

// TestStartAndMeetFail: a node that cannot start, and nodes that never
// reach each other, fail the test.
func TestStartAndMeetFail(t *testing.T) {
	for _, tc := range []struct {
		name string
		fn   func(tb testing.TB)
		want string
	}{
		{"bad option", func(tb testing.TB) {
			remotetest.Start(tb, "bad", remotetest.WithRemoteOptions(remote.WithLeafRemotes("nats-leaf://%zz")))
		}, "remotetest: start node bad"},
		{"apart", func(tb testing.TB) {
			quick := remotetest.WithOutsideWait(50 * time.Millisecond)
			remotetest.Meet(tb, remotetest.Start(tb, "a", quick), remotetest.Start(tb, "b", quick))
		}, "remotetest: node a does not reach b"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeTB{TB: t}
			done := make(chan struct{})
			go func() {
				defer close(done)
				tc.fn(f)
			}()
			<-done
			for i := len(f.cleanups) - 1; i >= 0; i-- {
				f.cleanups[i]()
			}
			if !f.failed || !strings.Contains(f.msg, tc.want) {
				t.Fatalf("failed %v with %q, want %q", f.failed, f.msg, tc.want)
			}
		})
	}
}

// fakeTB records a failure instead of failing the test; Fatal ends the
// goroutine, as testing does. Cleanups wait for the test to run them.
type fakeTB struct {
	testing.TB
	mu       sync.Mutex
	failed   bool
	msg      string
	cleanups []func()
}

func (f *fakeTB) Cleanup(fn func()) { f.cleanups = append(f.cleanups, fn) }
func (f *fakeTB) Errorf(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.failed = true
	f.msg += fmt.Sprintf(format, args...) + "\n"
}
func (f *fakeTB) Fatalf(format string, args ...any) { f.Errorf(format, args...); runtime.Goexit() }
