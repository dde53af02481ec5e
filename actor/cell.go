package actor

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"

	"go.uber.org/zap"

	"github.com/troupe-go/troupe/loop"
)

// cell is the runtime side of one actor: its loop, its current instance,
// its place in the tree. Everything but the immutable fields is touched on
// the actor's loop only.
//
// The cell is 320 bytes, a size class of the allocator that is a multiple of
// 64, so every cell starts on a cache line and its fields keep to their
// lines: the loop's first line (its ingress and wake-up word), which senders
// write; the cell's last, which senders read (path) and nobody writes once
// it runs; and between them what the loop writes as it handles messages. A
// 288-byte cell saved 32 bytes an actor but started 32 bytes into a line
// every other time, sharing the lines at its ends with other objects: fan-in
// to an actor placed so ran 1.5 to 2.5 times slower, whatever the order of
// its fields. TestCellLines checks the lines.
type cell struct {
	l loop.Loop // embedded: the actor and its loop are one allocation; see loop's TestLoopLayout

	// Written by the loop as it handles messages: beside the loop's own
	// fields written with every callback, at its end.
	state   cellState
	inTimer bool        // a keyed timer's message is being handled
	inRecv  bool        // Receive is running
	stashed bool        // Receive stashed the message it handles; handle keeps it
	timers  *keyedTimer // keyed timers; see Timers and timertable.go

	// The last line: read by every sender (path, by the registry's lookup;
	// cfg, its mailbox policy), by the loop (actor, with every message),
	// written at spawn, restart and first use of rare state only.
	path    string       // the actor's name: its Ref less the system; see self
	cfg     *spawnConfig // shared by every actor spawned without options
	parent  *cell
	factory Factory
	actor   Actor
	rare    *cellRare // made on first use
}

// cellRare holds what most actors never need, so an idle actor does not
// pay for it: stop, watch, supervision, stash and receive-timeout state.
type cellRare struct {
	children   map[Ref]*cell // live children; see kids
	reason     error         // why it stops
	restartErr error         // while a restart waits for the children to stop: why it restarts
	waiting    int           // children still stopping
	watchers   map[Ref]struct{}
	watching   map[Ref]*cell // the local incarnation watched; nil if remote or not found
	restarts   []int64       // clock times of restarts within the window
	attempt    uint32        // restart attempts scheduled, to tell a stale one
	pending    []pendingMsg  // messages that arrived while suspended
	rt         *receiveTimeout
	stash      []handled
	unstash    bool
	replaying  bool
	loopCtx    context.Context // the actor's Context as a loop context
	log        *zap.Logger     // the actor's logger
	startDone  func(error)     // a spawn waiting for the first start's outcome (WithStartWait)
	trace      context.Context // the trace the current handling runs under; see trace.go
	traceLog   *zap.Logger     // the logger with the current trace's ids, made on first use
}

// kids returns the cell's live children (nil: none). On the loop.
func (c *cell) kids() map[Ref]*cell {
	if c.rare == nil {
		return nil
	}
	return c.rare.children
}

// more returns the cell's rare state, making it on first use. On the loop.
func (c *cell) more() *cellRare {
	if c.rare == nil {
		c.rare = &cellRare{}
	}
	return c.rare
}

type cellState uint8

const (
	cellStarting cellState = iota
	cellRunning
	cellSuspended // failed, waiting for its restart (backoff, or an all-for-one decision)
	cellStopping
	cellStopped
)

// system returns the actor's system, which its config names.
func (c *cell) system() *System { return c.cfg.sys }

// self returns the actor's ref. The name's hash is computed again rather
// than kept: 8 bytes an actor, against a few nanoseconds where an actor's
// own ref is asked for (sends carry their target's hash).
func (c *cell) self() Ref { return Ref{system: c.system().name, path: c.path, h: nameHash(c.path)} }

// context returns the cell as its handlers see it.
func (c *cell) context() *Context { return (*Context)(c) }

func newCell(s *System, parent *cell, ref Ref, f Factory, cfg *spawnConfig) (*cell, error) {
	c := &cell{factory: f, cfg: cfg, parent: parent}
	name(c, ref)
	var err error
	if cfg.mailboxCap > 0 { // the mailbox is the loop's mail lane
		err = c.l.Init(loop.WithScheduler(s.sched), loop.WithHost(c), loop.WithMailBound(cfg.mailboxCap))
	} else {
		err = c.l.Init(loop.WithScheduler(s.sched), loop.WithHost(c))
	}
	if err != nil {
		return nil, err
	}
	return c, nil
}

