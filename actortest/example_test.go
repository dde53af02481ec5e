package actortest_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest"
	"github.com/troupe-go/troupe/actortest/internal/bankgen"
	"github.com/troupe-go/troupe/jsactor"
)

// MetronomeRef is a typed ref, shaped as troupegen generates them: Count
// asks the metronome actor how often it ticked.
type MetronomeRef struct {
	ref actor.Ref
	sys *actor.System
}

type metronomeTick struct{}
type metronomeCount struct{}

// SpawnMetronome starts a metronome ticking at a fixed rate.
func SpawnMetronome(s *actor.System, id string, every time.Duration) (MetronomeRef, error) {
	ref, err := s.Spawn("metronome", id, func() actor.Actor { return &metronome{every: every} })
	return MetronomeRef{ref: ref, sys: s}, err
}

// Count returns the ticks so far; without a deadline in ctx, the system's
// ask timeout applies.
func (m MetronomeRef) Count(ctx context.Context) (int, error) {
	return actor.Ask[int](ctx, m.sys, m.ref, metronomeCount{})
}

type metronome struct {
	every time.Duration
	ticks int
}

func (m *metronome) Started(c *actor.Context) {
	_ = c.Timers().StartFixedRate("tick", m.every, metronomeTick{})
}

func (m *metronome) Receive(c *actor.Context, msg any) (any, error) {
	switch msg.(type) {
	case metronomeTick:
		m.ticks++
		return nil, nil
	case metronomeCount:
		return m.ticks, nil
	}
	return nil, actor.ErrUnhandled
}

// A typed actor with a fixed-rate timer, tested on virtual time: Advance
// returns once every tick due has been handled, so the count is exact.
func Example() {
	t := exampleT() // in a test: the test's *testing.T
	defer t.finish()

	s := actortest.NewSystem(t)
	m, _ := SpawnMetronome(s.System, "m", 100*time.Millisecond)
	s.Advance(350 * time.Millisecond)
	n, _ := m.Count(context.Background())
	fmt.Println("ticks after 350ms:", n)
	// Output: ticks after 350ms: 3
}

// order asks a parent to have its child pack an item.
type order struct{ Item string }
type pack struct{ Item string }

// shop hands each order to its packer: a collaborator given by ref, so a
// test can give it a probe instead.
func shop(packer actor.Ref) actor.Factory {
	return func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			o := msg.(order)
			return nil, c.Tell(packer, pack{Item: o.Item})
		})
	}
}

// A parent tested with a probe in place of its child.
func ExampleProbe() {
	t := exampleT()
	defer t.finish()

	s := actortest.NewSystem(t)
	packer := s.NewProbe("packer")
	ref, _ := s.Spawn("shop", "s", shop(packer.Ref()))
	s.Tell(ref, order{Item: "tea"})
	packer.ExpectMessage(pack{Item: "tea"})
	packer.ExpectNoMessage(time.Minute)
	fmt.Println("packed:", !t.Failed())
	// Output: packed: true
}

// A JS actor tested with a probe: its setTimeout runs on virtual time.
func ExampleProbe_jsActor() {
	t := exampleT()
	defer t.finish()

	s := actortest.NewSystem(t)
	p := s.NewProbe("p")
	js, _ := jsactor.Spawn(s.System, "greeter", "g", jsactor.MustCompile("greeter.js", `
		module.exports = {
		  greetLater(to, name) { setTimeout(() => to.send("hello " + name), 1000) },
		};`))
	jsactor.Tell(s.System, js, "greetLater", p.Ref(), "ann")
	p.ExpectNoMessage(999 * time.Millisecond)
	s.Advance(time.Millisecond)
	fmt.Println(actortest.ExpectMessageType[string](p))
	// Output: hello ann
}

// A probe stands in for a generated actor of another package (here
// bankgen's Bank) and answers its asks typed: Answer2 reads the two
// arguments of Deposit's message, whose type is unexported there.
func ExampleAnswer2() {
	t := exampleT()
	defer t.finish()

	s := actortest.NewSystem(t)
	bank := s.NewProbe("bank")
	actortest.Answer2(bank, bankgen.BankMessages{}.Deposit("", 0), func(account string, amount int) (int, error) {
		return 100 + amount, nil
	})
	balance, err := bankgen.BankRefOf(s.System, bank.Ref()).Deposit(context.Background(), "alice", 5)
	fmt.Println(balance, err)
	bank.ExpectMessage(bankgen.BankMessages{}.Deposit("alice", 5))
	// Output: 105 <nil>
}

// The arguments of a generated message, in its handler's order.
func ExampleMessageArgs() {
	fmt.Println(actortest.MessageArgs(bankgen.BankMessages{}.Transfer("alice", "bob", 5, time.Minute)))
	// Output: [alice bob 5 1m0s]
}

// A behavior test of one handler: no system, no concurrency; the effects
// are recorded.
func ExampleBehavior() {
	t := exampleT()
	defer t.finish()

	b := actortest.NewBehavior(t, "shop", "s", shop(actor.NewRef("test", "packer", "p")))
	b.Run(order{Item: "tea"})
	for _, e := range b.Effects() {
		fmt.Printf("%T %v\n", e, e)
	}
	// Output: actortest.Sent {troupe://test/packer/p {tea}}
}

// A test that expects a message to go to dead letters takes it.
func ExampleSystem_ExpectDeadLetter() {
	t := exampleT()
	defer t.finish()

	s := actortest.NewSystem(t)
	s.Tell(actor.NewRef("test", "nobody", "x"), "hello")
	d := s.ExpectDeadLetter()
	fmt.Println(d.Message, errors.Is(d.Reason, actor.ErrNotFound))
	// Output: hello true
}

// exampleTB stands in for the *testing.T of a test, so the examples run:
// failures go to standard output, cleanups run at finish.
type exampleTB struct {
	testing.TB
	failed   bool
	cleanups []func()
}

func exampleT() *exampleTB { return &exampleTB{} }

func (t *exampleTB) Helper()             {}
func (t *exampleTB) Name() string        { return "Example" }
func (t *exampleTB) Logf(string, ...any) {}
func (t *exampleTB) Log(...any)          {}
func (t *exampleTB) Cleanup(fn func())   { t.cleanups = append(t.cleanups, fn) }
func (t *exampleTB) Failed() bool        { return t.failed }
func (t *exampleTB) Errorf(f string, a ...any) {
	t.failed = true
	fmt.Fprintf(os.Stdout, "FAIL: "+f+"\n", a...)
}
func (t *exampleTB) Fatalf(f string, a ...any) { t.Errorf(f, a...); panic("fatal") }
func (t *exampleTB) Fatal(a ...any)            { t.Fatalf("%s", fmt.Sprint(a...)) }
func (t *exampleTB) Error(a ...any)            { t.Errorf("%s", fmt.Sprint(a...)) }

func (t *exampleTB) finish() {
	for i := len(t.cleanups) - 1; i >= 0; i-- {
		t.cleanups[i]()
	}
}
