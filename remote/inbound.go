package remote

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"go.uber.org/zap"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/internal/remotehook"
	"github.com/troupe-go/troupe/remote/wire"
)

// inbound is what the goroutine handling frames (onMessage) remembers
// from one envelope to the next: envelopes of a batch mostly share their
// type and target, so each is looked up or hashed once per run.
type inbound struct {
	dec   wire.Decoding
	to    wire.Ref
	toRef actor.Ref
	// The run of tells to one actor read so far from the frame, not yet
	// delivered: delivered as one batch (one lock, one wake-up of the
	// actor's loop) when the frame ends or an envelope of another kind or
	// for another actor comes. Their envelopes are kept for the notice of
	// one not delivered; their bodies alias the frame, which is this
	// goroutine's until onMessage returns.
	// from is the node that sent the frame being read, named by its
	// subject; anyOnly that it was signed for any receiver, not sealed
	// for this node's incarnation: it may hold pings only.
	from    string
	anyOnly bool
	macBuf  macBuf // with signing
	batchTo actor.Ref
	msgs    []any
	tells   []pendingTell
	// The handler of the last kind a tell went to (see tellHandler),
	// from the table handlers.
	handlers    *tellHandlers
	handlerKind string
	handler     remotehook.TellHandler
}

// pendingTell is what refusing a batched tell needs of its envelope.
type pendingTell struct {
	node string
	to   wire.Ref
	typ  string
	body []byte
}

// ref returns the actor ref of r.
func (in *inbound) ref(r wire.Ref) actor.Ref {
	if r != in.to || in.toRef.IsZero() {
		in.to, in.toRef = r, actorRef(r)
	}
	return in.toRef
}

// onMessage handles what arrives on this node's subjects: a frame from
// another node, on troupe.<this>.$n.<from>, or a no-responders status for
// a frame this node sent, on troupe.<this>.$nr.<seq>. It runs on the
// subscription's goroutine, one message at a time, so frames are handled
// in arrival order.
func (n *Node) onMessage(m *nats.Msg) {
	rest, _ := strings.CutPrefix(m.Subject, n.prefix)
	if seq, ok := strings.CutPrefix(rest, noRespToken+"."); ok {
		if len(m.Data) != 0 || m.Header.Get("Status") != "503" {
			n.reject(m.Subject, fmt.Errorf("%w: not a no-responders status", ErrRejected))
			return
		}
		n.noResponders(m.Header.Get("Nats-Subject"), seq)
		return
	}
	from, ok := strings.CutPrefix(rest, frameToken+".")
	if !ok {
		n.reject(m.Subject, fmt.Errorf("%w: not a frame subject", ErrRejected))
		return
	}
	var err error
	if n.in.from, err = DecodeToken(from); err != nil || n.in.from == "" {
		n.reject(m.Subject, fmt.Errorf("%w: sender %q: %w", ErrRejected, from, err))
		return
	}
	n.stats.framesReceived.Add(1)
	frame := m.Data
	n.in.anyOnly = false
	if n.sign != nil {
		if len(m.Data) > n.cfg.maxFrame {
			n.reject(m.Subject, fmt.Errorf("%w: %w: sealed frame of %d bytes, limit %d", ErrRejected, wire.ErrTooLarge, len(m.Data), n.cfg.maxFrame))
			return
		}
		if frame, n.in.anyOnly, err = n.sign.openFrame(m.Subject, n.in.from, m.Data, &n.in.macBuf); err != nil {
			n.refuseUnsigned(m.Data, n.in.from, "frames")
			n.reject(m.Subject, fmt.Errorf("%w: %w", ErrRejected, err))
			return
		}
	} else if sealed(m.Data) {
		n.reject(m.Subject, fmt.Errorf("%w: %w: signed frame from node %q, and this node does not sign (WithSigning)", ErrRejected, ErrSignature, n.in.from))
		return
	}
	err = wire.ReadFrame(frame, n.cfg.maxFrame, n.handle)
	n.flushTells()
	if err != nil {
		n.reject(m.Subject, err)
	}
}