// logger returns the actor's logger, built on first use so that an idle
// actor pays nothing for it.
func (c *cell) logger() *zap.Logger {
	r := c.more()
	if r.log == nil {
		self := c.self()
		fields := []zap.Field{zap.String("kind", self.Kind()), zap.String("id", self.ID())}
		if c.parent != nil {
			fields = append(fields, zap.String("path", c.path))
		}
		r.log = c.system().log.With(fields...)
	}
	return r.log
}

// newInstance calls the factory, turning a panic or a nil actor into an
// error.
func (c *cell) newInstance() (a Actor, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("actor: %s: factory: %w", c.self(), &loop.PanicError{Value: r, Stack: debug.Stack()})
		}
	}()
	if a = c.factory(); a == nil {
		return nil, fmt.Errorf("actor: %s: factory returned nil", c.self())
	}
	return a, nil
}

// start makes an instance (unless spawn made it), runs its Started hook,
// then the messages that arrived meanwhile. On the loop.
func (c *cell) start() {
	if c.state != cellStarting {
		return
	}
	c.state = cellRunning
	if c.actor == nil {
		a, err := c.newInstance()
		if err != nil {
			c.fail(err)
			return
		}
		c.actor = a
	}
	if err := c.hook(func() {
		if h, ok := c.actor.(StartedHook); ok {
			h.Started(c.context())
		}
	}); err != nil {
		if c.rare != nil && c.rare.startDone != nil {
			// A spawn waits for this start: it fails, the actor stops.
			err = fmt.Errorf("%w: %s: %w", ErrStartFailed, c.self(), err)
			c.stop(err)
			c.reportStart(err)
			return
		}
		c.fail(err)
		return
	}
	c.reportStart(nil)
	c.system().publish(Event{Kind: Started, Actor: c.self()})
	c.replayPending()
}

// reportStart tells a spawn waiting for the first start its outcome,
// once. On the loop.
func (c *cell) reportStart(err error) {
	if c.rare == nil || c.rare.startDone == nil {
		return
	}
	done := c.rare.startDone
	c.rare.startDone = nil
	done(err)
}

// handle runs one user message. On the loop.
func (c *cell) handle(msg any, reply replyFunc) {
	if c.state == cellSuspended || c.state == cellStarting {
		c.more().pending = append(c.more().pending, pendingMsg{msg, reply})
		return
	}
	if c.state != cellRunning {
		c.refuse(msg, reply)
		return
	}
	c.inRecv = true
	box, _ := msg.(boxed) // a typed ref's box (box.go), or nil
	v, err := c.invoke(msg, box)
	stashed := c.stashed
	c.inRecv, c.stashed = false, false
	if stashed {
		// Kept before a panic fails the actor, so the fresh instance gets
		// it, and before an UnstashAll of this turn replays the stash.
		c.keepStashed(msg, reply)
	}
	if c.rare != nil && c.rare.rt != nil && !c.inTimer && !isTimerMessage(msg) {
		c.rare.rt.arm()
	}
	panicked := err != nil && isPanic(err)
	if reply != nil && !stashed {
		if u, ok := v.(loop.Untyped); ok && err == nil {
			u.WhenSettled(reply)
		} else {
			reply(v, err)
		}
	}
	if panicked {
		c.fail(err)
		return
	}
	if err != nil && !stashed {
		c.handlerError(unboxed(msg), reply, err)
	} else if !stashed && box != nil {
		box.recycle() // handled: nothing refers to it any longer
	}
	if c.rare != nil && c.rare.unstash {
		c.replayStash()
	}
}

// handlerError keeps an error a handler returned from going unnoticed: an
// unhandled message goes to dead letters, and the error of a tell, which
// no asker receives, is logged and published (HandlerFailed). On the loop.
func (c *cell) handlerError(msg any, reply replyFunc, err error) {
	switch {
	case errors.Is(err, ErrUnhandled):
		c.system().deadLetter(c.self(), msg, err)
	case reply == nil:
		c.tellFailed(msg, err)
	}
}

// tellFailed logs and publishes the error of a handler on a tell.
func (c *cell) tellFailed(msg any, err error) {
	c.logger().Warn("handler failed on a message no one asked for",
		zap.String("message", fmt.Sprintf("%T", msg)), zap.Error(err))
	c.system().handlerFailed(c.self(), msg, err)
}

// isPanic reports whether err fails the actor: a recovered panic, or
// Context.Fail. Out of line, so that the handle path does not allocate
// the targets errors.As needs.
func isPanic(err error) bool {
	var pe *loop.PanicError
	var f *failure
	return errors.As(err, &f) || errors.As(err, &pe)
}

// failure is the error of Context.Fail: an ordinary error that fails the
// actor. It reads as the error it carries.
type failure struct{ err error }

