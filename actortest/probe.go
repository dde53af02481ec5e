package actortest

import (
	"fmt"
	"reflect"
	"sync"
	"time"

	"github.com/troupe-go/troupe/actor"
)

// Probe is an actor that records what it receives, for a test to assert
// on: give its [Probe.Ref] to the actor under test in place of a
// collaborator. It answers asks with the replies set by [Answer] (typed,
// for a generated actor's messages) and [Probe.Reply] (none by default:
// the ask fails with [actor.ErrNoReply]) and can watch actors. Its expectations first settle the system, so they are exact: a
// message that is not there once every loop is idle was not sent.
type Probe struct {
	s   *System
	ref actor.Ref

	mu      sync.Mutex
	queue   []any
	reply   func(msg any) (any, error)
	answers map[reflect.Type]func(msg any) (any, error) // see Answer
	arrived chan struct{}
}

// watchCmd and unwatchCmd are the probe's own control messages.
type watchCmd struct{ r actor.Ref }
type unwatchCmd struct{ r actor.Ref }

// NewProbe spawns a probe named name (its ref is kind "probe", id name).
func (s *System) NewProbe(name string) *Probe {
	s.t.Helper()
	p := &Probe{s: s, arrived: make(chan struct{}, 1)}
	ref, err := s.Spawn("probe", name, func() actor.Actor { return actor.ActorFunc(p.receive) })
	if err != nil {
		s.t.Fatalf("actortest: NewProbe(%q): %v", name, err)
	}
	p.ref = ref
	return p
}

// receive runs on the probe's loop.
func (p *Probe) receive(c *actor.Context, msg any) (any, error) {
	switch m := msg.(type) {
	case watchCmd:
		c.Watch(m.r)
		return nil, nil
	case unwatchCmd:
		c.Unwatch(m.r)
		return nil, nil
	}
	p.mu.Lock()
	p.queue = append(p.queue, msg)
	reply := p.reply
	if a, ok := p.answers[reflect.TypeOf(msg)]; ok {
		reply = a
	}
	p.mu.Unlock()
	select {
	case p.arrived <- struct{}{}:
	default:
	}
	if reply == nil {
		return nil, nil // an ask fails with actor.ErrNoReply
	}
	return reply(msg)
}

// Ref returns the probe's ref.
func (p *Probe) Ref() actor.Ref { return p.ref }

// Reply makes the probe answer every ask with fn's result (still recording
// the message), but those an [Answer] matches. fn runs on the probe's
// loop; for a tell its result is dropped. Set it before the asks it should
// answer are sent. To read a generated message's arguments, which are
// unexported, use [Answer1] and its kin, or [MessageArgs].
func (p *Probe) Reply(fn func(msg any) (any, error)) {
	p.mu.Lock()
	p.reply = fn
	p.mu.Unlock()
}

// Watch makes the probe watch r: [Probe.ExpectTerminated] then sees it
// stop.
func (p *Probe) Watch(r actor.Ref) {
	p.s.t.Helper()
	p.control(watchCmd{r})
}

// Unwatch cancels Watch.
func (p *Probe) Unwatch(r actor.Ref) {
	p.s.t.Helper()
	p.control(unwatchCmd{r})
}

func (p *Probe) control(msg any) {
	p.s.t.Helper()
	if err := p.s.Tell(p.ref, msg); err != nil {
		p.s.t.Fatalf("actortest: probe %s: %v", p.ref.ID(), err)
	}
	p.s.Settle()
}

// next settles the system and takes the oldest message, waiting for one
// from outside the system up to WithOutsideWait.
func (p *Probe) next() (any, bool) {
	p.s.t.Helper()
	p.s.Settle()
	if m, ok := p.pop(); ok {
		return m, true
	}
	if p.s.cfg.outsideWait <= 0 {
		return nil, false
	}
	deadline := time.NewTimer(p.s.cfg.outsideWait)
	defer deadline.Stop()
	for {
		select {
		case <-p.arrived:
			p.s.Settle()
			if m, ok := p.pop(); ok {
				return m, true
			}
		case <-deadline.C:
			return nil, false
		}
	}
}

func (p *Probe) pop() (any, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.queue) == 0 {
		return nil, false
	}
	m := p.queue[0]
	p.queue[0] = nil
	p.queue = p.queue[1:]
	return m, true
}

