package actor_test

import (
	"errors"
	"strings"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/loop"
)

// A panic in a promise reaction of an actor is supervised as a handler's
// panic is: logged, and the actor restarts with a fresh instance; the
// reaction's promise still rejects, so an ask answered by it fails.
func TestPanickingReactionRestartsTheActor(t *testing.T) {
	for _, tc := range []struct {
		name  string
		reply bool // the handler answers the ask with the reaction's promise
	}{{"promise answers the ask", true}, {"promise dropped", false}} {
		t.Run(tc.name, func(t *testing.T) {
			core, logs := observer.New(zapcore.ErrorLevel)
			s := newSystem(t, actor.WithLogger(zap.New(core)))
			ref, _ := s.Spawn("reacting", "1", func() actor.Actor {
				n := 0
				return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
					switch msg {
					case "add":
						n++
					case "get":
						return n, nil
					case "react":
						p := loop.Then(loop.Resolved(c.Loop(), 1), func(int) (int, error) { panic("in reaction") })
						if tc.reply {
							return p, nil
						}
					}
					return nil, nil
				})
			})
			ask[any](t, s, ref, "add")
			if n, _ := ask[int](t, s, ref, "get"); n != 1 {
				t.Fatalf("count %d before the panic", n)
			}
			_, err := ask[any](t, s, ref, "react")
			var pe *loop.PanicError
			if tc.reply != errors.As(err, &pe) {
				t.Fatalf("ask answered by the reaction: %v", err)
			}
			if n, _ := ask[int](t, s, ref, "get"); n != 0 {
				t.Fatalf("count %d after the reaction panicked: the actor did not restart", n)
			}
			failed := logs.FilterMessage("actor failed").All()
			if len(failed) != 1 || !strings.Contains(failed[0].ContextMap()["error"].(string), "in reaction") {
				t.Fatalf("logged %v, want one failure naming the reaction's panic", logs.All())
			}
		})
	}
}
