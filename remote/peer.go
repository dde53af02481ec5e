package remote

import (
	"context"
	"errors"
	"fmt"
	"hash"
	"math/rand/v2"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"go.uber.org/zap"

	"github.com/troupe-go/troupe/remote/wire"
)

// peer is this node's view of another node: the frames queued for it,
// and whether it is reachable.
type peer struct {
	n    *Node
	name string
	// subject is where this node's frames for the peer go:
	// troupe.<peer>.$n.<this node>.
	subject string

	mu       sync.Mutex
	frame    []byte        // the frame being filled: header and envelopes
	count    int           // envelopes in frame
	last     wire.Envelope // routing of the frame's last envelope
	ready    []outFrame
	free     [][]byte // buffers of published frames, for reuse
	queued   int      // bytes in frame and ready
	flushing bool     // a flush goroutine runs
	lost     error    // non-nil while unreachable: why
	lostAt   time.Time
	lastSeen time.Time
	// overloaded is the error of a send refused for a full buffer: made
	// once, as a sender may retry often.
	overloaded error
	up         chan struct{} // closed while reachable and heard from
	heard      bool
	inc        uint64 // the incarnation its heartbeats carry; 0: not heard
	// seq numbers published frames, from a random start; recent holds the
	// last ones, by seq, so that a no-responders status, which names its
	// frame, can send the frame's messages to dead letters. firstSeq is
	// the first number: a status naming none between it and seq names no
	// frame this node sent.
	seq, firstSeq uint64
	recent        [recentFrames]outFrame
	recentBytes   int // bytes of the frames in recent

	// With signing: sess is the peer's incarnation whose session key
	// seals the frames for it (nil until heard: frames wait, and one ping
	// signed for any receiver goes out, pinged). mac, macFor and sealed
	// belong to the flush under way.
	sess   *incarnation
	pinged bool
	mac    hash.Hash
	macFor *incarnation
	macBuf macBuf
	sealed []byte
}

// outFrame is a frame to publish; seq is set when it is.
type outFrame struct {
	data []byte
	seq  uint64
}

// recentFrames is how many published frames a peer keeps for a
// no-responders status to name. Statuses come back within a round trip;
// one for a frame no longer kept is counted (Stats.Unconfirmed) and
// logged.
const recentFrames = 32

// maxRecentBytes bounds the bytes of the frames a peer keeps, however
// large they are: the oldest go first.
const maxRecentBytes = 4 << 20

func newPeer(n *Node, name string) *peer {
	p := &peer{
		n: n, name: name, subject: frameSubject(name, n.name), lastSeen: time.Now(), up: make(chan struct{}),
		overloaded: fmt.Errorf("%w: %d bytes queued for node %s", ErrOverloaded, n.cfg.outboundLimit, name),
		// Unguessable to whoever does not see the frames: forging a
		// status for a frame really sent needs its number.
		seq: rand.Uint64() >> 2,
	}
	p.firstSeq = p.seq + 1
	if n.sign != nil {
		if _, ok := n.sign.trusted[name]; !ok {
			// Nothing it sends would be believed, nor could a frame be
			// sealed for it: sends fail at once, saying why.
			p.lost = fmt.Errorf("%w: node %s has no trusted key (%w)", ErrUnreachable, name, ErrSignature)
			p.lostAt = p.lastSeen
		}
	}
	return p
}

// peer returns the peer named name, making it on first use.
func (n *Node) peer(name string) *peer {
	if p, ok := n.peers.Load(name); ok {
		return p.(*peer)
	}
	p, _ := n.peers.LoadOrStore(name, newPeer(n, name))
	return p.(*peer)
}

