package actortest_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest"
	"github.com/troupe-go/troupe/actortest/internal/bankgen"
)

// A probe stands in for a generated actor of another package and answers
// its asks typed, reading the arguments of messages whose types it cannot
// name.
func TestAnswerReadsGeneratedArguments(t *testing.T) {
	s := actortest.NewSystem(t)
	bank := s.NewProbe("bank")
	msgs := bankgen.BankMessages{}
	actortest.Answer(bank, msgs.Balance(), func() (int, error) { return 100, nil })
	actortest.Answer2(bank, msgs.Deposit("", 0), func(account string, amount int) (int, error) {
		if amount < 0 {
			return 0, errors.New("negative")
		}
		return 100 + amount, nil
	})
	actortest.AnswerArgs(bank, msgs.Transfer("", "", 0, 0), func(args []any) (string, error) {
		return fmt.Sprint(args), nil
	})
	ref := bankgen.BankRefOf(s.System, bank.Ref())
	ctx := context.Background()

	if n, err := ref.Balance(ctx); n != 100 || err != nil {
		t.Fatalf("Balance = %d, %v", n, err)
	}
	if n, err := ref.Deposit(ctx, "alice", 5); n != 105 || err != nil {
		t.Fatalf("Deposit = %d, %v", n, err)
	}
	if _, err := ref.Deposit(ctx, "alice", -5); err == nil || err.Error() != "negative" {
		t.Fatalf("Deposit(-5) err = %v", err)
	}
	if got, err := ref.Transfer(ctx, "a", "b", 7, time.Second); got != "[a b 7 1s]" || err != nil {
		t.Fatalf("Transfer = %q, %v", got, err)
	}
	bank.ExpectMessage(msgs.Balance())
	bank.ExpectMessage(msgs.Deposit("alice", 5))
	if args := actortest.MessageArgs(bank.ReceiveMessage()); fmt.Sprint(args) != "[alice -5]" {
		t.Fatalf("MessageArgs = %v", args)
	}
	bank.ReceiveMessage()

	// The untyped Reply answers what no Answer matches; a later Answer for
	// one message type replaces the earlier.
	actortest.Answer(bank, msgs.Balance(), func() (int, error) { return 7, nil })
	if n, _ := ref.Balance(ctx); n != 7 {
		t.Fatalf("Balance after a second Answer = %d", n)
	}
	bank.ReceiveMessage()
	bank.Reply(func(msg any) (any, error) { return 1, nil })
	if _, err := actor.Ask[int](ctx, s.System, bank.Ref(), "other"); err != nil {
		t.Fatalf("Reply's answer: %v", err)
	}
	bank.ReceiveMessage()
}

// An answer whose parameters do not match its pattern's fails the test at
// the call that sets it, saying which parameter.
func TestAnswerChecksThePattern(t *testing.T) {
	msgs := bankgen.BankMessages{}
	for _, tc := range []struct {
		name string
		set  func(*actortest.Probe)
		want string
	}{
		{"too few", func(p *actortest.Probe) {
			actortest.Answer1(p, msgs.Deposit("", 0), func(string) (int, error) { return 0, nil })
		}, "the message has 2 parameter(s), the answer takes 1"},
		{"wrong type", func(p *actortest.Probe) {
			actortest.Answer2(p, msgs.Deposit("", 0), func(string, string) (int, error) { return 0, nil })
		}, "parameter 2 (amount) is a int, the answer takes a string"},
		{"not a message", func(p *actortest.Probe) {
			actortest.Answer(p, "balance", func() (int, error) { return 0, nil })
		}, "want a message built with the generated Messages builder, got string"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mustFail(t, func(tb testing.TB) {
				tc.set(actortest.NewSystem(tb).NewProbe("bank"))
			}, tc.want)
		})
	}
}
