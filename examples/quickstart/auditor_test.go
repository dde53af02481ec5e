package main

import (
	"context"
	"testing"

	"github.com/troupe-go/troupe/actortest"
)

// The Auditor under test talks to an Account; a probe stands in for it.
// The test reads like the code under test: the auditor should have sent
// what acct.BalanceAsync(c) sends, AccountMessages{}.Balance(), and the
// probe answers it as the account would.
func TestAuditorAsksTheAccount(t *testing.T) {
	s := actortest.NewSystem(t)
	account := s.NewProbe("account")
	account.Reply(func(msg any) (any, error) {
		if msg == (AccountMessages{}).Balance() {
			return 42, nil
		}
		return nil, nil
	})
	auditor, err := SpawnAuditor(s.System, "auditor", func() *Auditor { return &Auditor{} })
	if err != nil {
		t.Fatal(err)
	}
	report, err := auditor.Audit(context.Background(), AccountRefOf(s.System, account.Ref()))
	if err != nil {
		t.Fatal(err)
	}
	account.ExpectMessage(AccountMessages{}.Balance())
	if want := "audit of account: balance 42"; report != want {
		t.Fatalf("report = %q, want %q", report, want)
	}
}
