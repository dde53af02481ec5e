package actortest

import (
	"fmt"
	"reflect"
	"sort"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/internal/actorhook"
)

// Behavior runs one actor's handlers synchronously on the test's
// goroutine, with no system, scheduler or loop: [Behavior.Run] calls
// Receive and returns its reply, and what the handler asked its Context to
// do is recorded as [Effect] values instead of happening. Timers do not
// fire by themselves: [Behavior.FireTimer] delivers a live timer's
// message. Children are not started; [Behavior.Child] runs one as a
// Behavior of its own.
//
// Recorded through the Context: Tell, Spawn, Stop, Watch, Unwatch,
// Timers and SetReceiveTimeout. Recorded through the System the Context
// returns (Context.System), which typed refs a handler makes or is given
// with it send through: Tell and Send as [Sent], Stop as [Stopped], Poison
// as [Poisoned]; an ask through it fails with [actor.ErrWouldBlock], and
// its other operations say [actor.ErrSystemClosed] (it hosts no actors).
// Context.Self, Parent, Logger (to t.Log) and its context.Context methods
// work; anything needing a loop (Loop, AskAsync, Stash, promise replies) is
// outside a behavior test: test it with [NewSystem].
type Behavior struct {
	t        testing.TB
	self     actor.Ref
	ctx      *actor.Context
	actor    actor.Actor
	effects  []Effect
	timers   map[any]TimerStarted
	children map[actor.Ref]actor.Factory
	log      *zap.Logger
}

// NewBehavior makes the actor kind/id of a system named "test" with f
// and runs its Started hook, if it has one.
func NewBehavior(t testing.TB, kind, id string, f actor.Factory) *Behavior {
	t.Helper()
	return newBehavior(t, nil, kind, id, f, zaptest.NewLogger(t, zaptest.Level(zap.DebugLevel)))
}

// newBehavior makes the Behavior of kind/id, the child of parent's actor
// if parent is not nil.
func newBehavior(t testing.TB, parent *actor.Context, kind, id string, f actor.Factory, log *zap.Logger) *Behavior {
	t.Helper()
	b := &Behavior{t: t, timers: map[any]TimerStarted{}, children: map[actor.Ref]actor.Factory{}, log: log}
	var p any
	if parent != nil {
		p = parent
	}
	ctx, release := actorhook.NewContext(p, "test", kind, id, log, (*recorder)(b))
	t.Cleanup(release)
	b.ctx = ctx.(*actor.Context)
	b.self = b.ctx.Self()
	b.actor = f()
	if b.actor == nil {
		t.Fatalf("actortest: the factory of %v returned nil", b.self)
	}
	if h, ok := b.actor.(actor.StartedHook); ok {
		b.call(func() { h.Started(b.ctx) })
	}
	return b
}

// Self returns the actor's ref.
func (b *Behavior) Self() actor.Ref { return b.self }

// Context returns the Context the handlers get.
func (b *Behavior) Context() *actor.Context { return b.ctx }

// Run hands msg to the actor's Receive, on the calling goroutine, and
// returns its reply and error. A panic in Receive, or Context.Fail, fails
// the test.
func (b *Behavior) Run(msg any) (reply any, err error) {
	b.t.Helper()
	b.call(func() { reply, err = b.actor.Receive(b.ctx, msg) })
	return reply, err
}

// call runs fn, turning a panic into a test failure.
func (b *Behavior) call(fn func()) {
	b.t.Helper()
	var failed any
	func() {
		defer func() { failed = recover() }()
		fn()
	}()
	if err, ok := actorhook.Failed(failed); ok {
		b.t.Fatalf("actortest: %v failed (Context.Fail): %v", b.self, err)
	}
	if failed != nil {
		b.t.Fatalf("actortest: %v panicked: %v", b.self, failed)
	}
}

// FireTimer delivers the message of the live timer of key through
// [Behavior.Run], as if it fell due; a single timer is then no longer
// live. It fails the test if key has no live timer.
func (b *Behavior) FireTimer(key any) (reply any, err error) {
	b.t.Helper()
	ts, ok := b.timers[key]
	if !ok {
		b.t.Fatalf("actortest: %v has no live timer %v; live: %v", b.self, key, b.liveKeys())
	}
	if ts.Period == 0 {
		delete(b.timers, key)
	}
	return b.Run(ts.Msg)
}

// Timers returns the live timers, by key.
func (b *Behavior) Timers() map[any]TimerStarted {
	out := make(map[any]TimerStarted, len(b.timers))
	for k, v := range b.timers {
		out[k] = v
	}
	return out
}

func (b *Behavior) liveKeys() []string {
	keys := make([]string, 0, len(b.timers))
	for k := range b.timers {
		keys = append(keys, fmt.Sprint(k))
	}
	sort.Strings(keys)
	return keys
}

