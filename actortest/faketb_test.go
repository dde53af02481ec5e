package actortest_test

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// fakeTB records failures instead of failing the real test, so the kit's
// own tests can prove an expectation that should fail does fail. Fatal
// ends the goroutine as testing does; run code under it with run.
type fakeTB struct {
	testing.TB
	mu       sync.Mutex
	failed   bool
	msgs     []string
	cleanups []func()
	logs     []string
}

// Logf keeps what reaches t.Log, and passes it on.
func (f *fakeTB) Logf(format string, args ...any) {
	f.mu.Lock()
	f.logs = append(f.logs, fmt.Sprintf(format, args...))
	f.mu.Unlock()
	f.TB.Logf(format, args...)
}

func (f *fakeTB) logged() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return strings.Join(f.logs, "\n")
}

// Cleanup keeps fn for finish, so a test can see what cleanup reports.
func (f *fakeTB) Cleanup(fn func()) { f.cleanups = append(f.cleanups, fn) }

// finish runs the cleanups, last first, as testing does.
func (f *fakeTB) finish() {
	for i := len(f.cleanups) - 1; i >= 0; i-- {
		f.run(f.cleanups[i])
	}
	f.cleanups = nil
}

func (f *fakeTB) Errorf(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.failed = true
	f.msgs = append(f.msgs, fmt.Sprintf(format, args...))
}
func (f *fakeTB) Error(args ...any)                 { f.Errorf("%s", fmt.Sprint(args...)) }
func (f *fakeTB) Fatalf(format string, args ...any) { f.Errorf(format, args...); runtime.Goexit() }
func (f *fakeTB) Fatal(args ...any)                 { f.Error(args...); runtime.Goexit() }
func (f *fakeTB) FailNow()                          { f.Fail(); runtime.Goexit() }
func (f *fakeTB) Fail()                             { f.mu.Lock(); f.failed = true; f.mu.Unlock() }
func (f *fakeTB) Failed() bool                      { f.mu.Lock(); defer f.mu.Unlock(); return f.failed }

func (f *fakeTB) output() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return strings.Join(f.msgs, "\n")
}

// run calls fn on its own goroutine (a Fatal ends it) and waits.
func (f *fakeTB) run(fn func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	<-done
}

// mustFail asserts that fn, run under a fake TB, failed with a message
// containing each of want.
func mustFail(t *testing.T, fn func(tb testing.TB), want ...string) {
	t.Helper()
	f := &fakeTB{TB: t}
	f.run(func() { fn(f) })
	f.finish()
	if !f.Failed() {
		t.Fatalf("did not fail")
	}
	for _, w := range want {
		if !strings.Contains(f.output(), w) {
			t.Errorf("failure %q does not say %q", f.output(), w)
		}
	}
}