// enqueue appends e to the frame being filled and makes sure a flush
// runs. It fails at once if the peer is unreachable, its buffer is full,
// or e alone exceeds a frame.
func (p *peer) enqueue(e *wire.Envelope) error {
	if !p.n.outGate.enter() {
		return fmt.Errorf("%w: %s", ErrClosed, p.n.name)
	}
	defer p.n.outGate.exit()
	start, err := p.add(e)
	if err != nil || !start {
		return err
	}
	// Nothing was in flight. An ask, a reply or control traffic is
	// published on the caller's goroutine: that saves a goroutine start on
	// the latency of a sparse message. Publishing hands the frame to the
	// connection's buffer; only when that buffer is full does it write to
	// the socket, and so wait for it. Tells leave it to a flush goroutine,
	// so that the ones that follow batch up behind it.
	if e.Kind == wire.KindTell || p.flushOnce() {
		p.n.workers.Add(1)
		go p.flush()
	}
	return nil
}

// add appends e to the frame being filled; start reports that no flush
// is running and the caller must start one.
func (p *peer) add(e *wire.Envelope) (start bool, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.lost != nil {
		return false, p.lost
	}
	if p.queued >= p.n.cfg.outboundLimit {
		p.n.stats.overloaded.Add(1)
		return false, p.overloaded
	}
	if len(p.frame) == 0 {
		p.frame = wire.AppendFrameHeader(p.takeSpare())
		p.count = 0
	}
	before := len(p.frame)
	p.frame = wire.AppendEnvelopeAfter(p.frame, e, p.lastOf())
	if len(p.frame) > p.n.frameLimit() {
		// Close the full frame; e starts the next one, in full.
		full := p.frame[:before]
		p.frame = wire.AppendEnvelope(wire.AppendFrameHeader(p.takeSpare()), e)
		if len(p.frame) > p.n.frameLimit() {
			size := len(p.frame) - 1
			p.giveBack(p.frame)
			if p.count == 0 {
				// Nothing else was in it: no frame of a header alone.
				p.giveBack(full)
				full = nil
			}
			p.frame = full
			return false, fmt.Errorf("%w: message of %d bytes, frame limit %d", wire.ErrTooLarge, size, p.n.frameLimit())
		}
		if p.count > 0 {
			p.ready = append(p.ready, outFrame{data: full})
		}
		before = 1
		p.count = 0
	}
	size := len(p.frame) - before
	p.last = wire.Envelope{Node: e.Node, To: e.To, From: e.From, Type: e.Type}
	p.count++
	p.queued += size
	if p.flushing {
		return false, nil
	}
	p.flushing = true
	return true, nil
}

// lastOf returns the envelope the next one in the frame follows, for
// inherited routing, or nil if it is the first.
func (p *peer) lastOf() *wire.Envelope {
	if p.count == 0 {
		return nil
	}
	return &p.last
}

// takeSpare returns a buffer for a new frame: a published frame's, grown
// already, if one is free.
func (p *peer) takeSpare() []byte {
	if k := len(p.free); k > 0 {
		b := p.free[k-1]
		p.free = p.free[:k-1]
		return b[:0]
	}
	return make([]byte, 0, 4096)
}

// giveBack returns a frame buffer no frame uses any more to the spares.
func (p *peer) giveBack(b []byte) {
	if len(p.free) < maxFree {
		p.free = append(p.free, b[:0])
	}
}

// maxFree bounds the published frame buffers a peer keeps.
const maxFree = 4

// flush publishes queued frames until none are left. Messages that pile
// up while it publishes form the next, larger frame: that is the batching.
func (p *peer) flush() {
	defer p.n.workers.Done()
	for p.flushOnce() {
	}
}

