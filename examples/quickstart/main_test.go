package main

import (
	"context"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// The quickstart runs to the end without an error and leaves nothing
// running.
func TestQuickstartRuns(t *testing.T) {
	if err := run(); err != nil {
		t.Fatal(err)
	}
}

// TestAccountOnVirtualTime: the quickstart's story, exact on the test
// kit's virtual time: the interest arrives at its deadline, not a
// nanosecond before, the auditor's ask from its handler settles, and a
// crash restarts the account from a fresh instance.
func TestAccountOnVirtualTime(t *testing.T) {
	s := actortest.NewSystem(t, actortest.WithName("quickstart"))
	ctx := context.Background()
	acct, err := SpawnAccount(s.System, "alice", func() *Account { return &Account{} })
	if err != nil {
		t.Fatal(err)
	}
	auditor, err := SpawnAuditor(s.System, "auditor", func() *Auditor { return &Auditor{} })
	if err != nil {
		t.Fatal(err)
	}
	balance := func() int {
		t.Helper()
		b, err := acct.Balance(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, amount := range []int{100, 50} {
		if err := acct.Deposit(amount); err != nil {
			t.Fatal(err)
		}
	}
	if report, err := auditor.Audit(ctx, acct); err != nil || report != "audit of alice: balance 150" {
		t.Fatalf("audit: %q, %v", report, err)
	}
	if err := acct.Interest(ctx, 5, 20*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	s.Advance(20*time.Millisecond - time.Nanosecond)
	if b := balance(); b != 150 {
		t.Fatalf("balance %d before the interest is due, want 150", b)
	}
	s.Advance(time.Nanosecond)
	if b := balance(); b != 155 {
		t.Fatalf("balance %d once the interest is due, want 155", b)
	}
	if err := acct.Crash(); err != nil {
		t.Fatal(err)
	}
	if b := balance(); b != 0 {
		t.Fatalf("balance %d after a crash, want 0 (a fresh instance)", b)
	}
	if f := s.TakeFailures(); len(f) != 1 || f[0].Kind != actor.Restarted || f[0].Actor != acct.Ref() {
		t.Fatalf("failures %v, want the account restarted", f)
	}
}

// TestNoJavaScriptEngine: the generated actors answer calls by name (as
// JavaScript actors send them) through package actor/call, which links
// no JavaScript engine: a program without JavaScript actors links none.
// Nor does the generated code for tests (AccountMessages) link package
// testing.
func TestNoJavaScriptEngine(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, "github.com/troupe-go/troupe/actor/call") {
		t.Fatal("the quickstart does not link actor/call: this test checks nothing")
	}
	for _, dep := range deps {
		if strings.HasPrefix(dep, "github.com/dop251/") || dep == "github.com/troupe-go/troupe/jsactor" || dep == "testing" {
			t.Errorf("the quickstart links %s", dep)
		}
	}
}
