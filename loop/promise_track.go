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

// promiseList is the loop's list of pending promises, so shutdown can
// reject every pending promise. Each promise records its index (plus one),
// so removal is a swap with the last entry; keeping the index in the
// promise rather than list links in it keeps promises small. Loop only.
type promiseList struct{ list []tracked }

func (pl *promiseList) empty() bool { return len(pl.list) == 0 }

// add lists p, whose index field is at; a listed promise stays put.
func (pl *promiseList) add(p tracked, at *int32) {
	if *at != 0 {
		return
	}
	pl.list = append(pl.list, p)
	*at = int32(len(pl.list))
}

// remove unlists the promise whose index field is at, if listed.
func (pl *promiseList) remove(at *int32) {
	i := *at - 1
	if i < 0 {
		return
	}
	last := int32(len(pl.list) - 1)
	if i != last {
		moved := pl.list[last]
		pl.list[i] = moved
		*moved.pendingIndex() = i + 1
	}
	pl.list[last] = nil
	pl.list = pl.list[:last]
	*at = 0
	if last == 0 && cap(pl.list) > 64 {
		pl.list = nil // give back a large array once nothing is pending
	}
}

// trim gives back the array of an empty list, so an idle loop with no
// pending promise keeps none. On the loop, as it goes idle.
func (pl *promiseList) trim() {
	if len(pl.list) == 0 {
		pl.list = nil
	}
}

// rejectPendingPromises rejects every pending promise with ErrLoopClosed;
// their reactions run at the next checkpoint. On the loop.
func (l *Loop) rejectPendingPromises() {
	for n := len(l.promises.list); n > 0; n = len(l.promises.list) {
		l.promises.list[n-1].rejectOnShutdown() // which unlists it
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

// rejections lists promises rejected with no reaction yet.
type rejections struct{ list []tracked }

// trackRejection remembers a rejection with no reaction yet; the next
// checkpoint reports it if it is still unhandled then.
func (l *Loop) trackRejection(p tracked) {
	if l.rejected == nil {
		l.rejected = &rejections{}
	}
	l.rejected.list = append(l.rejected.list, p)
}

// reportUnhandled runs after a checkpoint's microtasks: rejections still
// unhandled go to the unhandled-rejection handler.
func (l *Loop) reportUnhandled() {
	list := l.rejected.list
	l.rejected = nil
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
