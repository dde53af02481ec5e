package isolate

import (
	"errors"
	"testing"

	"github.com/troupe-go/troupe/actor"
)

// Without Main, Start refuses: a child would run the parent's program.
func TestStartWithoutMain(t *testing.T) {
	state.Lock()
	called := state.mainCalled
	state.mainCalled = false
	state.Unlock()
	defer func() {
		state.Lock()
		state.mainCalled = called
		state.Unlock()
	}()
	sys, err := actor.NewSystem("nomain")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = sys.Shutdown(t.Context()) }()
	if _, err := Start(sys); !errors.Is(err, ErrNoMain) {
		t.Fatalf("Start without Main: %v, want ErrNoMain", err)
	}
}