// flushTells delivers the batch of tells gathered so far.
func (n *Node) flushTells() {
	in := &n.in
	if len(in.msgs) == 0 {
		return
	}
	n.host.DeliverBatch(in.batchTo, in.msgs, func(i int, err error) {
		t := in.tells[i]
		n.refuse(&wire.Envelope{Kind: wire.KindTell, Node: t.node, To: t.to, Type: t.typ, Body: t.body}, err)
	})
	clear(in.msgs)
	clear(in.tells)
	in.msgs, in.tells = in.msgs[:0], in.tells[:0]
}

// reject counts and logs a refused frame or envelope. Logging is
// sampled, so that a flood of junk is not a flood of log lines: the first
// ten, then one in a thousand, each with the count so far.
func (n *Node) reject(subject string, err error) {
	k := n.stats.rejected.Add(1)
	if k <= 10 || k%1000 == 0 {
		n.log.Warn("remote: rejected inbound frame", zap.String("subject", subject), zap.Uint64("rejected", k), zap.Error(err))
	}
}

// handle acts on one inbound envelope. Tells are gathered into batches
// (onTell); anything else first delivers the batch, so that what one
// sender sent keeps its order.
func (n *Node) handle(e *wire.Envelope) error {
	if e.Kind != wire.KindTell {
		n.flushTells()
	}
	if e.Node != n.in.from {
		// Nothing is sent back: the claimed node did not send it.
		n.reject(frameSubject(n.name, n.in.from), fmt.Errorf("%w: %s claiming to come from %q", ErrRejected, e.Kind, e.Node))
		return nil
	}
	if n.in.anyOnly && e.Kind != wire.KindPing {
		n.reject(frameSubject(n.name, n.in.from), fmt.Errorf("%w: %w: %s in a frame not sealed for this node", ErrRejected, ErrSignature, e.Kind))
		return nil
	}
	for _, r := range [...]wire.Ref{e.To, e.From} {
		if err := checkRef(r); err != nil {
			n.reject(nodeSubject(n.name, ""), fmt.Errorf("%w: %s: %w", ErrRejected, e.Kind, err))
			return nil
		}
	}
	if err := n.checkOrigin(e); err != nil {
		n.reject(frameSubject(n.name, e.Node), err)
		switch e.Kind {
		case wire.KindWatch, wire.KindSpawn:
			n.refuse(e, fmt.Errorf("%w: %w", actor.ErrNotFound, err))
		}
		return nil
	}
	switch e.Kind {
	case wire.KindTell, wire.KindAsk, wire.KindWatch, wire.KindUnwatch, wire.KindSpawn:
		if e.To.System != n.name || e.Node == "" {
			err := fmt.Errorf("%w: %s for %q from %q: not this node", ErrRejected, e.Kind, e.To.System, e.Node)
			n.reject(nodeSubject(n.name, ""), err)
			n.refuse(e, fmt.Errorf("%w: %w", actor.ErrNotFound, err))
			return nil
		}
	}
	switch e.Kind {
	case wire.KindTell:
		n.onTell(e)
	case wire.KindAsk:
		n.onAsk(e)
	case wire.KindReply:
		n.onReply(e)
	case wire.KindNotice:
		n.onNotice(e)
	case wire.KindWatch:
		n.host.WatchFor(actorRef(e.From), actorRef(e.To))
	case wire.KindUnwatch:
		n.host.UnwatchFor(actorRef(e.From), actorRef(e.To))
	case wire.KindTerminated:
		n.endWatch(actorRef(e.To), actorRef(e.From), n.decodeError(e.Node, e.Err))
	case wire.KindSpawn:
		n.onSpawn(e)
	case wire.KindPing:
		// Delivered: this node is here, which is all a ping asks. One in
		// this node's name comes from a node starting under it.
		if e.Node == n.name {
			n.answerNamesake(e.Corr)
		}
	default:
		n.reject(nodeSubject(n.name, ""), fmt.Errorf("%w: unexpected %s", ErrRejected, e.Kind))
	}
	return nil
}

