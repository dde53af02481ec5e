package jetstream

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/troupe-go/troupe/persist"
	"github.com/troupe-go/troupe/persist/internal/record"
)

// asyncTimeout bounds the wait for an asynchronous write's
// acknowledgement, and a retry after it failed.
const asyncTimeout = persist.DefaultTimeout

// stallWait is how long AppendAsync waits for room when WithMaxPending
// writes await their acknowledgement (nats.go's stall wait).
const stallWait = 200 * time.Millisecond

// pendingWrite is a write published asynchronously, awaiting its
// acknowledgement.
type pendingWrite struct {
	entity string
	after  persist.Cursor
	events []persist.Event
	done   func(persist.Cursor, error)
	sent   time.Time
}

// acks is the one place where a store's asynchronous writes await their
// acknowledgements: each write is published with a reply subject under
// one wildcard subscription, whose callback settles the write the reply
// names. A write costs no goroutine, channel or timer of its own; one
// sweep a second fails the writes whose acknowledgement is overdue.
type acks struct {
	mu      sync.Mutex
	prefix  string // the reply subjects' prefix: an inbox and "."
	next    uint64 // the token of the next write
	pending map[uint64]*pendingWrite
	closed  bool
	room    chan struct{} // one token per write in flight: WithMaxPending
	sub     *nats.Subscription
}

// startAcks subscribes to the store's acknowledgements and starts the
// sweep of overdue writes.
func (s *Store) startAcks() error {
	a := &s.acks
	a.prefix = s.nc.NewInbox() + "."
	a.pending = map[uint64]*pendingWrite{}
	a.room = make(chan struct{}, s.cfg.maxPending)
	sub, err := s.nc.Subscribe(a.prefix+"*", s.acknowledged)
	if err != nil {
		return fmt.Errorf("persist/jetstream: acknowledgements: %w", err)
	}
	if err := sub.SetPendingLimits(-1, -1); err != nil { // bounded by room
		_ = sub.Unsubscribe()
		return err
	}
	a.sub = sub
	go s.sweep()
	return nil
}

// AppendAsync implements persist.AsyncAppender: it publishes the write as
// Append does, with a reply subject of the store's acknowledgement
// subscription, and returns; the acknowledgement settles it. A write
// refused or failed is settled as Append settles it (the check for its
// own earlier copy, a retry with the same id) on a goroutine of its own.
// When WithMaxPending writes already await their acknowledgement,
// AppendAsync waits for room up to 200 ms, then settles the write that
// way too.
func (s *Store) AppendAsync(entity string, after persist.Cursor, events []persist.Event, done func(persist.Cursor, error)) {
	if err := persist.CheckWrite(after, events); err != nil {
		done(after, err)
		return
	}
	w := &pendingWrite{entity: entity, after: after, events: events, done: done}
	if !s.acks.reserve() {
		go s.settleFailed(w)
		return
	}
	data := record.AppendEvents(nil, events)
	msg := &nats.Msg{
		Subject: s.subject("events", entity),
		Data:    data,
		Header: nats.Header{
			jetstream.ExpectedLastSubjSeqHeader: []string{strconv.FormatUint(after.Rev, 10)},
			jetstream.MsgIDHeader:               []string{writeID(entity, events[0].Seq, after.Rev, data)},
		},
	}
	a := &s.acks
	a.mu.Lock()
	if a.closed {
		a.mu.Unlock()
		<-a.room
		done(after, fmt.Errorf("persist/jetstream: append to %q: %w", entity, persist.ErrClosed))
		return
	}
	token := a.next
	a.next++
	w.sent = time.Now()
	a.pending[token] = w
	a.mu.Unlock()
	msg.Reply = a.prefix + strconv.FormatUint(token, 10)
	if err := s.nc.PublishMsg(msg); err != nil {
		if a.take(token) != nil {
			go s.settleFailed(w)
		}
	}
}

// reserve takes room for a write, waiting up to stallWait.
func (a *acks) reserve() bool {
	select {
	case a.room <- struct{}{}:
		return true
	default:
	}
	t := time.NewTimer(stallWait)
	defer t.Stop()
	select {
	case a.room <- struct{}{}:
		return true
	case <-t.C:
		return false
	}
}

