//go:build !race

package actor

import (
	"context"
	"errors"
	"runtime"
	"testing"
)

// An ask that gave up keeps, while its reply may still come, only what a
// late reply needs (where to dead-letter it), not its waiter: a thousand
// asks abandoned to an actor that never answers them (it stashes them,
// keeping each reply func) hold at most retainLimit bytes each, the
// stash's own share included. The waiter (channel, timer, lock) went back
// to its pool; it held about 576 bytes per ask before. Not under -race,
// whose sync.Pool drops waiters on purpose: a dropped waiter stays until
// its timer, armed for the ask timeout, has fired.
func TestAbandonedAskRetainsLittle(t *testing.T) {
	const asks, retainLimit = 1000, 200
	s := waiterSystem(t)
	held := &struct{ _ int }{}
	never, err := s.Spawn("never", "1", func() Actor {
		return ActorFunc(func(c *Context, msg any) (any, error) {
			if msg == held {
				return nil, c.Stash()
			}
			return "synced", nil
		})
	}, WithStash(2*asks))
	if err != nil {
		t.Fatal(err)
	}
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	flush := func() {
		if _, err := Ask[string](context.Background(), s, never, "sync"); err != nil {
			t.Fatal(err)
		}
	}
	abandon := func(n int) {
		for range n {
			if _, err := Ask[any](gone, s, never, held); !errors.Is(err, ErrTimeout) {
				t.Fatalf("ask with a done ctx: %v, want ErrTimeout", err)
			}
		}
		flush() // every abandoned ask's message is in the stash
	}
	abandon(asks) // grows the stash's array to its size for 2*asks
	before := heapInUse()
	abandon(asks)
	after := heapInUse()
	per := int64(after-before) / asks
	t.Logf("%d bytes per abandoned ask", per)
	if per > retainLimit {
		t.Fatalf("an abandoned ask holds %d bytes, want at most %d", per, retainLimit)
	}
}

// heapInUse returns the bytes of live heap objects, after two collections.
func heapInUse() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