// checkOrigin reports why e, from a node that sent it (its subject named
// it), must not be obeyed: control traffic about an actor comes from the
// node hosting it, and a spawn or a watch only from a node this one has
// heard (a member).
func (n *Node) checkOrigin(e *wire.Envelope) error {
	switch e.Kind {
	case wire.KindWatch, wire.KindUnwatch:
		if e.From.System != e.Node {
			return fmt.Errorf("%w: %s for a watcher on %q from node %q", ErrRejected, e.Kind, e.From.System, e.Node)
		}
	case wire.KindTerminated:
		if e.From.System != e.Node {
			return fmt.Errorf("%w: terminated of an actor on %q from node %q", ErrRejected, e.From.System, e.Node)
		}
		return nil
	}
	switch e.Kind {
	case wire.KindWatch, wire.KindUnwatch, wire.KindSpawn:
		if !n.member(e.Node) {
			return fmt.Errorf("%w: %s from node %q, which is not a member (not heard, or lost)", ErrRejected, e.Kind, e.Node)
		}
	}
	return nil
}

// member reports whether the node named name is reachable: heard, and not
// lost since.
func (n *Node) member(name string) bool {
	v, ok := n.peers.Load(name)
	if !ok {
		return false
	}
	p := v.(*peer)
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.heard && p.lost == nil
}

// onTell delivers a tell; what cannot be delivered is reported back to
// the sender's node with the message.
func (n *Node) onTell(e *wire.Envelope) {
	n.stats.received.Add(1)
	in := &n.in
	v, err := in.dec.Unmarshal(n.reg, e.Type, e.Body)
	if err != nil {
		n.reject(nodeSubject(n.name, ""), err)
		n.refuse(e, err)
		return
	}
	to := in.ref(e.To)
	if h := n.tellHandler(e.To.Kind); h != nil {
		n.handleTell(h, e, to, v)
		return
	}
	if len(in.msgs) > 0 && to != in.batchTo || len(e.Headers) > 0 {
		n.flushTells()
	}
	if len(e.Headers) > 0 {
		// A tell with a trace context is delivered alone, under it.
		if err := n.deliver(e, to, v, nil); err != nil {
			n.refuse(e, err)
		}
		return
	}
	in.batchTo = to
	in.msgs = append(in.msgs, v)
	in.tells = append(in.tells, pendingTell{node: e.Node, to: e.To, typ: e.Type, body: e.Body})
}

// onAsk delivers an ask; the reply travels back to the asking node.
func (n *Node) onAsk(e *wire.Envelope) {
	n.stats.received.Add(1)
	v, err := n.in.dec.Unmarshal(n.reg, e.Type, e.Body)
	if err != nil {
		n.reject(nodeSubject(n.name, ""), err)
		n.refuse(e, err)
		return
	}
	origin, corr, to := e.Node, e.Corr, n.in.ref(e.To)
	_ = n.deliver(e, to, v, func(v any, err error) { n.sendReply(origin, corr, v, err) })
}

// refuse tells the sending node that e was not handled, and why: an ask
// or spawn fails, a tell comes back as a notice (to dead letters there),
// a watch ends at once.
func (n *Node) refuse(e *wire.Envelope, err error) {
	switch e.Kind {
	case wire.KindAsk, wire.KindSpawn:
		n.sendReply(e.Node, e.Corr, nil, err)
	case wire.KindTell:
		notice := wire.Envelope{Kind: wire.KindNotice, Node: n.name, To: e.To, Type: e.Type, Body: e.Body, Err: n.encodeError(err)}
		_ = n.control(e.Node, &notice) // the sender's node is gone: nobody to tell
	case wire.KindWatch:
		t := wire.Envelope{Kind: wire.KindTerminated, Node: n.name, To: e.From, From: e.To, Err: n.encodeError(err)}
		_ = n.control(e.Node, &t)
	}
}

