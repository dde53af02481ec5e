package player_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest"
	"github.com/troupe-go/troupe/examples/pingpong/player"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// newSystem is a test system of the kit: the tests settle it instead of
// polling.
func newSystem(t *testing.T, opts ...actortest.Option) *actortest.System {
	t.Helper()
	return actortest.NewSystem(t, append([]actortest.Option{actortest.WithName("pingpong")}, opts...)...)
}

func spawn(t *testing.T, s *actortest.System, id string) player.PlayerRef {
	t.Helper()
	ref, err := player.SpawnPlayer(s.System, id, func() *player.Player { return &player.Player{} })
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
	s := newSystem(t)
	alice, bob := spawn(t, s, "alice"), spawn(t, s, "bob")
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
	s := newSystem(t)
	alice, bob := spawn(t, s, "alice"), spawn(t, s, "bob")
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
	s := newSystem(t)
	alone := spawn(t, s, "alone")
	ctx := context.Background()
	if _, err := alone.Serve(ctx, 1); !errors.Is(err, player.ErrNoOpponent) {
		t.Fatalf("Serve without opponent: %v, want ErrNoOpponent", err)
	}
	bob := spawn(t, s, "bob")
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
	s := newSystem(t, actortest.WithOutsideWait(time.Minute))
	alice, bob := spawn(t, s, "alice"), spawn(t, s, "bob")
	meet(t, alice, bob)
	served := s.NewProbe("served")
	go func() { // the serve's ask blocks until the rally ends
		_, err := alice.Serve(context.Background(), 1<<40)
		_ = s.Tell(served.Ref(), serveResult{err})
	}()
	bob.Stop()
	err := actortest.ExpectMessageType[serveResult](served).err
	if !errors.Is(err, player.ErrOpponentGone) && !errors.Is(err, actor.ErrStopped) &&
		!errors.Is(err, actor.ErrNotFound) && !errors.Is(err, player.ErrNoOpponent) {
		t.Fatalf("rally against a stopped opponent: %v", err)
	}
	// Once the Terminated is handled (settled), a new serve is refused.
	s.Settle()
	for _, d := range s.TakeDeadLetters() { // the ball in flight, if bob stopped mid-rally
		if d.To != bob.Ref() {
			t.Errorf("dead letter %v, want none but a ball to bob", d)
		}
	}
	if _, err := alice.Serve(context.Background(), 1); !errors.Is(err, player.ErrNoOpponent) {
		t.Fatalf("serve after bob stopped: %v, want ErrNoOpponent", err)
	}
}

// serveResult is the outcome of a serve, told to a probe.
type serveResult struct{ err error }

// TestServeWhileRallyOn: bob has no opponent, so alice's ball never comes
// back; her rally stays on, and a second serve is refused. Stopping bob
// ends the rally through her handler of actor.Terminated; the first serve's
// reply then goes to dead letters, its ask having given up.
func TestServeWhileRallyOn(t *testing.T) {
	s := newSystem(t)
	alice, bob := spawn(t, s, "alice"), spawn(t, s, "bob")
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
	s.Settle() // the Terminated was handled: the rally ended, the opponent is gone
	// The first serve's reply, the rally's end, came after its ask gave up.
	if d := s.ExpectDeadLetter(); !errors.Is(d.Reason, actor.ErrTimeout) || !isErr(d.Message, player.ErrOpponentGone) {
		t.Fatalf("dead letter %v (%v), want the first serve's late reply: ErrOpponentGone", d, d.Message)
	}
	if _, err := alice.Serve(context.Background(), 1); !errors.Is(err, player.ErrNoOpponent) {
		t.Fatalf("serve after bob stopped: %v, want ErrNoOpponent", err)
	}
}

// isErr reports whether msg is an error that is target.
func isErr(msg any, target error) bool {
	err, ok := msg.(error)
	return ok && errors.Is(err, target)
}