func (f *failure) Error() string { return f.err.Error() }

func (f *failure) Unwrap() error { return f.err }

// recovered turns what recover returned into the failure it is: the
// error of Context.Fail, or a panic with its stack.
func recovered(r any) error {
	if f, ok := r.(*failure); ok {
		return f
	}
	return &loop.PanicError{Value: r, Stack: debug.Stack()}
}

// refuse sends a message the actor will not handle to dead letters and
// fails its ask.
func (c *cell) refuse(msg any, reply replyFunc) {
	c.system().deadLetter(c.self(), msg, ErrStopped)
	if reply != nil {
		reply(nil, fmt.Errorf("%w: %s", ErrStopped, c.self()))
	}
}

func (c *cell) invoke(msg any, box boxed) (v any, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = recovered(r)
		}
	}()
	if box != nil && !box.opens(c.actor) {
		msg = box.unbox() // the box is for another actor's Receive
	}
	return c.actor.Receive(c.context(), msg)
}

// hook runs a lifecycle hook, turning a panic into an error.
func (c *cell) hook(fn func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = recovered(r)
		}
	}()
	fn()
	return nil
}

// LoopPanic receives panics from the actor's timers, microtasks and other
// loop callbacks outside Receive, as the loop's host. On the loop.
func (c *cell) LoopPanic(err error) {
	if pe, ok := err.(*loop.PanicError); ok {
		if f, ok := pe.Value.(*failure); ok {
			err = f // Context.Fail in a timer or microtask
		}
	}
	if c.state == cellRunning {
		c.fail(err)
	}
}

// stop begins stopping: children first, then the actor. On the loop.
func (c *cell) stop(reason error) {
	if c.state == cellStopping || c.state == cellStopped {
		return
	}
	wasRunning := c.state == cellRunning
	if c.state == cellStarting {
		c.actor = nil // never started: no hooks for it
		c.reportStart(fmt.Errorf("%w: %s: stopped before it started", ErrStartFailed, c.self()))
	}
	c.context().Timers().CancelAll()
	c.clearReceiveTimeout()
	c.state, c.more().reason = cellStopping, reason
	c.rare.restartErr = nil // a stop overtakes a restart waiting for children
	if wasRunning {
		_ = c.hook(func() {
			if h, ok := c.actor.(StoppingHook); ok {
				h.Stopping(c.context())
			}
		})
	}
	c.unwatchChildren() // their Terminated would find no one to handle it
	c.more().waiting = len(c.kids())
	for _, child := range c.kids() {
		child.sendSystem(stopSignal{reason: errParentStopping})
	}
	if c.more().waiting == 0 {
		c.finish()
	}
}

var errParentStopping = errors.New("actor: parent stopping")

// childStopped counts a child down, once: the name it held among its
// siblings is free from then on (see reserved). It runs when the child's
// stop notice arrives, or earlier, when its Terminated does (the two
// travel different lanes). On the loop.
func (c *cell) childStopped(child *cell) {
	if c.kids()[child.self()] != child {
		return // counted already
	}
	delete(c.rare.children, child.self())
	switch {
	case c.state == cellStopping:
		if c.more().waiting--; c.more().waiting == 0 {
			c.finish()
		}
	case c.rare != nil && c.rare.restartErr != nil: // a restart waits for its children
		if c.rare.waiting--; c.rare.waiting == 0 {
			err := c.rare.restartErr
			c.rare.restartErr = nil
			c.resumeAfterBackoff(err)
		}
	}
}

// finish completes a stop once the children are gone. On the loop.
func (c *cell) finish() {
	if c.actor != nil {
		_ = c.hook(func() {
			if h, ok := c.actor.(StoppedHook); ok {
				h.Stopped(c.context())
			}
		})
	}
	c.state = cellStopped
	for _, p := range c.more().pending {
		c.refuse(p.msg, p.reply)
	}
	c.more().pending = nil
	c.refuseStash()
	// The loop refuses new mail and hands back what is queued (ReturnMail:
	// dead letters) before anyone hears of the stop; replies and signals
	// queued as tasks still run, and find the actor stopped.
	_ = c.l.Shutdown(context.Background())
	c.system().unregister(c)
	for w := range c.more().watchers {
		c.system().deliverSystem(w, terminatedSignal{t: Terminated{Actor: c.self(), Reason: c.more().reason}, from: c})
	}
	for w := range c.more().watching {
		c.system().deliverSystem(w, unwatchSignal{watcher: c.self()})
	}
	if c.parent != nil {
		c.parent.sendSystem(childStoppedSignal{child: c})
	}
	c.system().publish(Event{Kind: Stopped, Actor: c.self(), Reason: c.more().reason})
}
