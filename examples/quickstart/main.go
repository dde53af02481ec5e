// Command quickstart shows troupe's typed actors in under a second: a
// generated typed ref, tells and asks, an ask from one actor to another, a
// keyed timer, a supervised restart, and a graceful shutdown.
//
//	go run ./examples/quickstart
package main

//go:generate go tool troupegen

import (
	"context"
	"fmt"
	"log"
	"sync/atomic"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/loop"
)

// Account keeps a balance. Its exported methods taking *actor.Context are
// its messages; troupegen turns them into the typed AccountRef.
//
//troupe:actor kind=account
type Account struct {
	balance int
}

// Deposit adds amount to the balance (a tell: no reply).
func (a *Account) Deposit(_ *actor.Context, amount int) { a.balance += amount }

// Balance replies with the balance (an ask).
func (a *Account) Balance(*actor.Context) (int, error) { return a.balance, nil }

// Interest schedules a deposit of amount after d: a typed, keyed timer that
// delivers the Deposit message to the account itself.
func (a *Account) Interest(c *actor.Context, amount int, d time.Duration) error {
	return AccountTimersOf(c).DepositAfter("interest", d, amount)
}

// Crash panics: supervision restarts the account from a fresh instance.
func (a *Account) Crash(*actor.Context) { panic("simulated bug") }

// Auditor asks an account for its balance from inside its own handler:
// the ask is a promise settled on the auditor's loop, so neither blocks.
//
//troupe:actor kind=auditor
type Auditor struct{}

// Audit replies with a report on acct, once the account answered.
func (*Auditor) Audit(c *actor.Context, acct AccountRef) *loop.Promise[string] {
	return loop.Then(acct.BalanceAsync(c), func(b int) (string, error) {
		return fmt.Sprintf("audit of %s: balance %d", acct.Ref().ID(), b), nil
	})
}

func main() {
	if err := run(); err != nil {
		log.Fatal(err)
	}
}

func run() error {
	sys, err := actor.NewSystem("quickstart")
	if err != nil {
		return err
	}
	var restarts atomic.Int32 // events arrive on the actors' loops
	sys.SubscribeEvents(func(e actor.Event) {
		if e.Kind == actor.Restarted {
			restarts.Add(1)
		}
	})
	ctx := context.Background()

	acct, err := SpawnAccount(sys, "alice", func() *Account { return &Account{} })
	if err != nil {
		return err
	}
	auditor, err := SpawnAuditor(sys, "auditor", func() *Auditor { return &Auditor{} })
	if err != nil {
		return err
	}

	acct.Deposit(100)
	acct.Deposit(50)
	b, err := acct.Balance(ctx)
	fmt.Println("balance after two deposits:", b, err)

	report, err := auditor.Audit(ctx, acct)
	fmt.Println(report, err)

	if err := acct.Interest(ctx, 5, 20*time.Millisecond); err != nil {
		return err
	}
	time.Sleep(40 * time.Millisecond) // let the timer fire (an example, not a test)
	b, _ = acct.Balance(ctx)
	fmt.Println("balance after the interest timer:", b)

	acct.Crash()
	b, _ = acct.Balance(ctx)
	fmt.Printf("after a crash the account restarted (%d restart) from fresh state: balance %d\n", restarts.Load(), b)

	shut, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	if err := sys.Shutdown(shut); err != nil {
		return err
	}
	fmt.Println("shut down; dead letters:", sys.DeadLetters())
	return nil
}
