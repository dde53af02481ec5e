package actortest_test

import (
	"context"
	"errors"
	"testing"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest"
)

// ledgerRef is shaped as troupegen's typed refs are: it sends through the
// System it was made with, not through a Context.
type ledgerRef struct {
	ref actor.Ref
	sys *actor.System
}

type ledgerPostMsg struct{ amount int }
type ledgerTotalMsg struct{}

func (r ledgerRef) Post(amount int) error { return r.sys.Tell(r.ref, ledgerPostMsg{amount}) }
func (r ledgerRef) Total(ctx context.Context) (int, error) {
	return actor.Ask[int](ctx, r.sys, r.ref, ledgerTotalMsg{})
}
func (r ledgerRef) Stop()         { r.sys.Stop(r.ref) }
func (r ledgerRef) Poison() error { return r.sys.Poison(r.ref) }

// teller posts to a ledger it is given, or to one it spawns, through typed
// refs made with its Context's System.
type teller struct{ ledger ledgerRef }

type useLedger struct{ ref actor.Ref }

func (t *teller) Receive(c *actor.Context, msg any) (any, error) {
	switch m := msg.(type) {
	case useLedger:
		t.ledger = ledgerRef{ref: m.ref, sys: c.System()}
	case string:
		switch m {
		case "spawn":
			ref, err := c.Spawn("ledger", "own", func() actor.Actor { return actor.ActorFunc(nil) })
			if err != nil {
				return nil, err
			}
			t.ledger = ledgerRef{ref: ref, sys: c.System()}
		case "post":
			return nil, t.ledger.Post(5)
		case "total":
			return t.ledger.Total(context.Background())
		case "stop":
			t.ledger.Stop()
		case "poison":
			return nil, t.ledger.Poison()
		case "name":
			return c.System().Name(), nil
		}
	}
	return nil, nil
}

// What a handler does through typed refs, which send through the System,
// is recorded as what it does through its Context is: a behavior test of
// a generated actor sees its tells, stops and poisons. Asks through the
// System fail as in any handler.
func TestBehaviorRecordsSendsThroughTheSystem(t *testing.T) {
	b := actortest.NewBehavior(t, "teller", "t", func() actor.Actor { return &teller{} })
	other := actor.NewRef("test", "ledger", "main")
	remote := actor.NewRef("elsewhere", "ledger", "far")
	for _, ledger := range []actor.Ref{other, remote} {
		b.Run(useLedger{ledger})
		b.ExpectNoEffects()
		if _, err := b.Run("post"); err != nil {
			t.Fatalf("post to %v: %v", ledger, err)
		}
		b.ExpectEffect(actortest.Sent{To: ledger, Msg: ledgerPostMsg{5}})
		b.Run("stop")
		b.ExpectEffect(actortest.Stopped{Ref: ledger})
		if _, err := b.Run("poison"); err != nil {
			t.Fatalf("poison %v: %v", ledger, err)
		}
		b.ExpectEffect(actortest.Poisoned{Ref: ledger})
		if _, err := b.Run("total"); !errors.Is(err, actor.ErrWouldBlock) {
			t.Fatalf("ask %v from a behavior: %v, want ErrWouldBlock", ledger, err)
		}
		b.ExpectNoEffects()
	}

	// A child spawned through the Context, then told through its typed ref.
	b.Run("spawn")
	own := actortest.ExpectEffectType[actortest.Spawned](b).Ref
	b.Run("post")
	b.ExpectEffect(actortest.Sent{To: own, Msg: ledgerPostMsg{5}})

	if name, _ := b.Run("name"); name != "test" {
		t.Fatalf("System().Name() = %v, want the behavior's system, test", name)
	}

	// A child's Behavior records its own sends, not its parent's.
	child := b.Child(own)
	kid := actortest.NewBehavior(t, "teller", "k", func() actor.Actor { return &teller{} })
	kid.Run(useLedger{child.Self()})
	kid.Run("post")
	kid.ExpectEffect(actortest.Sent{To: child.Self(), Msg: ledgerPostMsg{5}})
	b.ExpectNoEffects()
	child.ExpectNoEffects()
}
