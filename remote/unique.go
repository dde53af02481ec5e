package remote

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/nats-io/nats.go"
	"go.uber.org/zap"

	"github.com/troupe-go/troupe/remote/wire"
)

// uniqueWait bounds how long Start waits to learn whether another node
// of its name is running; both answers usually come within a round trip.
const uniqueWait = 5 * time.Second

// checkUnique refuses to start a second node of a name: before this node
// subscribes to its own subjects, it pings its own frame subject. If no
// node of its name is on the network, the server answers that nobody
// listens; if one is, that node answers with a heartbeat naming this
// one's incarnation, and Start fails with ErrDuplicateNode. Should
// neither come within uniqueWait (a node that died an instant ago, whose
// link the server has not dropped yet), Start goes ahead.
func (n *Node) checkUnique() error {
	answers := make(chan *nats.Msg, 16)
	reply := n.noResp + ".u" + strconv.FormatUint(rand.Uint64(), 36)
	var subs []*nats.Subscription
	defer func() {
		for _, s := range subs {
			_ = s.Unsubscribe()
		}
	}()
	for _, subj := range []string{reply, n.hb} {
		s, err := n.nc.ChanSubscribe(subj, answers)
		if err != nil {
			return fmt.Errorf("remote: subscribe %s: %w", subj, err)
		}
		subs = append(subs, s)
	}
	if err := n.pingNamesakes(reply); err != nil {
		return fmt.Errorf("remote: check name: %w", err)
	}
	deadline := time.NewTimer(uniqueWait)
	defer deadline.Stop()
	for {
		select {
		case m := <-answers:
			if m.Subject == reply {
				return nil // no responders: nobody else has this name
			}
			if inc, _, ok := n.namesakeAnswer(m); ok {
				return fmt.Errorf("%w: %s (incarnation %x)", ErrDuplicateNode, n.name, inc)
			}
		case <-deadline.C:
			n.log.Warn("remote: could not tell whether another node has this name", zap.Duration("waited", uniqueWait))
			return nil
		}
	}
}

// pingNamesakes pings this node's own frame subject, which only a node of
// the same name serves besides this one: one that is live answers with a
// heartbeat naming this node's incarnation (answerNamesake). reply, if
// not empty, is where the server says that nobody listens.
func (n *Node) pingNamesakes(reply string) error {
	subject := frameSubject(n.name, n.name)
	data := wire.AppendFrame(nil, &wire.Envelope{Kind: wire.KindPing, Node: n.name, Corr: n.inc})
	if n.sign != nil {
		data = n.sign.sealSig(nil, subject, 1, data)
	}
	return n.nc.PublishMsg(&nats.Msg{Subject: subject, Reply: reply, Data: data})
}

// Headers of a heartbeat that answers the ping of a node of the same
// name: the pinger's incarnation, in hex, and the answerer's start, Unix
// ns. Only that answer counts: a heartbeat of an earlier run of the name
// still in flight when a node restarts must not stop it, and a captured
// one names an incarnation that is not this one.
const (
	namesakeHeader = "troupe-namesake"
	startHeader    = "troupe-start"
)

// namesakeAnswer returns the incarnation and start of the node of this
// node's name that answered this incarnation's ping with m; ok is false
// if m is not that answer (or, with signing, not signed by the name's
// key).
func (n *Node) namesakeAnswer(m *nats.Msg) (other uint64, start int64, ok bool) {
	data := m.Data
	if n.sign != nil {
		var err error
		if data, _, err = n.sign.openBroadcast(m.Subject, n.name, m.Data); err != nil {
			return 0, 0, false
		}
	}
	return namesakeAnswer(data, n.name, n.inc)
}

// namesakeAnswer returns the incarnation and start of the node named name
// whose heartbeat frame answers the ping of incarnation inc.
func namesakeAnswer(frame []byte, name string, inc uint64) (other uint64, start int64, ok bool) {
	want := strconv.FormatUint(inc, 16)
	_ = wire.ReadFrame(frame, 0, func(e *wire.Envelope) error {
		if e.Kind != wire.KindHeartbeat || e.Node != name || e.Corr == inc || e.Corr == 0 {
			return nil
		}
		answers := false
		var at int64
		for _, h := range e.Headers {
			switch h.Key {
			case namesakeHeader:
				answers = h.Value == want
			case startHeader:
				at, _ = strconv.ParseInt(h.Value, 10, 64)
			}
		}
		if answers {
			other, start, ok = e.Corr, at, true
		}
		return nil
	})
	return other, start, ok
}

