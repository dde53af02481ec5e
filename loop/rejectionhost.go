package loop

// RejectionHost is a [Host] that also hears of rejections no reaction
// handled: a loop whose host implements it tells it of each one
// [WithUnhandledRejectionHandler]'s function would be told, when no such
// function is set. An actor runtime uses it so that a rejection nobody
// handled inside an actor is reported, at no cost per loop.
type RejectionHost interface {
	Host
	// UnhandledRejection receives the error of a promise rejected with no
	// reaction after a checkpoint. On the loop.
	UnhandledRejection(err error)
}

// unhandled reports the error of a rejection no reaction handled to the
// unhandled-rejection function, or else to a host that hears of them.
func (l *Loop) unhandled(err error) {
	if fn := l.cfg.onUnhandled; fn != nil {
		l.callHook(fn, err)
		return
	}
	if h, ok := l.host.(RejectionHost); ok {
		l.callHook(h.UnhandledRejection, err)
	}
}
