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
	ping := nats.Msg{Subject: frameSubject(n.name, n.name), Reply: reply,
		Data: wire.AppendFrame(nil, &wire.Envelope{Kind: wire.KindPing, Node: n.name, Corr: n.inc})}
	if err := n.nc.PublishMsg(&ping); err != nil {
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
			if inc := namesakeAnswer(m, n.name, n.inc); inc != 0 {
				return fmt.Errorf("%w: %s (incarnation %x)", ErrDuplicateNode, n.name, inc)
			}
		case <-deadline.C:
			n.log.Warn("remote: could not tell whether another node has this name", zap.Duration("waited", uniqueWait))
			return nil
		}
	}
}

// namesakeHeader is the header of a heartbeat that answers the ping of a
// node starting under the same name: the pinger's incarnation, in hex.
// Only that answer counts: a heartbeat of an earlier run of the name
// still in flight when a node restarts must not stop it.
const namesakeHeader = "troupe-namesake"

// namesakeAnswer returns the incarnation of the node named name that
// answered the ping of incarnation inc, or 0 if m is not that answer.
func namesakeAnswer(m *nats.Msg, name string, inc uint64) (other uint64) {
	want := strconv.FormatUint(inc, 16)
	_ = wire.ReadFrame(m.Data, 0, func(e *wire.Envelope) error {
		if e.Kind != wire.KindHeartbeat || e.Node != name || e.Corr == inc {
			return nil
		}
		for _, h := range e.Headers {
			if h.Key == namesakeHeader && h.Value == want {
				other = e.Corr
			}
		}
		return nil
	})
	return other
}

// onNamesake handles a sign of another node running under this node's
// name: the ping of a node starting under it, which it answers so that
// that node refuses to start, or a heartbeat of another incarnation. It
// logs each other incarnation once, at error level: two live nodes of
// one name each get part of the other nodes' traffic.
func (n *Node) onNamesake(inc uint64, starting bool) {
	if inc == n.inc || inc == 0 {
		return
	}
	if starting {
		n.publishControl(n.hb, &wire.Envelope{Kind: wire.KindHeartbeat, Node: n.name, Corr: n.inc,
			Headers: []wire.Header{{Key: namesakeHeader, Value: strconv.FormatUint(inc, 16)}}})
	}
	if _, seen := n.namesakes.LoadOrStore(inc, struct{}{}); seen {
		return
	}
	if starting {
		n.log.Error("remote: another node is starting under this node's name; it is told so and refuses to start",
			zap.String("node", n.name), zap.String("incarnation", strconv.FormatUint(inc, 16)))
		return
	}
	n.log.Error("remote: another live node has this node's name: node names must be unique",
		zap.String("node", n.name), zap.String("incarnation", strconv.FormatUint(inc, 16)))
}
