package loop

import "errors"

var (
	errNilRejection = errors.New("loop: promise rejected with a nil error")
	errNilPromise   = errors.New("loop: promise resolved with a nil promise")
)

// tracked is what the loop needs of a promise of any type: to reject it at
// shutdown, to tell whether its rejection was handled, and where it is in
// the loop's list of pending promises.
type tracked interface {
	rejectOnShutdown()
	unhandledRejection() (error, bool)
	pendingIndex() *int32
}

// promiseList is the loop's bookkeeping of promises, out of line: a loop
// with no promise pending (an idle actor's, most of the time) pays one
// pointer for it. Loop only.
type promiseList struct{ s *promiseSet }

// promiseSet lists the loop's pending promises, so shutdown can reject
// every one, and the rejections not yet reported. Each pending promise
// records its index (plus one), so removal is a swap with the last entry;
// keeping the index in the promise rather than list links in it keeps
// promises small.
type promiseSet struct {
	pending  []tracked
	rejected []tracked // rejected with no reaction yet; see trackRejection
}

// set returns the list's state, making it on first use.
func (pl *promiseList) set() *promiseSet {
	if pl.s == nil {
		pl.s = &promiseSet{}
	}
	return pl.s
}

func (pl *promiseList) empty() bool { return pl.s == nil || len(pl.s.pending) == 0 }

// add lists p, whose index field is at; a listed promise stays put.
func (pl *promiseList) add(p tracked, at *int32) {
	if *at != 0 {
		return
	}
	s := pl.set()
	s.pending = append(s.pending, p)
	*at = int32(len(s.pending))
}

// remove unlists the promise whose index field is at, if listed.
func (pl *promiseList) remove(at *int32) {
	i := *at - 1
	if i < 0 {
		return
	}
	s := pl.s // a listed promise means the set exists
	last := int32(len(s.pending) - 1)
	if i != last {
		moved := s.pending[last]
		s.pending[i] = moved
		*moved.pendingIndex() = i + 1
	}
	s.pending[last] = nil
	s.pending = s.pending[:last]
	*at = 0
	if last == 0 && cap(s.pending) > 64 {
		s.pending = nil // give back a large array once nothing is pending
	}
}

// trim gives back what an idle loop with no pending promise and no
// rejection to report keeps: the set, or else an empty array. On the
// loop, as it goes idle.
func (pl *promiseList) trim() {
	s := pl.s
	switch {
	case s == nil:
	case len(s.pending) == 0 && len(s.rejected) == 0:
		pl.s = nil
	case len(s.pending) == 0:
		s.pending = nil
	}
}

// rejectPendingPromises rejects every pending promise with ErrLoopClosed;
// their reactions run at the next checkpoint. On the loop.
func (l *Loop) rejectPendingPromises() {
	for !l.promises.empty() {
		s := l.promises.s
		s.pending[len(s.pending)-1].rejectOnShutdown() // which unlists it
	}
}

func (p *Promise[T]) pendingIndex() *int32 { return &p.pendingI }

func (p *Promise[T]) rejectOnShutdown() {
	var zero T
	p.finish(pending, zero, ErrLoopClosed)
	p.finish(following, zero, ErrLoopClosed)
	p.l.promises.remove(&p.pendingI) // settled elsewhere but still listed
}

func (p *Promise[T]) unhandledRejection() (error, bool) {
	if p.handled || p.reported || p.state.Load() != rejected {
		return nil, false
	}
	p.reported = true
	return p.failure(), true
}

// trackRejection remembers a rejection with no reaction yet; the next
// checkpoint reports it if it is still unhandled then. The flag, beside
// the loop's other flags, spares every checkpoint a look at the set.
func (l *Loop) trackRejection(p tracked) {
	s := l.promises.set()
	s.rejected = append(s.rejected, p)
	l.rejecting = true
}

// reportUnhandled runs after a checkpoint's microtasks: rejections still
// unhandled go to the unhandled-rejection handler. Rejections the handler
// causes wait for the next checkpoint.
func (l *Loop) reportUnhandled() {
	s := l.promises.s
	list := s.rejected
	s.rejected, l.rejecting = nil, false
	for _, p := range list {
		if err, ok := p.unhandledRejection(); ok {
			l.unhandled(err)
		}
	}
}

// reportHandledLate tells the handled-late hook that a rejection reported
// as unhandled has now got a reaction.
func (l *Loop) reportHandledLate(err error) {
	if l.cfg.onHandledLate != nil {
		l.callHook(l.cfg.onHandledLate, err)
	}
}

// callHook runs a user hook; a panicking hook is reported, not fatal.
func (l *Loop) callHook(fn func(error), err error) {
	defer func() {
		if r := recover(); r != nil {
			l.report(&PanicError{Value: r})
		}
	}()
	fn(err)
}
