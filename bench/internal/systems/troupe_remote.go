package systems

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/remote"
	"github.com/troupe-go/troupe/remote/wire"

	"github.com/troupe-go/troupe/bench/internal/measure"
)

// troupe's column of the remote suite: two actor systems in two
// processes, each a remote.Node connected to one nats-server over
// loopback TCP; tells through System.Tell, asks through actor.Ask.
func init() {
	troupe.Cases["remote_tell"] = troupeRemoteTell
	troupe.Cases["remote_ask_p50"] = func(p Params) (measure.Figures, error) { return troupeRemoteAsk(p, 0.50) }
	troupe.Cases["remote_ask_p99"] = func(p Params) (measure.Figures, error) { return troupeRemoteAsk(p, 0.99) }
	troupe.Cases["codec"] = troupeCodec
	troupe.Cases["codec_scalars"] = troupeCodecScalars
	troupe.Cases["server_start"] = troupeServerStart
	protoActor.cannotRun("its protobuf codec is not wired into this harness", "codec", "codec_scalars")
	protoActor.cannotRun("Proto.Actor remote has no embedded broker to start", "server_start")
	natsBaseline.cannotRun("plain NATS is the baseline of the ask rows only", "remote_tell", "codec", "codec_scalars", "server_start")
}

// codecMsg is the codec scenario's struct, with the binary codec the
// generator is to emit.
type codecMsg struct {
	N    int64   `wire:"1"`
	S    string  `wire:"2"`
	F    float64 `wire:"3"`
	B    bool    `wire:"4"`
	Data []byte  `wire:"5"`
}

func (m codecMsg) MarshalWire(e *wire.Encoder) {
	e.Int(1, m.N)
	e.String(2, m.S)
	e.Float64(3, m.F)
	e.Bool(4, m.B)
	e.BytesField(5, m.Data)
}

func (m *codecMsg) UnmarshalWire(d *wire.Decoder) error {
	for d.Next() {
		switch d.Field() {
		case 1:
			m.N = d.Int()
		case 2:
			m.S = d.String()
		case 3:
			m.F = d.Float64()
		case 4:
			m.B = d.Bool()
		case 5:
			m.Data = d.Bytes() // aliases the input: the frame outlives the handler call
		default:
			d.Skip()
		}
	}
	return d.Err()
}

// scalarsMsg is the codec_scalars scenario's struct of scalars, with the
// binary codec the generator emits for it.
type scalarsMsg struct {
	ID    int64   `wire:"1"`
	Seq   int64   `wire:"2"`
	Score float64 `wire:"3"`
	OK    bool    `wire:"4"`
	Flags uint32  `wire:"5"`
}

func (m scalarsMsg) MarshalWire(e *wire.Encoder) {
	e.Int(1, m.ID)
	e.Int(2, m.Seq)
	e.Float64(3, m.Score)
	e.Bool(4, m.OK)
	e.Uint(5, uint64(m.Flags))
}

func (m *scalarsMsg) UnmarshalWire(d *wire.Decoder) error {
	for d.Next() {
		switch d.Field() {
		case 1:
			m.ID = d.Int()
		case 2:
			m.Seq = d.Int()
		case 3:
			m.Score = d.Float64()
		case 4:
			m.OK = d.Bool()
		case 5:
			m.Flags = uint32(d.Uint())
		default:
			d.Skip()
		}
	}
	return d.Err()
}

// scalarsValue is the value the codec_scalars scenario encodes.
func scalarsValue() scalarsMsg {
	return scalarsMsg{ID: 1234567, Seq: -42, Score: 3.25, OK: true, Flags: 0x8001}
}

// codecValue is the value the codec scenario encodes.
func codecValue() codecMsg {
	return codecMsg{N: 1234567, S: "sixteen-byte-str", F: 3.25, B: true, Data: make([]byte, 32)}
}

// benchRegistry registers codecMsg as generated registration functions
// do: through wire.RegisterFuncs, with functions calling its codec
// methods directly.
func benchRegistry() *wire.Registry {
	r := wire.NewRegistry()
	err := wire.RegisterFuncs(r, "bench.codecMsg",
		func(buf []byte, m codecMsg) []byte {
			e := wire.NewEncoder(buf)
			m.MarshalWire(e)
			return e.Bytes()
		},
		func(data []byte) (m codecMsg, err error) {
			err = m.UnmarshalWire(wire.NewDecoder(data))
			return
		})
	if err != nil {
		panic(err)
	}
	return r
}

