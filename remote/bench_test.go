package remote_test

import (
	"errors"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/remote"
)

// BenchmarkTell: tells of a 64-byte []byte from outside actors on n1 to
// an actor on n2 (two nodes of one process, joined as leaf nodes).
func BenchmarkTell(b *testing.B) {
	ns := benchCluster(b)
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
