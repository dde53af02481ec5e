package actor

import (
	"context"
	"sync"
	"time"
	_ "unsafe" // go:linkname

	"github.com/joeycumines/goroutineid"
	"go.uber.org/zap"

	"github.com/troupe-go/troupe/internal/tracehook"
	"github.com/troupe-go/troupe/loop"
)

// Tracing and mailbox-wait sampling ride on the message itself: a message
// that carries a trace context, or a post time sampled for the mailbox
// wait, travels wrapped in a *letter. Every other message travels as it
// is, so with tracing off and details off a send costs two atomic loads
// and nothing else; the mail envelope does not grow.

// letter is a message with what it carries beyond itself.
type letter struct {
	msg    any
	trace  context.Context // the sender's trace context, or nil
	posted time.Time       // when it was posted, if sampled for the mailbox wait
}

// waitSample is one in how many letters records its post time, with
// details on ([System.SetDetailedMetrics]); a power of two.
const waitSample = 256

// tracerBox holds a system's tracer, for an atomic pointer.
type tracerBox struct{ t tracehook.Tracer }

func init() {
	tracehook.Install = func(sys any, t tracehook.Tracer) {
		s := sys.(*System)
		if t == nil {
			s.tracer.Store(nil)
			return
		}
		s.tracer.Store(&tracerBox{t})
	}
	tracehook.Of = func(sys any) tracehook.Tracer { return sys.(*System).getTracer() }
}

// getTracer returns the system's tracer, nil when tracing is off.
func (s *System) getTracer() tracehook.Tracer {
	if b := s.tracer.Load(); b != nil {
		return b.t
	}
	return nil
}

// wrapped returns msg as the mailbox carries it: wrapped in a letter when
// it carries ctx's trace, or is sampled for the mailbox wait.
func (s *System) wrapped(ctx context.Context, msg any) any {
	if s.tracer.Load() != nil {
		return s.wrap(ctx, msg)
	}
	if !s.obs.detailed.Load() || !waitSampled() {
		return msg
	}
	return &letter{msg: msg, posted: time.Now()}
}

// waitSampled draws whether a letter records its post time: one in
// waitSample. It draws from the runtime's per-thread wyrand: with
// math/rand/v2 (ChaCha8) on the send path, pingpong ran about 10% slower
// with details on at 2 workers; with this draw, no slower.
func waitSampled() bool { return cheaprand()&(waitSample-1) == 0 }

// cheaprand is the runtime's non-cryptographic per-thread generator, which
// the runtime keeps reachable by linkname (go.dev/issue/67401).
//
//go:linkname cheaprand runtime.cheaprand
func cheaprand() uint32

// wrap is wrapped's path with tracing on, out of line.
func (s *System) wrap(ctx context.Context, msg any) any {
	var tc context.Context
	if t := s.getTracer(); t != nil && ctx != nil {
		tc = t.Capture(ctx)
	}
	var posted time.Time
	if s.obs.detailed.Load() && waitSampled() {
		posted = time.Now()
	}
	if tc == nil && posted.IsZero() {
		return msg
	}
	return &letter{msg: msg, trace: tc, posted: posted}
}

// unwrapped returns the message a mailbox entry carries.
func unwrapped(msg any) any {
	if lt, ok := msg.(*letter); ok {
		return lt.msg
	}
	return msg
}

// deliverLetter handles a wrapped message: records its mailbox wait, and
// runs it under a span that is a child of the sender's. On the loop.
func (c *cell) deliverLetter(lt *letter, reply replyFunc) {
	if !lt.posted.IsZero() {
		c.system().obs.waited(c, time.Since(lt.posted))
	}
	t := c.system().getTracer()
	if lt.trace == nil || t == nil {
		c.DeliverMail(loop.Mail{Msg: lt.msg, Reply: reply})
		return
	}
	self := c.self()
	ctx, end := t.Begin(lt.trace, self.String(), self.Kind(), unboxed(lt.msg), reply != nil) // a span names the message, not a typed ref's box
	asked := reply != nil
	if asked {
		// The span ends when the reply is sent: a handler that replies
		// with a promise is still working for the asker until it settles.
		inner := reply
		reply = func(v any, err error) { end(err); inner(v, err) }
	}
	prev := c.enterTrace(ctx)
	defer c.leaveTrace(prev) // even if the handling panics past its recovery
	c.DeliverMail(loop.Mail{Msg: lt.msg, Reply: reply})
	if !asked {
		end(nil)
	}
}