// answerNamesake answers the ping of incarnation inc of a node of this
// node's name, starting or live, with a heartbeat that names it: a
// starting one then refuses to start, a live one compares starts
// (duplicateMet).
func (n *Node) answerNamesake(inc uint64) {
	if inc == n.inc || inc == 0 || n.left() {
		return // a node leaving keeps the name from nobody
	}
	n.publishControl(n.hb, &wire.Envelope{Kind: wire.KindHeartbeat, Node: n.name, Corr: n.inc,
		Headers: []wire.Header{
			{Key: namesakeHeader, Value: strconv.FormatUint(inc, 16)},
			{Key: startHeader, Value: strconv.FormatInt(n.start, 10)},
		}})
	if _, seen := n.namesakes.LoadOrStore(inc, struct{}{}); !seen {
		n.log.Error("remote: another node of this node's name asked whether the name is taken (it is starting, or the two met after a split): it is told so",
			zap.String("node", n.name), zap.String("incarnation", strconv.FormatUint(inc, 16)))
	}
}

// onNamesakeHeartbeat handles a heartbeat of another incarnation of this
// node's name: an answer to this node's ping decides which of the two
// leaves; any other asks it to prove that it is live (a captured
// heartbeat replayed proves nothing), with a ping of this node's own
// subject that only a live namesake answers.
func (n *Node) onNamesakeHeartbeat(frame []byte) {
	if other, start, ok := namesakeAnswer(frame, n.name, n.inc); ok {
		n.duplicateMet(other, start)
		return
	}
	var other uint64
	_ = wire.ReadFrame(frame, 0, func(e *wire.Envelope) error {
		if e.Kind == wire.KindHeartbeat && e.Corr != n.inc {
			other = e.Corr
		}
		return nil
	})
	if other == 0 || n.refusing.Load() || n.left() {
		return
	}
	if err := n.pingNamesakes(""); err != nil {
		n.log.Warn("remote: could not ask a node of this node's name whether it is live", zap.Error(err))
	}
}

// duplicateMet settles which of this node and incarnation other of its
// name, which started at start, keeps the name: the one that started
// first. The other leaves the network (fail).
func (n *Node) duplicateMet(other uint64, start int64) {
	younger := n.start > start || n.start == start && n.inc > other
	if !younger {
		if _, seen := n.namesakes.LoadOrStore(duplicateKey{other}, struct{}{}); !seen {
			n.log.Error("remote: a live node of this node's name, started later, met this one: it leaves the network, this one keeps serving",
				zap.String("node", n.name), zap.String("incarnation", strconv.FormatUint(other, 16)))
		}
		return
	}
	if !n.refusing.CompareAndSwap(false, true) {
		return
	}
	err := fmt.Errorf("%w: %s: a node of this name started earlier (incarnation %x) is live; this one (%x) left the network",
		ErrDuplicateNode, n.name, other, n.inc)
	n.log.Error("remote: this node leaves the network: node names must be unique", zap.Error(err))
	go n.fail(err)
}

// left reports whether the node has left the network (Close, Kill or
// fail began).
func (n *Node) left() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.closed
}

// duplicateKey marks, among namesakes, a namesake found younger.
type duplicateKey struct{ inc uint64 }

// fail takes the node off the network on its own, for err: as Kill, but
// it says goodbye, so that the other nodes let go of this incarnation at
// once (a goodbye names its incarnation: they keep the live namesake).
// Runs on a goroutine of its own: it waits for the inbound handlers, one
// of which called it.
func (n *Node) fail(err error) {
	if !n.leave(err) {
		return // closed meanwhile
	}
	n.publishControl(n.hb, &wire.Envelope{Kind: wire.KindBye, Node: n.name, Corr: n.inc})
	n.workers.Wait()
	_ = n.nc.FlushTimeout(time.Second)
	n.mu.Lock()
	n.failed = err
	n.mu.Unlock()
	n.shutdownConn()
	close(n.done)
}