// sendReply sends the outcome of an ask to the asking node. May run on an
// actor's loop: it does not wait for room. A reply that cannot be sent
// (too large for a frame, say) is replaced by an error reply saying why,
// so that the asker does not wait for its deadline.
func (n *Node) sendReply(origin string, corr uint64, v any, err error) {
	r := wire.Envelope{Kind: wire.KindReply, Node: n.name, Corr: corr}
	if err == nil {
		r.Type, r.Body, err = n.reg.Marshal(nil, v)
	}
	r.Err = n.encodeError(err)
	err = n.control(origin, &r)
	if err == nil {
		return
	}
	n.log.Warn("remote: reply not sent", zap.String("node", origin), zap.Error(err))
	if r.Err != nil || errors.Is(err, ErrUnreachable) || errors.Is(err, ErrClosed) || errors.Is(err, ErrOverloaded) {
		return // an error reply already, nobody to reach, or no room for one either
	}
	r.Type, r.Body, r.Err = "", nil, n.encodeError(fmt.Errorf("remote: reply from node %s not sent: %w", n.name, err))
	if err := n.control(origin, &r); err != nil {
		n.log.Warn("remote: error reply not sent", zap.String("node", origin), zap.Error(err))
	}
}

// onReply settles the ask the reply belongs to.
func (n *Node) onReply(e *wire.Envelope) {
	a := n.takeReply(e.Corr, e.Node)
	if a == nil {
		n.stats.lateReplies.Add(1)
		return
	}
	if e.Err != nil {
		a.settle(nil, n.decodeError(e.Node, e.Err))
		return
	}
	v, err := n.reg.Unmarshal(e.Type, e.Body)
	a.settle(v, err)
}

// onNotice sends a tell the other node could not deliver to dead letters.
func (n *Node) onNotice(e *wire.Envelope) {
	v, err := n.reg.Unmarshal(e.Type, e.Body)
	if err != nil {
		v = e.Body
	}
	n.host.DeadLetter(actorRef(e.To), v, n.decodeError(e.Node, e.Err))
}

// noResponders handles the server's word that nobody listened on subject
// when the frame numbered seq (text) reached it: its node is not on the
// network, and the frame's messages go to dead letters. A status is
// obeyed only for a frame this node sent: on the subject of its frames to
// that node, with a number it gave one of them.
func (n *Node) noResponders(subject, seqText string) {
	node, from, ok := parseFrameSubject(subject)
	seq, err := strconv.ParseUint(seqText, 10, 64)
	if !ok || err != nil || from != n.name {
		n.reject(subject, fmt.Errorf("%w: no-responders status for %q, not a subject of this node's frames", ErrRejected, subject))
		return
	}
	v, ok := n.peers.Load(node)
	if !ok {
		n.reject(subject, fmt.Errorf("%w: no-responders status for node %s, never sent to", ErrRejected, node))
		return
	}
	frame, sent := v.(*peer).takeSent(seq)
	if !sent {
		n.reject(subject, fmt.Errorf("%w: no-responders status for frame %d to node %s, never sent", ErrRejected, seq, node))
		return
	}
	why := fmt.Errorf("%w: node %s: no responders (%w)", ErrUnreachable, node, actor.ErrNotFound)
	n.lose(node, why)
	if frame == nil {
		n.stats.unconfirmed.Add(1)
		n.log.Warn("remote: a frame was not delivered and is no longer held: its messages are lost",
			zap.String("node", node), zap.String("subject", subject))
		return
	}
	n.undeliverable(node, frame, why)
}

