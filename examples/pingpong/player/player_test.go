package player_test

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/examples/pingpong/player"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func newSystem(t *testing.T) *actor.System {
	t.Helper()
	sys, err := actor.NewSystem("pingpong")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := sys.Shutdown(context.Background()); err != nil {
			t.Error(err)
		}
	})
	return sys
}

func spawn(t *testing.T, sys *actor.System, id string) player.PlayerRef {
	t.Helper()
	ref, err := player.SpawnPlayer(sys, id, func() *player.Player { return &player.Player{} })
	if err != nil {
		t.Fatal(err)
	}
	return ref
}

func meet(t *testing.T, a, b player.PlayerRef) {
	t.Helper()
	for _, m := range [][2]player.PlayerRef{{a, b}, {b, a}} {
		if err := m[0].Meet(context.Background(), m[1]); err != nil {
			t.Fatal(err)
		}
	}
}

func hits(t *testing.T, p player.PlayerRef) int {
	t.Helper()
	n, err := p.Hits(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestRally: a rally of n round trips makes n hits per player, rally after
// rally.
func TestRally(t *testing.T) {
	sys := newSystem(t)
	alice, bob := spawn(t, sys, "alice"), spawn(t, sys, "bob")
	meet(t, alice, bob)
	total := 0
	for _, n := range []int{1, 2, 100, 5000} {
		played, err := alice.Serve(context.Background(), n)
		if err != nil || played != n {
			t.Fatalf("Serve(%d) = %d, %v", n, played, err)
		}
		total += n
		if a, b := hits(t, alice), hits(t, bob); a != total || b != total {
			t.Fatalf("after %d round trips: alice %d hits, bob %d", total, a, b)
		}
	}
}

// TestConcurrentRallies: both players serve at once; the balls cross.
func TestConcurrentRallies(t *testing.T) {
	sys := newSystem(t)
	alice, bob := spawn(t, sys, "alice"), spawn(t, sys, "bob")
	meet(t, alice, bob)
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, p := range []player.PlayerRef{alice, bob} {
		wg.Go(func() {
			n, err := p.Serve(context.Background(), 1000)
			if err == nil && n != 1000 {
				err = errors.New("wrong count")
			}
			errs[i] = err
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	if a, b := hits(t, alice), hits(t, bob); a != 2000 || b != 2000 {
		t.Fatalf("alice %d hits, bob %d; want 2000 each", a, b)
	}
}

// TestServeRefused: bad serves fail at once with a clear error.
func TestServeRefused(t *testing.T) {
	sys := newSystem(t)
	alone := spawn(t, sys, "alone")
	ctx := context.Background()
	if _, err := alone.Serve(ctx, 1); !errors.Is(err, player.ErrNoOpponent) {
		t.Fatalf("Serve without opponent: %v, want ErrNoOpponent", err)
	}
	bob := spawn(t, sys, "bob")
	meet(t, alone, bob)
	for _, n := range []int{0, -3} {
		if _, err := alone.Serve(ctx, n); !errors.Is(err, player.ErrBadRally) {
			t.Fatalf("Serve(%d): %v, want ErrBadRally", n, err)
		}
	}
}

// TestOpponentStops: a rally whose opponent stops settles with an error
// instead of waiting for the ask timeout; the player learns it through
// its handler of actor.Terminated.
func TestOpponentStops(t *testing.T) {
	sys := newSystem(t)
	alice, bob := spawn(t, sys, "alice"), spawn(t, sys, "bob")
	meet(t, alice, bob)
	done := make(chan error, 1)
	go func() {
		_, err := alice.Serve(context.Background(), 1<<40)
		done <- err
	}()
	bob.Stop()
	err := <-done
	if !errors.Is(err, player.ErrOpponentGone) && !errors.Is(err, actor.ErrStopped) &&
		!errors.Is(err, actor.ErrNotFound) && !errors.Is(err, player.ErrNoOpponent) {
		t.Fatalf("rally against a stopped opponent: %v", err)
	}
	// Once the Terminated is handled, a new serve is refused.
	for {
		_, err := alice.Serve(context.Background(), 1)
		if errors.Is(err, player.ErrNoOpponent) {
			break
		}
		if err == nil {
			t.Fatal("a rally against a stopped opponent succeeded")
		}
	}
}

// TestServeWhileRallyOn: bob has no opponent, so alice's ball never comes
// back; her rally stays on, and a second serve is refused. Stopping bob
// ends the rally through her handler of actor.Terminated.
func TestServeWhileRallyOn(t *testing.T) {
	sys := newSystem(t)
	alice, bob := spawn(t, sys, "alice"), spawn(t, sys, "bob")
	if err := alice.Meet(context.Background(), bob); err != nil {
		t.Fatal(err)
	}
	// The ask gives up, but the rally it started stays on.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := alice.Serve(ctx, 1); err == nil {
		t.Fatal("a ball nobody returns came back")
	}
	if _, err := alice.Serve(context.Background(), 1); !errors.Is(err, player.ErrRallyOn) {
		t.Fatalf("second serve: %v, want ErrRallyOn", err)
	}
	bob.Stop()
	for {
		_, err := alice.Serve(context.Background(), 1)
		if errors.Is(err, player.ErrNoOpponent) {
			break // the Terminated was handled: the rally ended, the opponent is gone
		}
		if !errors.Is(err, player.ErrRallyOn) {
			t.Fatalf("serve after bob stopped: %v, want ErrRallyOn until ErrNoOpponent", err)
		}
		runtime.Gosched()
	}
}
