package remote_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/remote"
)

// BenchmarkTell: tells of a 64-byte []byte from outside actors on n1 to
// an actor on n2 (two nodes of one process, joined as leaf nodes).
func BenchmarkTell(b *testing.B) { benchTell(b, benchCluster(b)) }

// benchTell measures tells from ns[0] to an actor on ns[1].
func benchTell(b *testing.B, ns []*node) {
	done := make(chan struct{})
	want := 0
	count := 0
	sink, err := ns[1].sys.Spawn("sink", "s", func() actor.Actor {
		return actor.ActorFunc(func(*actor.Context, any) (any, error) {
			if count++; count == want {
				close(done)
			}
			return nil, nil
		})
	})
	if err != nil {
		b.Fatal(err)
	}
	want = b.N
	payload := make([]byte, 64)
	b.ResetTimer()
	for range b.N {
		for {
			err := ns[0].sys.Tell(sink, payload)
			if err == nil {
				break
			}
			if !errors.Is(err, remote.ErrOverloaded) {
				b.Fatal(err)
			}
			time.Sleep(100 * time.Microsecond) // let the queue drain
		}
	}
	<-done
}

// BenchmarkSigning: the remote hot path without and with signing (see
// WithSigning), side by side: tells of a 64-byte []byte from outside
// actors, and sequential asks, from n1 to an actor on n2 (two nodes of
// one process, joined as leaf nodes).
func BenchmarkSigning(b *testing.B) {
	for _, signing := range []bool{false, true} {
		mode := "off"
		var opts func(string) []remote.Option
		if signing {
			mode = "on"
			ring := newKeyring(b, "n1", "n2")
			opts = func(name string) []remote.Option { return []remote.Option{ring.as(name)} }
		}
		b.Run("tell/signing="+mode, func(b *testing.B) { benchTell(b, benchClusterWith(b, opts)) })
		b.Run("ask/signing="+mode, func(b *testing.B) {
			ns := benchClusterWith(b, opts)
			echo, err := ns[1].sys.Spawn("echo", "e", func() actor.Actor {
				return actor.ActorFunc(func(_ *actor.Context, msg any) (any, error) { return msg, nil })
			})
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			b.ResetTimer()
			for i := range b.N {
				if _, err := actor.Ask[int64](ctx, ns[0].sys, echo, int64(i)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