// missing fails the test: want says what was expected.
func (p *Probe) missing(want string) {
	p.s.t.Helper()
	p.s.t.Fatalf("actortest: probe %s: want %s, got no message (system idle at %v)", p.ref.ID(), want, p.s.Now())
}

// describe formats a message with its Go type, for failures.
func describe(m any) string { return fmt.Sprintf("%T %+v", m, m) }

// ReceiveMessage returns the next message, failing the test if there is
// none.
func (p *Probe) ReceiveMessage() any {
	p.s.t.Helper()
	m, ok := p.next()
	if !ok {
		p.missing("a message")
	}
	return m
}

// ExpectMessage takes the next message and fails the test unless it equals
// want (reflect.DeepEqual).
func (p *Probe) ExpectMessage(want any) {
	p.s.t.Helper()
	m, ok := p.next()
	if !ok {
		p.missing(describe(want))
		return
	}
	if !reflect.DeepEqual(m, want) {
		p.s.t.Fatalf("actortest: probe %s: want %s, got %s", p.ref.ID(), describe(want), describe(m))
	}
}

// ExpectMessageType takes the next message of p and returns it as a T,
// failing the test if it is not one.
func ExpectMessageType[T any](p *Probe) T {
	p.s.t.Helper()
	m, ok := p.next()
	var zero T
	if !ok {
		p.missing("a " + typeName[T]())
		return zero
	}
	v, ok := m.(T)
	if !ok {
		p.s.t.Fatalf("actortest: probe %s: want a %s, got %s", p.ref.ID(), typeName[T](), describe(m))
	}
	return v
}

// ExpectNoMessage advances virtual time by d (see [System.Advance]) and
// fails the test if the probe received a message meanwhile (or had one
// not taken yet). The interval includes its end, as Advance does: a
// message sent by a timer due exactly d from now fails it (check up to
// just before a deadline with ExpectNoMessage(d - 1), then expect the
// message). The kit's other expectations wait no virtual time: they settle
// the system as it stands, and only [WithOutsideWait] makes them wait, in
// real time, for messages from outside its loops. ExpectNoMessage does not
// wait for those (another node's): one still in flight is not seen.
func (p *Probe) ExpectNoMessage(d time.Duration) {
	p.s.t.Helper()
	p.s.Advance(d)
	if m, ok := p.pop(); ok {
		p.s.t.Fatalf("actortest: probe %s: want no message within %v, got %s", p.ref.ID(), d, describe(m))
	}
}

// ReceiveN takes the next n messages, failing the test if fewer arrive.
func (p *Probe) ReceiveN(n int) []any {
	p.s.t.Helper()
	got := make([]any, 0, n)
	for len(got) < n {
		m, ok := p.next()
		if !ok {
			p.s.t.Fatalf("actortest: probe %s: want %d messages, got %d: %v", p.ref.ID(), n, len(got), describeAll(got))
			return got
		}
		got = append(got, m)
	}
	return got
}

// FishForMessage takes messages until fn accepts one and returns it,
// skipping the others; it fails the test, listing what it skipped, if none
// is accepted.
func (p *Probe) FishForMessage(fn func(msg any) bool) any {
	p.s.t.Helper()
	var skipped []any
	for {
		m, ok := p.next()
		if !ok {
			p.s.t.Fatalf("actortest: probe %s: no message matched; skipped %d: %v", p.ref.ID(), len(skipped), describeAll(skipped))
			return nil
		}
		if fn(m) {
			return m
		}
		skipped = append(skipped, m)
	}
}

// ExpectTerminated takes the next message and fails the test unless it is
// the [actor.Terminated] of r (watch r first with [Probe.Watch]).
func (p *Probe) ExpectTerminated(r actor.Ref) actor.Terminated {
	p.s.t.Helper()
	m, ok := p.next()
	if !ok {
		p.missing("actor.Terminated of " + r.String())
		return actor.Terminated{}
	}
	term, ok := m.(actor.Terminated)
	if !ok || term.Actor != r {
		p.s.t.Fatalf("actortest: probe %s: want actor.Terminated of %v, got %s", p.ref.ID(), r, describe(m))
	}
	return term
}

func describeAll(ms []any) string {
	s := "["
	for i, m := range ms {
		if i > 0 {
			s += "; "
		}
		s += describe(m)
	}
	return s + "]"
}

// typeName names T, interfaces included.
func typeName[T any]() string { return reflect.TypeFor[T]().String() }