// take removes the write of token from those in flight, giving its room
// back; nil if it is not (or no longer) in flight.
func (a *acks) take(token uint64) *pendingWrite {
	a.mu.Lock()
	w := a.pending[token]
	delete(a.pending, token)
	a.mu.Unlock()
	if w != nil {
		<-a.room
	}
	return w
}

// acknowledged settles the write a reply names. On the subscription's
// goroutine.
func (s *Store) acknowledged(m *nats.Msg) {
	token, err := strconv.ParseUint(m.Subject[len(s.acks.prefix):], 10, 64)
	if err != nil {
		return
	}
	w := s.acks.take(token)
	if w == nil {
		return // settled already (overdue, or the store closed)
	}
	seq, ok := pubAckSeq(m)
	if !ok {
		// Refused (fenced, or a store error) or no stream answered:
		// Append tells a repeat of this very write from a stale writer.
		go s.settleFailed(w)
		return
	}
	w.done(persist.Cursor{Seq: w.events[len(w.events)-1].Seq, Rev: seq}, nil)
}

// pubAckSeq returns the stream sequence a JetStream publish
// acknowledgement gives, and false for anything else (an error reply, a
// no-responders status).
func pubAckSeq(m *nats.Msg) (uint64, bool) {
	if len(m.Header) > 0 || bytes.Contains(m.Data, []byte(`"error"`)) {
		return 0, false
	}
	// The common reply, {"stream":"NAME_EVENTS","seq":N...}, read
	// without reflection; anything else through encoding/json.
	if i := bytes.Index(m.Data, []byte(`"seq":`)); i >= 0 {
		rest := m.Data[i+len(`"seq":`):]
		n := 0
		for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
			n++
		}
		if seq, err := strconv.ParseUint(string(rest[:n]), 10, 64); err == nil && seq > 0 {
			return seq, true
		}
	}
	var ack struct {
		Seq uint64 `json:"seq"`
	}
	if err := json.Unmarshal(m.Data, &ack); err != nil || ack.Seq == 0 {
		return 0, false
	}
	return ack.Seq, true
}

// sweep fails the writes whose acknowledgement is overdue, once a second,
// until the store closes. Its own goroutine.
func (s *Store) sweep() {
	defer close(s.sweepDone)
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			for _, w := range s.acks.overdue(time.Now().Add(-asyncTimeout)) {
				go s.settleFailed(w)
			}
		case <-s.closed:
			return
		}
	}
}

// overdue removes and returns the writes sent before cutoff.
func (a *acks) overdue(cutoff time.Time) []*pendingWrite {
	a.mu.Lock()
	var out []*pendingWrite
	for token, w := range a.pending {
		if w.sent.Before(cutoff) {
			out = append(out, w)
			delete(a.pending, token)
		}
	}
	a.mu.Unlock()
	for range out {
		<-a.room
	}
	return out
}

// close fails the writes in flight with persist.ErrClosed and refuses new
// ones.
func (a *acks) close() {
	a.mu.Lock()
	a.closed = true
	ws := a.pending
	a.pending = map[uint64]*pendingWrite{}
	a.mu.Unlock()
	if a.sub != nil {
		_ = a.sub.Unsubscribe()
	}
	for _, w := range ws {
		w.done(w.after, fmt.Errorf("persist/jetstream: append to %q: %w", w.entity, persist.ErrClosed))
	}
}

// settleFailed settles a write whose asynchronous publish failed by
// appending it again with the same id: Append recognizes the write if the
// first attempt stored it, and fences or fails it otherwise.
func (s *Store) settleFailed(w *pendingWrite) {
	select {
	case <-s.closed:
		w.done(w.after, fmt.Errorf("persist/jetstream: append to %q: %w", w.entity, persist.ErrClosed))
		return
	default:
	}
	ctx, cancel := context.WithTimeout(context.Background(), asyncTimeout)
	defer cancel()
	w.done(s.Append(ctx, w.entity, w.after, w.events))
}