// flushOnce publishes the frames queued now and reports whether more were
// queued meanwhile; if not, the flush is over.
func (p *peer) flushOnce() (more bool) {
	var spare [4][]byte
	evicted := spare[:0] // buffers of frames leaving recent, reused once published
	p.mu.Lock()
	if p.n.sign != nil && p.sess == nil {
		// Not heard yet: there is no session to seal frames for it. They
		// wait for its heartbeat (useSession) or its loss; a ping finds a
		// node nobody serves at once.
		p.flushing = false
		ping := !p.pinged
		p.pinged = true
		p.mu.Unlock()
		if ping {
			p.pingUnheard()
		}
		return false
	}
	sess := p.sess
	if sess != nil && p.macFor != sess {
		p.mac, p.macFor = sess.newMAC(), sess
	}
	frames := p.ready
	p.ready = nil
	if len(p.frame) > 0 {
		frames = append(frames, outFrame{data: p.frame})
		p.frame, p.count = nil, 0
	}
	p.queued = 0
	for i := range frames {
		p.seq++
		frames[i].seq = p.seq
		evicted = p.forgetSent(p.seq, evicted) // the slot's previous frame
		p.recent[p.seq%recentFrames] = frames[i]
		p.recentBytes += len(frames[i].data)
		for old := max(p.seq, recentFrames) - recentFrames + 1; p.recentBytes > maxRecentBytes && old < p.seq; old++ {
			evicted = p.forgetSent(old, evicted)
		}
	}
	p.mu.Unlock()
	for _, f := range frames {
		p.publish(f, sess)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, b := range evicted {
		if len(p.free) < maxFree {
			p.free = append(p.free, b)
		}
	}
	more = len(p.frame) > 0 || len(p.ready) > 0
	p.flushing = more
	return more
}

// forgetSent drops the kept frame in the slot of seq, if any, appending
// its buffer to evicted. Under p.mu.
func (p *peer) forgetSent(seq uint64, evicted [][]byte) [][]byte {
	slot := &p.recent[seq%recentFrames]
	if slot.data != nil {
		evicted = append(evicted, slot.data)
		p.recentBytes -= len(slot.data)
	}
	*slot = outFrame{}
	return evicted
}

// takeSent returns the published frame numbered seq, if still kept, and
// forgets it; sent reports whether this node ever published a frame of
// that number to the peer.
func (p *peer) takeSent(seq uint64) (frame []byte, sent bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if seq < p.firstSeq || seq > p.seq {
		return nil, false
	}
	slot := &p.recent[seq%recentFrames]
	if slot.seq != seq || slot.data == nil {
		return nil, true
	}
	data := slot.data
	p.recentBytes -= len(data)
	*slot = outFrame{}
	return data, true
}

// publish hands one frame to the connection, asking the server to say so
// if nobody listens on its subject; with signing, sealed for incarnation
// sess of the peer, its number the counter.
func (p *peer) publish(f outFrame, sess *incarnation) {
	data := f.data
	if sess != nil {
		p.sealed = p.n.sign.sealMAC(p.sealed[:0], p.subject, sess.inc, f.seq, p.mac, &p.macBuf, f.data)
		data = p.sealed
	}
	msg := nats.Msg{Subject: p.subject, Reply: p.n.noResp + "." + strconv.FormatUint(f.seq, 10), Data: data}
	if err := p.n.nc.PublishMsg(&msg); err != nil {
		p.n.log.Warn("remote: publish failed", zap.String("node", p.name), zap.String("subject", p.subject), zap.Error(err))
		p.n.undeliverable(p.name, f.data, fmt.Errorf("%w: node %s: %w", ErrUnreachable, p.name, err))
		return
	}
	p.n.stats.framesSent.Add(1)
}

// hasSession reports whether frames can be sealed for the peer.
func (p *peer) hasSession() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.sess != nil
}

// pingUnheard pings a peer a signing node has not heard yet, signed for
// any receiver (it has no session to seal it for one): if nobody serves
// the peer, the server's no-responders status finds it lost at once,
// with what waits for it.
func (p *peer) pingUnheard() {
	frame := wire.AppendFrame(nil, &wire.Envelope{Kind: wire.KindPing, Node: p.n.name})
	p.mu.Lock()
	p.seq++
	seq := p.seq
	p.forgetSent(seq, nil)
	p.recent[seq%recentFrames] = outFrame{data: frame, seq: seq}
	p.recentBytes += len(frame)
	p.mu.Unlock()
	msg := nats.Msg{Subject: p.subject, Reply: p.n.noResp + "." + strconv.FormatUint(seq, 10),
		Data: p.n.sign.sealSig(nil, p.subject, seq, frame)}
	if err := p.n.nc.PublishMsg(&msg); err == nil {
		p.n.stats.framesSent.Add(1)
	}
}