// lose marks the node named name unreachable: what was queued for it goes
// to dead letters, its asks fail, and local watchers of its actors get
// Terminated, all with why.
func (n *Node) lose(name string, why error) {
	p := n.peer(name)
	dropped := p.markLost(why)
	for _, f := range dropped {
		n.undeliverable(name, f, why)
	}
	n.mu.Lock()
	var asks []*pendingAsk
	for corr, a := range n.asks {
		if a.node == name {
			asks = append(asks, a)
			delete(n.asks, corr)
		}
	}
	watches := n.watches[name]
	delete(n.watches, name)
	n.mu.Unlock()
	if len(dropped)+len(asks)+len(watches) > 0 || errors.Is(why, errNoHeartbeat) {
		n.log.Info("remote: node lost", zap.String("node", name), zap.Error(why))
	}
	for _, a := range asks {
		a.settle(nil, why)
	}
	for w := range watches {
		n.host.DeliverTerminated(w.watcher, actor.Terminated{Actor: w.target, Reason: why})
	}
}

// undeliverable sends the messages of a frame that will not reach the
// node named to dead letters. Asks among them settle through lose.
func (n *Node) undeliverable(to string, frame []byte, why error) {
	_ = wire.ReadFrame(frame, 0, func(e *wire.Envelope) error {
		if e.Kind == wire.KindTell || e.Kind == wire.KindAsk {
			v, err := n.reg.Unmarshal(e.Type, e.Body)
			if err != nil {
				v = append([]byte(nil), e.Body...)
			}
			n.host.DeadLetter(actorRef(e.To), v, why)
		}
		if e.Kind == wire.KindAsk {
			if a := n.takeAsk(e.Corr); a != nil {
				a.settle(nil, why)
			}
		}
		return nil
	})
}

var errNoHeartbeat = errors.New("no heartbeat")

// forgetAfter is how many heartbeat limits a lost peer is kept.
const forgetAfter = 10

// heartbeat announces this node and finds nodes that went silent, until
// the node closes.
func (n *Node) heartbeat() {
	defer n.workers.Done()
	t := time.NewTicker(n.cfg.heartbeat)
	defer t.Stop()
	limit := n.cfg.heartbeat * time.Duration(n.cfg.missed)
	for {
		n.announce()
		select {
		case <-n.stop:
			return
		case now := <-t.C:
			for _, p := range n.peerList() {
				if p.name == n.name {
					// Replies to an envelope claiming this node as its
					// origin make a peer of itself, whose heartbeats it
					// ignores: not a reason to lose itself.
					continue
				}
				if p.overdue(now, limit) {
					n.lose(p.name, fmt.Errorf("%w: node %s: %w for %s", ErrUnreachable, p.name, errNoHeartbeat, limit))
				} else if p.overdue(now, suspectAfter*n.cfg.heartbeat) {
					n.probe(p)
				}
				if p.stale(now, forgetAfter*limit) {
					// A later send makes a fresh peer, which the server's
					// no-responders status or a heartbeat sorts out.
					n.peers.CompareAndDelete(p.name, p)
				}
			}
		}
	}
}

// suspectAfter is how many heartbeat intervals of silence make a peer
// suspect: the node then pings it every interval until it is heard again
// or lost.
const suspectAfter = 2

// probe pings a silent peer (a signing node, one it has not heard yet:
// see peer.pingUnheard). A node that crashed or was cut off has no
// subscription left on the network, so the server answers the ping with
// no responders and the peer is lost at once, however many heartbeats
// WithHeartbeat lets it miss: a crash is found in about suspectAfter
// intervals, while a live node that is slow to announce itself (a loaded
// machine) is lost only when the full allowance is spent.
func (n *Node) probe(p *peer) {
	if n.sign != nil && !p.hasSession() {
		p.pingUnheard()
		return
	}
	_ = p.enqueue(&wire.Envelope{Kind: wire.KindPing, Node: n.name})
}

func (n *Node) peerList() []*peer {
	var ps []*peer
	n.peers.Range(func(_, p any) bool {
		ps = append(ps, p.(*peer))
		return true
	})
	return ps
}

// publishControl publishes a one-envelope frame at once, outside the
// queues, signed if the node signs: heartbeats and goodbyes.
func (n *Node) publishControl(subject string, e *wire.Envelope) {
	data := wire.AppendFrame(nil, e)
	if n.sign != nil {
		data = n.sign.sealBroadcast(subject, data)
	}
	_ = n.nc.Publish(subject, data)
}

