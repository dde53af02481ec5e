package actor

import (
	"context"
	"errors"
	"time"

	"go.uber.org/zap"

	"github.com/troupe-go/troupe/loop"
)

// Context is what a handler gets: the actor's identity, its loop, and the
// operations an actor performs. It is also a context.Context that is done
// when the actor stops and that marks its holder as running inside a
// handler, so blocking calls given it ([Ask], [loop.Promise.Wait]) return
// an error instead of blocking. Use it only on the actor's loop.
//
// A Context is the actor's runtime cell seen through its handler API (the
// two types share one layout), so it costs an actor nothing.
type Context cell

var _ context.Context = (*Context)(nil)

// c returns the cell behind x.
func (x *Context) c() *cell { return (*cell)(x) }

// Self returns the actor's ref.
func (x *Context) Self() Ref { return x.c().self() }

// Parent returns the parent's ref (zero for a top-level actor).
func (x *Context) Parent() Ref {
	if x.c().parent == nil {
		return Ref{}
	}
	return x.c().parent.self()
}

// System returns the actor's system.
func (x *Context) System() *System {
	if h := harnessOf(x.c()); h != nil {
		return h.sends
	}
	return x.c().system()
}

// Logger returns the actor's logger, carrying its kind and id.
// During the handling of a traced message its lines also carry the
// trace_id and span_id (see observe.EnableTracing).
func (x *Context) Logger() *zap.Logger { return x.c().tracedLogger() }

// Loop returns the actor's loop, for timers and promises.
func (x *Context) Loop() *loop.Loop { return &x.c().l }

// Tell sends msg to another actor, as [System.Tell]; it never blocks.
func (x *Context) Tell(to Ref, msg any) error {
	if fx := effectsOf(x.c()); fx != nil {
		return fx.Tell(to, msg)
	}
	return x.c().system().post(x.c().sendCtx(), false, 0, to, msg, nil)
}

// Spawn starts a child actor, supervised by this one and stopped before it.
// Its name, kind and id, need only be unique among this actor's children:
// its ref is this actor's ref's [Ref.Child]. Errors are returned at once,
// as by [System.Spawn]: [ErrNameTaken] for a sibling of that name, and
// [ErrWouldBlock] with [WithStartWait], which a handler must not use;
// [ErrStopped] once this actor is stopping.
//
// As in Akka, a stopped child's name stays taken until this actor has
// taken note of the stop, which it does ahead of its mailbox (and, if it
// watches the child, before it handles the child's [Terminated]): until
// then a spawn of the name is refused with [ErrNameTaken], even once
// [System.Actor] no longer finds the child. So a child Spawn returns is
// always one this actor supervises and stops before it stops, and the
// handler of a child's Terminated may spawn its name again at once.
func (x *Context) Spawn(kind, id string, f Factory, opts ...SpawnOption) (Ref, error) {
	if fx := effectsOf(x.c()); fx != nil {
		return spawnEffect(x.c(), fx, kind, id, f, opts)
	}
	if x.c().state != cellRunning {
		return Ref{}, ErrStopped
	}
	return x.c().system().spawn(x.c(), kind, id, f, opts)
}

// Fail fails the actor with err, as a panic would, without being one:
// supervision restarts it (or stops it past its restart limit), the ask
// being handled, if any, fails with err, and logs and errors read as err,
// with no stack. Use it for an ordinary error that leaves the instance
// unusable (a script that threw, a lost connection). Fail does not
// return: it unwinds the handler, hook, timer or reaction that called it,
// which must run on the actor's loop.
func (x *Context) Fail(err error) {
	if err == nil {
		err = errors.New("actor: Fail(nil)")
	}
	panic(&failure{err: err})
}

// HandlerFailed reports that the handler of msg, a message no one asked
// for (a tell), failed with err after it returned (a promise it answered
// with was rejected): the actor runtime logs it at Warn and publishes a
// [HandlerFailed] event, as it does for an error a handler returns on a
// tell. The actor keeps running. On the actor's loop.
func (x *Context) HandlerFailed(msg any, err error) { x.c().tellFailed(msg, err) }

// Stop stops the actor named r now, as [System.Stop]: its children first,
// then it; the message it is handling is its last, and the messages still
// in its mailbox go to dead letters. Stopping itself, a handler finishes
// the current message first, and it is the last, also among messages
// replayed from the stash or kept during a restart.
func (x *Context) Stop(r Ref) {
	if fx := effectsOf(x.c()); fx != nil {
		fx.Stop(r)
		return
	}
	x.c().system().Stop(r)
}

// Watch asks for a [Terminated] message when the actor named r stops (at
// once, with a Reason wrapping [ErrNotFound], if it is not alive, or stops
// before the watch reaches it). Each Watch yields exactly one Terminated,
// unless Unwatch comes first; watching an actor already watched changes
// nothing. The Terminated is queued at the end of the watcher's mailbox as
// the watched actor stops, before its [Stopped] event is published: it
// comes after every message the watched actor sent the watcher (as in Akka
// and Erlang), and before any message sent by one who saw it stopped. It is
// handled as a message: one that arrives while the watcher waits for a
// restart is kept, in order, for the fresh instance; one that arrives once
// the watcher is stopping, or is gone, goes to dead letters.
func (x *Context) Watch(r Ref) {
	if fx := effectsOf(x.c()); fx != nil {
		fx.Watch(r)
		return
	}
	c := x.c()
	if c.more().watching == nil {
		c.more().watching = map[Ref]*cell{}
	}
	if _, ok := c.rare.watching[r]; ok {
		return
	}
	if r.system != c.system().name {
		c.rare.watching[r] = nil
		c.system().watchRemote(c, r)
		return
	}
	target := c.system().lookup(r)
	c.rare.watching[r] = target
	if target != nil {
		c.system().watchCell(target, c.self())
		return
	}
	c.queueTerminated(terminatedSignal{t: gone(r)})
}

// Unwatch cancels Watch; a Terminated already queued is not delivered.
func (x *Context) Unwatch(r Ref) {
	if fx := effectsOf(x.c()); fx != nil {
		fx.Unwatch(r)
		return
	}
	delete(x.c().more().watching, r)
	x.c().system().deliverSystem(r, unwatchSignal{watcher: x.c().self()})
}

// Deadline implements context.Context: an actor has none.
func (x *Context) Deadline() (time.Time, bool) { return time.Time{}, false }

// Done implements context.Context: closed when the actor's loop closes.
func (x *Context) Done() <-chan struct{} { return x.c().l.Done() }

// Err implements context.Context.
func (x *Context) Err() error {
	select {
	case <-x.Done():
		return context.Canceled
	default:
		return nil
	}
}

// Value implements context.Context; it carries the actor's loop, which is
// how blocking calls recognise a handler's context, and during a traced
// handling the trace's span (see observe.EnableTracing).
func (x *Context) Value(key any) any {
	if tc := x.c().currentTrace(); tc != nil {
		if v := tc.Value(key); v != nil {
			return v
		}
	}
	if x.c().more().loopCtx == nil {
		x.c().more().loopCtx = loop.WithLoop(context.Background(), &x.c().l)
	}
	return x.c().more().loopCtx.Value(key)
}