// troupeNode starts system name as a node connected to url.
func troupeNode(name, url string) (*actor.System, *remote.Node, error) {
	sys, err := actor.NewSystem(name, actor.WithAskTimeout(time.Minute))
	if err != nil {
		return nil, nil, err
	}
	n, err := remote.Start(sys, remote.WithURL(url), remote.WithRegistry(benchRegistry()), remote.WithOutboundLimit(64<<20))
	if err != nil {
		return nil, nil, err
	}
	return sys, n, nil
}

func troupeNodeStop(sys *actor.System, n *remote.Node) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_ = n.Close(ctx)
	_ = sys.Shutdown(ctx)
}

// troupePeer is node "b": a sink that counts n tells and then tells
// troupe://a/done/main, and an echo that answers n with n+1.
func troupePeer(url string, n int) error {
	sys, node, err := troupeNode("b", url)
	if err != nil {
		return err
	}
	defer troupeNodeStop(sys, node)
	done := actor.NewRef("a", "done", "main")
	count := 0
	if _, err := sys.Spawn("sink", "main", func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, _ any) (any, error) {
			if count++; count == n {
				return nil, c.Tell(done, int64(count))
			}
			return nil, nil
		})
	}); err != nil {
		return err
	}
	if _, err := sys.Spawn("echo", "main", func() actor.Actor {
		return actor.ActorFunc(func(_ *actor.Context, msg any) (any, error) { return msg.(int64) + 1, nil })
	}); err != nil {
		return err
	}
	waitStdinClosed()
	return nil
}