// announce publishes this node's heartbeat, with its incarnation.
func (n *Node) announce() {
	n.publishControl(n.hb, &wire.Envelope{Kind: wire.KindHeartbeat, Node: n.name, Corr: n.inc})
}

// onHeartbeat records another node's heartbeat or goodbye. A heartbeat
// of a new incarnation is a restart: what was pending with the old one is
// lost, as if its heartbeats had stopped.
func (n *Node) onHeartbeat(m *nats.Msg) {
	from, ok := lastToken(m.Subject)
	if !ok {
		n.reject(m.Subject, fmt.Errorf("%w: heartbeat subject names no node", ErrRejected))
		return
	}
	frame := m.Data
	var inc *incarnation // the signed incarnation it came from; nil unsigned
	if n.sign != nil {
		var err error
		if frame, inc, err = n.sign.openBroadcast(m.Subject, from, m.Data); err != nil {
			n.refuseUnsigned(m.Data, from, "heartbeats")
			n.reject(m.Subject, fmt.Errorf("%w: %w", ErrRejected, err))
			return
		}
	} else if sealed(m.Data) {
		n.signedPeer(from)
		return
	}
	err := wire.ReadFrame(frame, n.cfg.maxFrame, func(e *wire.Envelope) error {
		if e.Node != from {
			return fmt.Errorf("%w: %s of node %q on the heartbeat subject of %q", ErrRejected, e.Kind, e.Node, from)
		}
		if e.Node == n.name {
			if e.Kind == wire.KindHeartbeat {
				n.onNamesakeHeartbeat(frame)
			}
			return nil
		}
		switch e.Kind {
		case wire.KindHeartbeat:
			p := n.peer(e.Node)
			if p.restarted(e.Corr) {
				n.restarted(e.Node, p.heardInc(), e.Corr)
				n.lose(e.Node, fmt.Errorf("%w: node %s restarted", ErrUnreachable, e.Node))
			}
			if p.alive(time.Now(), e.Corr, inc) {
				// Answer a node just (re)met at once, so that it need not
				// wait a heartbeat interval to know this one.
				n.log.Info("remote: node up", zap.String("node", e.Node))
				n.announce()
			}
		case wire.KindBye:
			if inc != nil {
				n.sign.left(inc)
			}
			if n.peer(e.Node).restarted(e.Corr) {
				break // a late goodbye of an earlier run: this one is up
			}
			n.lose(e.Node, fmt.Errorf("%w: node %s left", ErrUnreachable, e.Node))
		}
		return nil
	})
	if err != nil {
		n.reject(m.Subject, err)
	}
}

// refuseUnsigned logs, once per node, that a signing node refuses the
// unsigned traffic (data) of the node named from: it is not configured to
// sign, and cannot join. A forger may send unsigned traffic in any name,
// so it is refused and logged, nothing more.
func (n *Node) refuseUnsigned(data []byte, from, what string) {
	if sealed(data) {
		return
	}
	if _, seen := n.mismatched.LoadOrStore(from, struct{}{}); !seen {
		n.log.Error("remote: refusing unsigned "+what+" of a node: this node requires signed traffic (WithSigning), so that node cannot join",
			zap.String("node", from))
	}
}

// signedPeer handles a signed heartbeat reaching a node that does not
// sign: the node that sent it refuses this one's traffic, so it counts as
// unreachable, with ErrSignature, and sends to it fail at once saying
// why. Logged once per node.
func (n *Node) signedPeer(from string) {
	if from == n.name {
		return
	}
	why := fmt.Errorf("%w: node %s signs its traffic and this node does not (%w): it refuses this node's frames", ErrUnreachable, from, ErrSignature)
	if _, seen := n.mismatched.LoadOrStore(from, struct{}{}); !seen {
		n.log.Error("remote: a node that signs its traffic cannot be reached by this node, which does not (WithSigning)", zap.String("node", from))
	}
	n.lose(from, why)
}
