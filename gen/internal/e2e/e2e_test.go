package e2e_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/gen"
	"github.com/troupe-go/troupe/gen/internal/e2e"
	"github.com/troupe-go/troupe/loop"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// newSystem returns a system on clk (the real clock if nil), shut down at
// the end of the test.
func newSystem(t *testing.T, clk loop.Clock) *actor.System {
	t.Helper()
	var opts []actor.Option
	if clk != nil {
		opts = append(opts, actor.WithClock(clk))
	}
	sys, err := actor.NewSystem("e2e", opts...)
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

func spawnCounter(t *testing.T, sys *actor.System, id string, n int) e2e.CounterRef {
	t.Helper()
	ref, err := e2e.SpawnCounter(sys, id, func() *e2e.Counter { return &e2e.Counter{} })
	if err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		if err := ref.Add(n); err != nil {
			t.Fatal(err)
		}
	}
	return ref
}

func get(t *testing.T, ref e2e.CounterRef) int {
	t.Helper()
	n, err := ref.Get(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestTellAndAsk(t *testing.T) {
	sys := newSystem(t, nil)
	ref := spawnCounter(t, sys, "c", 0)
	for _, by := range []int{2, 3} {
		if err := ref.Add(by); err != nil {
			t.Fatal(err)
		}
	}
	if n := get(t, ref); n != 5 {
		t.Fatalf("Get = %d, want 5", n)
	}
	if err := ref.Sub(context.Background(), 10); !errors.Is(err, e2e.ErrNegative) {
		t.Fatalf("Sub(10) = %v, want ErrNegative", err)
	}
	if err := ref.Sub(context.Background(), 1); err != nil {
		t.Fatalf("Sub(1) = %v", err)
	}
	if s, err := ref.Sum(context.Background(), 10, 20); err != nil || s != 34 {
		t.Fatalf("Sum(10, 20) = %d, %v, want 34", s, err)
	}
}

func TestRefIdentity(t *testing.T) {
	sys := newSystem(t, nil)
	ref := spawnCounter(t, sys, "c", 0)
	if got := e2e.CounterRefOf(sys, ref.Ref()); got != ref {
		t.Fatalf("CounterRefOf(Ref()) = %v, want %v", got, ref)
	}
	if s := ref.String(); s != "troupe://e2e/counter/c" {
		t.Fatalf("String = %q", s)
	}
	if _, err := e2e.SpawnCounter(sys, "c", func() *e2e.Counter { return &e2e.Counter{} }); !errors.Is(err, actor.ErrNameTaken) {
		t.Fatalf("second spawn: %v, want ErrNameTaken", err)
	}
	if _, err := e2e.SpawnCounter(sys, "nil", nil); err == nil {
		t.Fatal("spawn with a nil factory succeeded")
	}
	nobody := e2e.CounterRefOf(sys, actor.NewRef("e2e", "counter", "nobody"))
	if err := nobody.Add(1); !errors.Is(err, actor.ErrNotFound) {
		t.Fatalf("Add to nobody: %v, want ErrNotFound", err)
	}
}

// TestAsyncAskFromActor: the Doubler's handler asks its child Counter with
// the asynchronous ask and replies with the promise it chains from it.
func TestAsyncAskFromActor(t *testing.T) {
	sys := newSystem(t, nil)
	d, err := e2e.SpawnDoubler(sys, "d", func() *e2e.Doubler { return &e2e.Doubler{} })
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	child, err := d.Counter(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if child.String() != "troupe://e2e/doubler/d/counter/child" { // names nest under the parent
		t.Fatalf("child = %v", child)
	}
	if err := child.Add(21); err != nil {
		t.Fatal(err)
	}
	if n, err := d.Doubled(ctx); err != nil || n != 42 {
		t.Fatalf("Doubled = %d, %v, want 42", n, err)
	}
	if err := d.BlockingGet(ctx); !errors.Is(err, actor.ErrWouldBlock) {
		t.Fatalf("blocking ask from a handler: %v, want ErrWouldBlock", err)
	}
}

// TestTimers drives the typed timers on a virtual clock.
func TestTimers(t *testing.T) {
	clk := loop.NewVirtualClock()
	sys := newSystem(t, clk)
	ref := spawnCounter(t, sys, "c", 0)
	ctx := context.Background()

	if err := ref.AddLater(ctx, 5, time.Second); err != nil {
		t.Fatal(err)
	}
	if n := get(t, ref); n != 0 {
		t.Fatalf("before the timer: %d, want 0", n)
	}
	clk.Advance(time.Second)
	waitFor(t, clk, ref, 5)

	if err := ref.StartTicking(ctx, 1, time.Second); err != nil {
		t.Fatal(err)
	}
	for want := 6; want <= 8; want++ {
		clk.Advance(time.Second)
		waitFor(t, clk, ref, want)
	}
	if err := ref.StopTicking(); err != nil {
		t.Fatal(err)
	}
	get(t, ref) // StopTicking was handled
	clk.Advance(10 * time.Second)
	if n := get(t, ref); n != 8 {
		t.Fatalf("after StopTicking: %d, want 8", n)
	}
}

// waitFor asks ref for its count until it is want: a timer fires on the
// actor's loop after the clock moves, not within Advance, and a loop that
// armed its wake-up for a time the clock had passed already is woken by
// the next Advance, so it advances by nothing between asks.
func waitFor(t *testing.T, clk *loop.VirtualClock, ref e2e.CounterRef, want int) {
	t.Helper()
	deadline := time.Now().Add(hangGuard)
	for {
		n := get(t, ref)
		if n == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("count %d, want %d (hang guard)", n, want)
		}
		clk.Advance(0)
		runtime.Gosched()
	}
}

// TestGeneratedIsFresh: the committed generated files are what troupegen
// generates now (run go generate in gen/internal/e2e if this fails). It
// runs the go command twice (about 6 s under -race on a busy 2-core
// machine), and CI checks that go generate ./... changes nothing, this
// package included: so it runs only with TROUPE_GEN_EXHAUSTIVE set, as in
// CI.
func TestGeneratedIsFresh(t *testing.T) {
	if os.Getenv("TROUPE_GEN_EXHAUSTIVE") == "" {
		t.Skip("set TROUPE_GEN_EXHAUSTIVE=1; go generate ./... with no diff checks the same")
	}
	files, _, err := gen.Generate(".")
	if err != nil {
		t.Fatal(err)
	}
	onDisk, err := filepath.Glob("*.gen.go")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for name := range files {
		names = append(names, name)
	}
	slices.Sort(names)
	if !slices.Equal(onDisk, names) {
		t.Fatalf("generated files on disk %v, generator makes %v", onDisk, names)
	}
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(data, files[name]) {
			t.Errorf("%s is stale: run go generate", name)
		}
	}
}