// troupeRemoteSetup starts the server, node a and the peer process, and
// waits until both nodes see each other.
func troupeRemoteSetup(n int) (sys *actor.System, node *remote.Node, cleanup func(), err error) {
	srv, err := benchServer()
	if err != nil {
		return nil, nil, nil, err
	}
	sys, node, err = troupeNode("a", srv.ClientURL())
	if err != nil {
		srv.Shutdown()
		return nil, nil, nil, err
	}
	peer, err := startPeer("troupe", srv.ClientURL(), n)
	if err != nil {
		troupeNodeStop(sys, node)
		srv.Shutdown()
		return nil, nil, nil, err
	}
	cleanup = func() {
		_ = peer.stop()
		troupeNodeStop(sys, node)
		srv.Shutdown()
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := node.WaitPeer(ctx, "b"); err != nil {
		cleanup()
		return nil, nil, nil, err
	}
	// The peer spawns its actors after joining: ask until the echo is there.
	for {
		if _, err := actor.Ask[int64](ctx, sys, actor.NewRef("b", "echo", "main"), int64(0)); err == nil {
			break
		} else if ctx.Err() != nil {
			cleanup()
			return nil, nil, nil, err
		}
		runtime.Gosched()
	}
	return sys, node, cleanup, nil
}

// troupeRemoteTell: p.N tells of a 64-byte []byte from outside actors on
// node a to the sink on node b; timed until a hears the sink got the last.
// A tell refused with ErrOverloaded (the node's outbound buffer is full)
// is retried after 100 µs: that is the backpressure a sender sees.
func troupeRemoteTell(p Params) (measure.Figures, error) {
	sys, node, cleanup, err := troupeRemoteSetup(p.N)
	if err != nil {
		return measure.Figures{}, err
	}
	defer cleanup()
	finished := make(chan struct{})
	if _, err := sys.Spawn("done", "main", func() actor.Actor {
		return actor.ActorFunc(func(*actor.Context, any) (any, error) { close(finished); return nil, nil })
	}); err != nil {
		return measure.Figures{}, err
	}
	sink := actor.NewRef("b", "sink", "main")
	payload := make([]byte, 64)
	m := measure.Start()
	for i := 0; i < p.N; i++ {
		for {
			err := sys.Tell(sink, payload)
			if err == nil {
				break
			}
			if !errors.Is(err, remote.ErrOverloaded) {
				return measure.Figures{}, err
			}
			time.Sleep(100 * time.Microsecond) // let the node's queue drain
		}
	}
	select {
	case <-finished:
	case <-time.After(2 * time.Minute):
		return measure.Figures{}, fmt.Errorf("sink did not report %d messages", p.N)
	}
	f := m.Stop(p.N)
	st := node.Stats()
	f.Note = fmt.Sprintf("%.1f messages per frame", float64(st.Sent)/float64(max(st.FramesSent, 1)))
	return f, nil
}

// troupeRemoteAsk: p.N sequential asks from outside actors on node a to
// the echo on node b; the time figure is the q quantile of the latencies.
func troupeRemoteAsk(p Params, q float64) (measure.Figures, error) {
	sys, _, cleanup, err := troupeRemoteSetup(0)
	if err != nil {
		return measure.Figures{}, err
	}
	defer cleanup()
	echo := actor.NewRef("b", "echo", "main")
	ctx := context.Background()
	lat := make([]time.Duration, p.N)
	m := measure.Start()
	for i := range lat {
		t := time.Now()
		v, err := actor.Ask[int64](ctx, sys, echo, int64(i))
		lat[i] = time.Since(t)
		if err != nil || v != int64(i)+1 {
			return measure.Figures{}, fmt.Errorf("ask %d: %d, %v", i, v, err)
		}
	}
	return quantileFigures(m.Stop(p.N), lat, q), nil
}

// quantileFigures replaces the mean time in f with the q quantile of lat.
func quantileFigures(f measure.Figures, lat []time.Duration, q float64) measure.Figures {
	slices.Sort(lat)
	mean := f.NsPerOp
	f.NsPerOp = float64(lat[min(len(lat)-1, int(q*float64(len(lat))))].Nanoseconds())
	f.Note = fmt.Sprintf("time is the p%d latency; mean %.0f ns", int(q*100), mean)
	return f
}

// troupeCodec: marshal and unmarshal codecMsg through a registry, p.N
// times, decoding as a node's inbound path does (one wire.Decoding,
// which remembers the last type's codec).
func troupeCodec(p Params) (measure.Figures, error) {
	r := benchRegistry()
	v := codecValue()
	buf := make([]byte, 0, 128)
	var d wire.Decoding
	m := measure.Start()
	for range p.N {
		name, out, err := r.Marshal(buf[:0], v)
		if err != nil {
			return measure.Figures{}, err
		}
		if _, err := d.Unmarshal(r, name, out); err != nil {
			return measure.Figures{}, err
		}
		buf = out
	}
	return m.Stop(p.N), nil
}

// troupeCodecScalars: the codec_scalars scenario's struct through its
// codec methods, as generated code calls them: an Encoder over a reused
// buffer, a Decoder over the bytes, into a value on the stack.
func troupeCodecScalars(p Params) (measure.Figures, error) {
	v := scalarsValue()
	var e wire.Encoder
	var d wire.Decoder
	m := measure.Start()
	for range p.N {
		e.Reset()
		v.MarshalWire(&e)
		d.Reset(e.Bytes())
		var w scalarsMsg
		if err := w.UnmarshalWire(&d); err != nil {
			return measure.Figures{}, err
		}
		if w != v {
			return measure.Figures{}, fmt.Errorf("codec_scalars: decoded %+v, want %+v", w, v)
		}
	}
	return m.Stop(p.N), nil
}

// troupeServerStart: start a node with its embedded nats-server and
// in-process connection, p.N times; only the start is timed.
func troupeServerStart(p Params) (measure.Figures, error) {
	var total time.Duration
	m := measure.Start()
	for range p.N {
		sys, err := actor.NewSystem("start")
		if err != nil {
			return measure.Figures{}, err
		}
		t := time.Now()
		n, err := remote.Start(sys)
		total += time.Since(t)
		if err != nil {
			return measure.Figures{}, err
		}
		troupeNodeStop(sys, n)
	}
	f := m.Stop(p.N)
	f.Note = fmt.Sprintf("start only; %.0f ns per start+stop", f.NsPerOp)
	f.NsPerOp = float64(total.Nanoseconds()) / float64(p.N)
	return f, nil
}
