package systems

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	natsjs "github.com/nats-io/nats.go/jetstream"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/loop"
	"github.com/troupe-go/troupe/persist"
	"github.com/troupe-go/troupe/persist/jetstream"
	"github.com/troupe-go/troupe/remote/wire"

	"github.com/troupe-go/troupe/bench/internal/measure"
)

// The persist suite: troupe's event-sourced actors on the JetStream store,
// and raw JetStream publishing of the same bytes (the NATS column).
func init() {
	troupe.Cases["persist_reply_p50"] = troupePersistReply
	troupe.Cases["persist_events_1000"] = troupePersistEvents
	troupe.Cases["persist_recover_1000"] = func(p Params) (measure.Figures, error) { return troupePersistRecover(p, false) }
	troupe.Cases["persist_recover_snap"] = func(p Params) (measure.Figures, error) { return troupePersistRecover(p, true) }
	troupe.Cases["persist_idle_actor"] = troupePersistIdle
	natsBaseline.Cases["persist_reply_p50"] = rawJetStreamPublish
	natsBaseline.Cases["persist_events_1000"] = rawJetStreamAsync
	natsBaseline.cannotRun("raw JetStream has no actor to recover", "persist_recover_1000", "persist_recover_snap")
	natsBaseline.cannotRun("the baseline is troupe's plain actor, in the same process", "persist_idle_actor")
}

// benchEvent is the event the persist scenarios store.
type benchEvent struct{ N int64 }

// readState asks a bench entity for its state without persisting.
type readState struct{}

// persistBench is a store in a temporary directory and the definition of
// the bench's event-sourced counter on it.
type persistBench struct {
	dir   string
	store *jetstream.Store
	def   *persist.EventSourced[int64, any, benchEvent]
	sys   *actor.System
}

func startPersistBench() (*persistBench, error) {
	b := &persistBench{}
	var err error
	if b.dir, err = os.MkdirTemp("", "troupe-bench-persist"); err != nil {
		return nil, err
	}
	if b.store, err = jetstream.Open(b.dir); err != nil {
		return nil, err
	}
	reg := wire.NewRegistry()
	if err := wire.Register[benchEvent](reg, "bench.event"); err != nil {
		return nil, err
	}
	b.def = &persist.EventSourced[int64, any, benchEvent]{
		Store: b.store, Schema: persist.NewSchema(reg),
		Command: func(c *persist.Command[int64, benchEvent], cmd any) (any, error) {
			switch m := cmd.(type) {
			case int64:
				return c.Persist(benchEvent{m}), nil
			case readState:
				return loop.Resolved(c.Actor().Loop(), c.State()), nil
			}
			c.Snapshot()
			return loop.Resolved(c.Actor().Loop(), c.State()), nil
		},
		Apply: func(s int64, e benchEvent) int64 { return s + e.N },
		// Every actor of a recovery row replays the same entity.
		Entity: func(self actor.Ref) string {
			if self.Kind() == "recover" {
				return "recover/" + self.ID()[:1]
			}
			return self.Path()
		},
	}
	if b.sys, err = troupeActorSystem(); err != nil {
		return nil, err
	}
	return b, nil
}

func (b *persistBench) stop() {
	troupeActorShutdown(b.sys)
	_ = b.store.Close()
	_ = os.RemoveAll(b.dir)
}

func (b *persistBench) spawn(kind, id string) (actor.Ref, error) {
	f, err := b.def.Factory()
	if err != nil {
		return actor.Ref{}, err
	}
	return b.sys.Spawn(kind, id, f)
}

func (b *persistBench) ask(ref actor.Ref, msg any) (int64, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return actor.Ask[int64](ctx, b.sys, ref, msg)
}

// troupePersistReply: p.N sequential asks that each persist one event.
func troupePersistReply(p Params) (measure.Figures, error) {
	b, err := startPersistBench()
	if err != nil {
		return measure.Figures{}, err
	}
	defer b.stop()
	ref, err := b.spawn("account", "0")
	if err != nil {
		return measure.Figures{}, err
	}
	lat := make([]time.Duration, p.N)
	m := measure.Start()
	for i := range lat {
		t := time.Now()
		_, err := b.ask(ref, int64(1))
		lat[i] = time.Since(t)
		if err != nil {
			return measure.Figures{}, fmt.Errorf("ask %d: %w", i, err)
		}
	}
	return quantileFigures(m.Stop(p.N), lat, 0.50), nil
}