// enterTrace makes ctx the trace the actor's handling runs under (what
// its sends carry, what [Context.Value] and its log lines show) and
// returns the one before. On the loop.
func (c *cell) enterTrace(ctx context.Context) context.Context {
	r := c.more()
	prev := r.trace
	r.trace, r.traceLog = ctx, nil
	c.onGoroutine(ctx != nil)
	return prev
}

// leaveTrace restores the trace enterTrace replaced. On the loop.
func (c *cell) leaveTrace(prev context.Context) {
	if c.rare != nil {
		c.rare.trace, c.rare.traceLog = prev, nil
	}
	c.onGoroutine(prev != nil)
}

// tracedCells maps a goroutine running a traced handling (a worker) to
// its actor, so that sends made through the System rather than the
// handler's Context ([System.Tell], the typed refs troupegen emits) carry
// the trace too. Only traced handlings touch it; an entry left behind
// (a loop that closed before its trace was left) is harmless: it counts
// only while that actor's loop runs on the goroutine.
var tracedCells sync.Map // goroutine id -> *cell

// onGoroutine records (traced) or forgets c as the actor running a traced
// handling on the calling goroutine.
func (c *cell) onGoroutine(traced bool) {
	g := goroutineid.Fast()
	switch {
	case g == -1: // no cheap goroutine id here: such sends go untraced
	case traced:
		tracedCells.Store(g, c)
	default:
		tracedCells.Delete(g)
	}
}

// tellCtx is the context of a send made through the System: the trace of
// the handling running on the calling goroutine, when tracing is on.
func (s *System) tellCtx() context.Context {
	if s.tracer.Load() == nil {
		return context.Background()
	}
	if g := goroutineid.Fast(); g != -1 {
		if v, ok := tracedCells.Load(g); ok {
			if c := v.(*cell); c.l.OnLoop() {
				return c.sendCtx()
			}
		}
	}
	return context.Background()
}

// currentTrace returns the trace the actor's handling runs under, nil if
// none. On the loop.
func (c *cell) currentTrace() context.Context {
	if c.rare == nil {
		return nil
	}
	return c.rare.trace
}

// sendCtx returns the context a send from the actor's handler carries:
// its current trace, if any.
func (c *cell) sendCtx() context.Context {
	if tc := c.currentTrace(); tc != nil {
		return tc
	}
	return context.Background()
}

// tracedLogger returns the actor's logger with the trace_id and span_id
// of the current trace, built once per traced handling; the plain logger
// when there is no trace. On the loop.
func (c *cell) tracedLogger() *zap.Logger {
	r := c.rare
	if r == nil || r.trace == nil {
		return c.logger()
	}
	if r.traceLog == nil {
		r.traceLog = c.logger()
		if t := c.system().getTracer(); t != nil {
			if tid, sid, ok := t.IDs(r.trace); ok {
				r.traceLog = r.traceLog.With(zap.String("trace_id", tid), zap.String("span_id", sid))
			}
		}
	}
	return r.traceLog
}

// DeliverTraced delivers a message that arrived through a transport with
// the sender's trace context tc; see internal/tracehook.Deliverer.
func (h *host) DeliverTraced(tc context.Context, to, msg any, reply func(v any, err error)) error {
	s := (*System)(h)
	r := to.(Ref)
	if tc == nil || r.system != s.name {
		return h.Deliver(r, msg, reply)
	}
	return s.post(tc, false, 0, r, msg, reply)
}

// waited records one letter's wait in c's mailbox. On c's loop.
func (o *observer) waited(c *cell, d time.Duration) {
	sd := o.sideOf(c)
	sd.mu.Lock()
	if sd.wait == nil {
		sd.wait = loop.NewDurationEstimator()
	}
	w := sd.wait
	sd.mu.Unlock()
	w.Observe(d)
}

// resumeTrace makes tc, the trace of a handling that made an ask, current
// again while the ask settles, so that the asker's reactions (the rest of
// a JavaScript handler after an await, a Go promise's then) run under the
// trace of the message that started them. The function it returns, called
// once the promise has settled, restores the trace before at the
// microtask checkpoint, after the reactions queued by then. On the loop.
func (c *cell) resumeTrace(tc context.Context) func() {
	if tc == nil {
		return noop
	}
	prev := c.enterTrace(tc)
	return func() {
		if err := c.l.QueueMicrotask(func() { c.leaveTrace(prev) }); err != nil {
			c.leaveTrace(prev)
		}
	}
}

func noop() {}