// markLost records that the peer cannot be reached and returns the frames
// still queued for it, which will not be sent.
func (p *peer) markLost(why error) (dropped [][]byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.lost != nil {
		return nil
	}
	p.lost, p.lostAt = why, time.Now()
	p.sess = nil // a heartbeat says which incarnation comes back
	if p.heard {
		p.up = make(chan struct{})
	}
	for _, f := range p.ready {
		dropped = append(dropped, f.data)
	}
	if len(p.frame) > 0 {
		dropped = append(dropped, p.frame)
	}
	p.ready, p.frame, p.count, p.queued = nil, nil, 0, 0
	return dropped
}

// restarted reports whether a heartbeat of incarnation inc comes from a
// new run of the peer. Nodes of earlier versions send no incarnation (0).
func (p *peer) restarted(inc uint64) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.inc != 0 && inc != 0 && inc != p.inc
}

// alive records a heartbeat of incarnation inc, and with signing the
// incarnation sess it was signed by, whose session seals the frames for
// the peer from now on (set before the peer counts as heard, so that
// nothing sent once it is goes to an earlier incarnation). It reports
// whether that is news: the first heard, or the first since the peer was
// lost.
func (p *peer) alive(now time.Time, inc uint64, sess *incarnation) (news bool) {
	p.mu.Lock()
	p.lastSeen, p.inc = now, inc
	if sess != nil && p.sess != sess {
		p.sess, p.pinged = sess, false
	}
	news = !p.heard || p.lost != nil
	if news {
		close(p.up)
	}
	p.heard, p.lost = true, nil
	held := sess != nil && !p.flushing && (len(p.frame) > 0 || len(p.ready) > 0)
	p.flushing = p.flushing || held
	p.mu.Unlock()
	if held {
		p.flushHeld()
	}
	return news
}

// flushHeld starts a flush of the frames that waited for a session,
// unless the node is leaving.
func (p *peer) flushHeld() {
	if !p.n.outGate.enter() {
		return
	}
	defer p.n.outGate.exit()
	p.n.workers.Add(1)
	go p.flush()
}

// stale reports whether the peer has been lost for longer than limit: it
// holds nothing then (lose settled its asks, watches and queue), and the
// node forgets it, so that peers of nodes gone for good do not pile up.
func (p *peer) stale(now time.Time, limit time.Duration) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.lost != nil && now.Sub(p.lostAt) > limit
}

// overdue reports whether the peer, reachable so far, has been silent for
// longer than limit.
func (p *peer) overdue(now time.Time, limit time.Duration) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.lost == nil && now.Sub(p.lastSeen) > limit
}

// WaitPeer waits until the node named name is reachable: this node has
// heard its heartbeat and not lost it since. Use it before relying on
// another node that is starting up. While it waits it announces this node
// often, so that a node met for the first time answers at once instead of
// at its next heartbeat.
func (n *Node) WaitPeer(ctx context.Context, name string) error {
	retry := time.NewTicker(min(n.cfg.heartbeat, 50*time.Millisecond))
	defer retry.Stop()
	for {
		p := n.peer(name) // anew each time: a peer lost long enough is forgotten
		p.mu.Lock()
		up, ok, lost := p.up, p.heard && p.lost == nil, p.lost
		p.mu.Unlock()
		if ok {
			return nil
		}
		if errors.Is(lost, ErrSignature) {
			return fmt.Errorf("remote: wait for node %s: %w", name, lost)
		}
		n.announce()
		select {
		case <-up:
		case <-retry.C:
		case <-ctx.Done():
			return fmt.Errorf("remote: wait for node %s: %w", name, ctx.Err())
		}
	}
}