// troupePersistEvents: p.Actors actors, each asked p.N/p.Actors times in
// a row by a goroutine of its own.
func troupePersistEvents(p Params) (measure.Figures, error) {
	b, err := startPersistBench()
	if err != nil {
		return measure.Figures{}, err
	}
	defer b.stop()
	actors := max(p.Actors, 1)
	refs := make([]actor.Ref, actors)
	for i := range refs {
		if refs[i], err = b.spawn("account", strconv.Itoa(i)); err != nil {
			return measure.Figures{}, err
		}
		if _, err := b.ask(refs[i], readState{}); err != nil { // recovered before the clock starts
			return measure.Figures{}, err
		}
	}
	per := p.N / actors
	errs := make(chan error, actors)
	var wg sync.WaitGroup
	m := measure.Start()
	for _, ref := range refs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// One deadline for the goroutine's asks: a timer per ask would
			// be the driver's cost, not persistence's.
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			for range per {
				if _, err := actor.Ask[int64](ctx, b.sys, ref, int64(1)); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	f := m.Stop(per * actors)
	close(errs)
	return f, <-errs
}

// troupePersistRecover: an entity of 1,000 events (with a snapshot at 990
// if snap), recovered by a new actor p.N times.
func troupePersistRecover(p Params, snap bool) (measure.Figures, error) {
	b, err := startPersistBench()
	if err != nil {
		return measure.Figures{}, err
	}
	defer b.stop()
	writer, err := b.spawn("recover", "w")
	if err != nil {
		return measure.Figures{}, err
	}
	for i := range 1000 {
		if snap && i == 990 {
			if _, err := b.ask(writer, "snapshot"); err != nil {
				return measure.Figures{}, err
			}
		}
		if _, err := b.ask(writer, int64(1)); err != nil {
			return measure.Figures{}, err
		}
	}
	if snap {
		if err := waitSnapshot(b.store, "recover/w", 990); err != nil {
			return measure.Figures{}, err
		}
	}
	b.sys.Stop(writer)
	var total time.Duration
	m := measure.Start()
	for i := range p.N {
		t := time.Now()
		ref, err := b.spawn("recover", "w"+strconv.Itoa(i)) // entity recover/w
		if err != nil {
			return measure.Figures{}, err
		}
		v, err := b.ask(ref, readState{})
		total += time.Since(t)
		if err != nil || v != 1000 {
			return measure.Figures{}, fmt.Errorf("recovery %d: %d, %v", i, v, err)
		}
		b.sys.Stop(ref) // untimed in the figure: per-recovery times are summed
	}
	f := m.Stop(p.N)
	f.NsPerOp = float64(total.Nanoseconds()) / float64(p.N)
	return f, nil
}

// waitSnapshot waits until entity's snapshot at seq is stored (snapshots
// are saved off the actor's loop, after the reply).
func waitSnapshot(store *jetstream.Store, entity string, seq uint64) error {
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		s, ok, err := store.LoadSnapshot(context.Background(), entity)
		if err != nil {
			return err
		}
		if ok && s.Cursor.Seq == seq {
			return nil
		}
		time.Sleep(time.Millisecond)
	}
	return errors.New("snapshot not saved within a minute")
}

// rawJetStream is the NATS column's set-up: the same embedded server and
// stream as persist/jetstream.Open, and a message as troupe's store wrote
// it for one bench event.
type rawJetStream struct {
	dir  string
	srv  *server.Server
	nc   *nats.Conn
	js   natsjs.JetStream
	data []byte
}

