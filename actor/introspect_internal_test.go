package actor

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// An actor that handled a message, a fired timer and an ask keeps no
// introspection state: what listings show of it comes from its loop's own
// counters. Detailed metrics, when on, are what costs (start times).
func TestIdleActorsKeepNoSideState(t *testing.T) {
	for _, detailed := range []bool{false, true} {
		t.Run(fmt.Sprint("detailed=", detailed), func(t *testing.T) {
			s, err := NewSystem("idle")
			if err != nil {
				t.Fatal(err)
			}
			defer s.Shutdown(context.Background())
			s.SetDetailedMetrics(detailed)
			fired := make(chan struct{}, 100)
			f := func() Actor {
				return ActorFunc(func(c *Context, msg any) (any, error) {
					switch msg {
					case "arm":
						c.Timers().StartSingle("t", time.Nanosecond, "fire")
					case "fire":
						fired <- struct{}{}
					}
					return msg, nil
				})
			}
			const n = 100
			for i := range n {
				ref, _ := s.Spawn("idle", fmt.Sprint(i), f)
				s.Tell(ref, "arm")
				if _, err := Ask[string](context.Background(), s, ref, "ask"); err != nil {
					t.Fatal(err)
				}
			}
			for range n {
				<-fired
			}
			side := 0
			s.obs.side.Range(func(any, any) bool { side++; return true })
			want := 0
			if detailed {
				want = n // start times
			}
			if side != want {
				t.Fatalf("%d actors with side state, want %d", side, want)
			}
		})
	}
}
