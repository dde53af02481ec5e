package loop_test

import (
	"context"
	"errors"
	"testing"

	"github.com/troupe-go/troupe/loop"
)

// A promise reaction that panics rejects the derived promise with a
// *PanicError and is reported to the loop's panic handler (and host), as a
// panic in any other callback is.
func TestPanickingReactionIsReported(t *testing.T) {
	boom := func() { panic("in reaction") }
	tests := []struct {
		name   string
		derive func(l *loop.Loop) *loop.Promise[int]
	}{
		{"Then", func(l *loop.Loop) *loop.Promise[int] {
			return loop.Resolved(l, 1).Then(func(int) (int, error) { boom(); return 0, nil })
		}},
		{"Then of another type", func(l *loop.Loop) *loop.Promise[int] {
			return loop.Then(loop.Resolved(l, "x"), func(string) (int, error) { boom(); return 0, nil })
		}},
		{"Catch", func(l *loop.Loop) *loop.Promise[int] {
			return loop.Rejected[int](l, errors.New("no")).Catch(func(error) (int, error) { boom(); return 0, nil })
		}},
		{"Finally", func(l *loop.Loop) *loop.Promise[int] {
			return loop.Resolved(l, 1).Finally(boom)
		}},
		{"Chain", func(l *loop.Loop) *loop.Promise[int] {
			return loop.Chain(loop.Resolved(l, 1), func(int) *loop.Promise[int] { boom(); return nil })
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			panics := make(chan error, 4)
			l := startLoop(t, loop.WithPanicHandler(func(err error) { panics <- err }))
			var derived *loop.Promise[int]
			do(t, l, func() { derived = tc.derive(l) })
			ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
			defer cancel()
			var pe *loop.PanicError
			if _, err := derived.Wait(ctx); !errors.As(err, &pe) || pe.Value != "in reaction" {
				t.Fatalf("derived promise settled with %v, want the reaction's panic", err)
			}
			select {
			case err := <-panics:
				if !errors.As(err, &pe) || pe.Value != "in reaction" {
					t.Fatalf("panic handler got %v", err)
				}
			default:
				t.Fatal("the reaction's panic never reached the panic handler")
			}
			select {
			case err := <-panics:
				t.Fatalf("reported twice: %v", err)
			default:
			}
		})
	}
}