func startRawJetStream() (*rawJetStream, error) {
	r := &rawJetStream{}
	var err error
	if r.dir, err = os.MkdirTemp("", "troupe-bench-rawjs"); err != nil {
		return nil, err
	}
	r.srv, err = server.NewServer(&server.Options{ServerName: "bench-rawjs", DontListen: true, NoLog: true, NoSigs: true, JetStream: true, StoreDir: r.dir})
	if err != nil {
		return nil, err
	}
	r.srv.Start()
	if !r.srv.ReadyForConnections(30 * time.Second) {
		return nil, errors.New("nats-server not ready")
	}
	if r.nc, err = nats.Connect("", nats.InProcessServer(r.srv)); err != nil {
		return nil, err
	}
	if r.js, err = natsjs.New(r.nc, natsjs.WithPublishAsyncMaxPending(jetstream.DefaultMaxPending)); err != nil {
		return nil, err
	}
	// troupe's store creates the stream and writes one event; its bytes
	// are what the raw publishes send.
	store, err := jetstream.Connect(r.nc)
	if err != nil {
		return nil, err
	}
	reg := wire.NewRegistry()
	if err := wire.Register[benchEvent](reg, "bench.event"); err != nil {
		return nil, err
	}
	pl, err := persist.NewSchema(reg).Encode(benchEvent{1})
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	if _, err := store.Append(ctx, "sample", persist.Cursor{}, []persist.Event{{Seq: 1, Payload: pl}}); err != nil {
		return nil, err
	}
	st, err := r.js.Stream(ctx, jetstream.DefaultName+"_EVENTS")
	if err != nil {
		return nil, err
	}
	msg, err := st.GetLastMsgForSubject(ctx, jetstream.DefaultName+".events.sample")
	if err != nil {
		return nil, err
	}
	r.data = msg.Data
	return r, nil
}

func (r *rawJetStream) stop() {
	r.nc.Close()
	r.srv.Shutdown()
	r.srv.WaitForShutdown()
	_ = os.RemoveAll(r.dir)
}

// msg is the sample addressed to entity's subject, with the headers
// troupe's store sets (expected last subject sequence, message id).
func (r *rawJetStream) msg(entity string, i int, last uint64) (*nats.Msg, []natsjs.PublishOpt) {
	m := nats.NewMsg(jetstream.DefaultName + ".events." + entity)
	m.Data = r.data
	return m, []natsjs.PublishOpt{
		natsjs.WithExpectLastSequencePerSubject(last),
		natsjs.WithMsgID(entity + ":" + strconv.Itoa(i) + ":" + strconv.FormatUint(last, 10) + ":0123456789abc"),
	}
}

// rawJetStreamPublish: p.N sequential publish-with-ack of the sample.
func rawJetStreamPublish(p Params) (measure.Figures, error) {
	r, err := startRawJetStream()
	if err != nil {
		return measure.Figures{}, err
	}
	defer r.stop()
	ctx := context.Background()
	lat := make([]time.Duration, p.N)
	var last uint64
	m := measure.Start()
	for i := range lat {
		t := time.Now()
		msg, opts := r.msg("account/0", i, last)
		ack, err := r.js.PublishMsg(ctx, msg, opts...)
		lat[i] = time.Since(t)
		if err != nil {
			return measure.Figures{}, fmt.Errorf("publish %d: %w", i, err)
		}
		last = ack.Sequence
	}
	return quantileFigures(m.Stop(p.N), lat, 0.50), nil
}

// rawJetStreamAsync: p.N async publishes of the sample over p.Actors
// subjects, until every ack. Each subject's expected last sequence is
// left out: with many in flight per subject it is not known when
// publishing, and the check costs the server nothing measurable.
func rawJetStreamAsync(p Params) (measure.Figures, error) {
	r, err := startRawJetStream()
	if err != nil {
		return measure.Figures{}, err
	}
	defer r.stop()
	actors := max(p.Actors, 1)
	n := p.N / actors * actors
	m := measure.Start()
	for i := range n {
		msg := nats.NewMsg(jetstream.DefaultName + ".events.account/" + strconv.Itoa(i%actors))
		msg.Data = r.data
		for {
			_, err := r.js.PublishMsgAsync(msg, natsjs.WithMsgID(strconv.Itoa(i)))
			if err == nil {
				break
			}
			// The window of unacknowledged publishes stayed full past
			// the stall wait (a loaded machine): publish again.
			if !errors.Is(err, natsjs.ErrTooManyStalledMsgs) {
				return measure.Figures{}, err
			}
		}
	}
	select {
	case <-r.js.PublishAsyncComplete():
	case <-time.After(5 * time.Minute):
		return measure.Figures{}, errors.New("acks not all in after 5 minutes")
	}
	return m.Stop(n), nil
}

