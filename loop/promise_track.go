package loop

import "errors"

var (
	errNilRejection = errors.New("loop: promise rejected with a nil error")
	errNilPromise   = errors.New("loop: promise resolved with a nil promise")
)

// tracked is what the loop needs of a promise of any type: to reject it at
// shutdown and to tell whether its rejection was handled.
type tracked interface {
	rejectOnShutdown()
	unhandledRejection() (error, bool)
}

// promiseLink threads a pending promise into its loop's list, so shutdown
// can reject every pending promise without a map.
type promiseLink struct {
	prev, next *promiseLink
	owner      tracked
}

// promiseList is the loop's list of pending promises. Loop only.
type promiseList struct{ head *promiseLink }

func (pl *promiseList) linked(n *promiseLink) bool {
	return n.prev != nil || pl.head == n
}

func (pl *promiseList) add(n *promiseLink) {
	if pl.linked(n) {
		return
	}
	n.prev, n.next = nil, pl.head
	if pl.head != nil {
		pl.head.prev = n
	}
	pl.head = n
}

func (pl *promiseList) remove(n *promiseLink) {
	if !pl.linked(n) {
		return
	}
	if n.prev != nil {
		n.prev.next = n.next
	} else {
		pl.head = n.next
	}
	if n.next != nil {
		n.next.prev = n.prev
	}
	n.prev, n.next = nil, nil
}

// rejectPendingPromises rejects every pending promise with ErrLoopClosed;
// their reactions run at the next checkpoint. On the loop.
func (l *Loop) rejectPendingPromises() {
	for l.promises.head != nil {
		l.promises.head.owner.rejectOnShutdown()
	}
}

func (p *Promise[T]) rejectOnShutdown() {
	var zero T
	p.finish(pending, zero, ErrLoopClosed)
	p.finish(following, zero, ErrLoopClosed)
	p.l.promises.remove(&p.link) // settled elsewhere but still linked
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
		if err, ok := p.unhandledRejection(); ok && l.cfg.onUnhandled != nil {
			l.callHook(l.cfg.onUnhandled, err)
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