// Effects returns the effects recorded since the last call, in order, and
// forgets them.
func (b *Behavior) Effects() []Effect {
	fx := b.effects
	b.effects = nil
	return fx
}

// ExpectEffect takes the oldest recorded effect and fails the test unless
// it equals want (reflect.DeepEqual).
func (b *Behavior) ExpectEffect(want Effect) {
	b.t.Helper()
	if len(b.effects) == 0 {
		b.t.Fatalf("actortest: %v: want effect %s, got none", b.self, describe(want))
		return
	}
	got := b.effects[0]
	b.effects = b.effects[1:]
	if !reflect.DeepEqual(got, want) {
		b.t.Fatalf("actortest: %v: want effect %s, got %s", b.self, describe(want), describe(got))
	}
}

// ExpectEffectType takes the oldest recorded effect of b and returns it
// as an E, failing the test if it is not one.
func ExpectEffectType[E Effect](b *Behavior) E {
	b.t.Helper()
	var zero E
	if len(b.effects) == 0 {
		b.t.Fatalf("actortest: %v: want a %s effect, got none", b.self, typeName[E]())
		return zero
	}
	got := b.effects[0]
	b.effects = b.effects[1:]
	e, ok := got.(E)
	if !ok {
		b.t.Fatalf("actortest: %v: want a %s effect, got %s", b.self, typeName[E](), describe(got))
	}
	return e
}

// ExpectNoEffects fails the test if effects were recorded and not taken.
func (b *Behavior) ExpectNoEffects() {
	b.t.Helper()
	if len(b.effects) > 0 {
		b.t.Fatalf("actortest: %v: want no effects, got %s", b.self, describeEffects(b.effects))
	}
}

// Child returns a Behavior running the child r that a handler spawned,
// made by the factory given to Spawn: its Self is r and its Parent is b's
// Self, so what it tells its parent is recorded as sent there. It fails
// the test if no handler spawned r.
func (b *Behavior) Child(r actor.Ref) *Behavior {
	b.t.Helper()
	f, ok := b.children[r]
	if !ok {
		b.t.Fatalf("actortest: %v spawned no child %v", b.self, r)
	}
	return newBehavior(b.t, b.ctx, r.Kind(), r.ID(), f, b.log)
}

func describeEffects(fx []Effect) string {
	ms := make([]any, len(fx))
	for i, e := range fx {
		ms[i] = e
	}
	return describeAll(ms)
}

// recorder is the Behavior seen by the Context it drives.
type recorder Behavior

func (r *recorder) add(e Effect) { r.effects = append(r.effects, e) }

func (r *recorder) Tell(to, msg any) error {
	r.add(Sent{To: to.(actor.Ref), Msg: msg})
	return nil
}

func (r *recorder) Spawn(child, f, _ any) error {
	ref := child.(actor.Ref)
	if _, taken := r.children[ref]; taken {
		return fmt.Errorf("actortest: spawn %v: %w", ref, actor.ErrNameTaken)
	}
	r.children[ref] = f.(actor.Factory)
	r.add(Spawned{Ref: ref})
	return nil
}

func (r *recorder) Stop(ref any) { r.add(Stopped{Ref: ref.(actor.Ref)}) }
func (r *recorder) Poison(ref any) error {
	r.add(Poisoned{Ref: ref.(actor.Ref)})
	return nil
}
func (r *recorder) Watch(ref any)   { r.add(Watched{Ref: ref.(actor.Ref)}) }
func (r *recorder) Unwatch(ref any) { r.add(Unwatched{Ref: ref.(actor.Ref)}) }

func (r *recorder) StartTimer(key any, d time.Duration, msg any, period time.Duration, fixedRate bool) error {
	ts := TimerStarted{Key: key, Delay: d, Msg: msg, Period: period, FixedRate: fixedRate}
	r.timers[key] = ts
	r.add(ts)
	return nil
}

func (r *recorder) CancelTimer(key any) {
	if _, ok := r.timers[key]; ok {
		delete(r.timers, key)
		r.add(TimerCancelled{Key: key})
	}
}

func (r *recorder) CancelAllTimers() {
	for _, k := range (*Behavior)(r).liveKeysRaw() {
		r.CancelTimer(k)
	}
}

func (r *recorder) TimerActive(key any) bool {
	_, ok := r.timers[key]
	return ok
}

func (r *recorder) SetReceiveTimeout(d time.Duration) { r.add(ReceiveTimeoutSet{D: max(d, 0)}) }

// liveKeysRaw lists the live timer keys in a stable order (by their
// printed form), so CancelAll records its cancellations deterministically.
func (b *Behavior) liveKeysRaw() []any {
	keys := make([]any, 0, len(b.timers))
	for k := range b.timers {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j]) })
	return keys
}