// plainCounter is persist_idle_actor's plain actor: the same int64 state
// as the bench's event-sourced counter, in memory only.
type plainCounter struct{ n int64 }

func (a *plainCounter) Receive(_ *actor.Context, msg any) (any, error) {
	if d, ok := msg.(int64); ok {
		a.n += d
	}
	return a.n, nil
}

// troupePersistIdle: p.N plain counters, then p.N event-sourced counters
// on the in-memory store, each recovered from one event; each has
// answered one ask, then idles. The figure is the event-sourced actor's
// bytes minus the plain one's.
func troupePersistIdle(p Params) (measure.Figures, error) {
	sys, err := troupeActorSystem()
	if err != nil {
		return measure.Figures{}, err
	}
	defer troupeActorShutdown(sys)
	store := persist.NewMemoryStore()
	reg := wire.NewRegistry()
	if err := wire.Register[benchEvent](reg, "bench.event"); err != nil {
		return measure.Figures{}, err
	}
	schema := persist.NewSchema(reg)
	def := &persist.EventSourced[int64, int64, benchEvent]{
		Store: store, Schema: schema,
		Command: func(c *persist.Command[int64, benchEvent], n int64) (any, error) {
			if n == 0 {
				return c.State(), nil
			}
			return c.Persist(benchEvent{n}), nil
		},
		Apply: func(s int64, e benchEvent) int64 { return s + e.N },
	}
	durable, err := def.Factory()
	if err != nil {
		return measure.Figures{}, err
	}
	pl, err := schema.Encode(benchEvent{1})
	if err != nil {
		return measure.Figures{}, err
	}
	for i := range p.N + 1 { // each entity's journal holds one event
		ev := []persist.Event{{Payload: pl, Seq: 1}}
		if _, err := store.Append(context.Background(), "durable/"+strconv.Itoa(i-1), persist.Cursor{}, ev); err != nil {
			return measure.Figures{}, err
		}
	}
	plain := func() actor.Actor { return &plainCounter{} }
	// bytes per actor of kind, p.N of them, each asked once (0: read).
	perActor := func(kind string, f actor.Factory) (measure.Figures, error) {
		if _, err := sys.Spawn(kind, "-1", f); err != nil { // warm-up
			return measure.Figures{}, err
		}
		refs := make([]actor.Ref, p.N)
		time.Sleep(idleSettle)
		before := measure.TakeFootprint()
		m := measure.Start()
		for i := range refs {
			if refs[i], err = sys.Spawn(kind, strconv.Itoa(i), f); err != nil {
				return measure.Figures{}, err
			}
			if _, err := actor.Ask[int64](context.Background(), sys, refs[i], int64(0)); err != nil {
				return measure.Figures{}, err
			}
		}
		spawned := m.Stop(p.N)
		time.Sleep(idleSettle)
		fig := measure.PerItem(before, measure.TakeFootprint(), p.N)
		fig.NsPerOp, fig.CPUNsPerOp, fig.AllocsPerOp = spawned.NsPerOp, spawned.CPUNsPerOp, spawned.AllocsPerOp
		runtime.KeepAlive(refs)
		return fig, nil
	}
	pf, err := perActor("plain", plain)
	if err != nil {
		return measure.Figures{}, err
	}
	df, err := perActor("durable", durable)
	if err != nil {
		return measure.Figures{}, err
	}
	fig := df
	fig.BytesPerOp = df.BytesPerOp - pf.BytesPerOp
	fig.Note = fmt.Sprintf("memory is the event-sourced actor's %.0f B minus the plain actor's %.0f B; time, CPU and allocations are the event-sourced actors' spawn, recovery and ask", df.BytesPerOp, pf.BytesPerOp)
	return fig, nil
}
