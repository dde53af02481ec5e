package persisttest_test

import (
	"fmt"
	"os"
	"runtime"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// fakeTB stands in for a test's *testing.T: in examples (which have
// none), and to see the kit's checks fail. It records failures, prints
// them when print is set, and runs its cleanups at finish.
type fakeTB struct {
	testing.TB // nil: only the methods below are called
	print      bool
	cleanups   []func()
	errors     []string
}

func exampleT() *fakeTB { return &fakeTB{print: true} }

func (t *fakeTB) Helper()             {}
func (t *fakeTB) Name() string        { return "Example" }
func (t *fakeTB) Logf(string, ...any) {}
func (t *fakeTB) Log(...any)          {}
func (t *fakeTB) Cleanup(fn func())   { t.cleanups = append(t.cleanups, fn) }
func (t *fakeTB) Failed() bool        { return len(t.errors) > 0 }
func (t *fakeTB) Errorf(f string, a ...any) {
	t.errors = append(t.errors, fmt.Sprintf(f, a...))
	if t.print {
		fmt.Fprintf(os.Stdout, "FAIL: "+f+"\n", a...)
	}
}
func (t *fakeTB) Fatalf(f string, a ...any) { t.Errorf(f, a...); runtime.Goexit() }
func (t *fakeTB) Fatal(a ...any)            { t.Fatalf("%s", fmt.Sprint(a...)) }
func (t *fakeTB) Error(a ...any)            { t.Errorf("%s", fmt.Sprint(a...)) }

func (t *fakeTB) finish() {
	for i := len(t.cleanups) - 1; i >= 0; i-- {
		t.cleanups[i]()
	}
}
