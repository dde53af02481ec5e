package jetstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"github.com/nats-io/nats.go"

	"github.com/troupe-go/troupe/persist"
	"github.com/troupe-go/troupe/persist/internal/record"
)

// Bounds of one batched direct get: the server sends at most this many
// messages, or stops once it sent this many bytes, then says how many are
// left; a read asks again for those.
const (
	directBatch    = 4096
	directMaxBytes = 4 << 20
)

// directGet is JetStream's direct get request (the stream's
// $JS.API.DIRECT.GET subject, served by any server holding the stream):
// the messages on NextFor from Seq on, Batch at most, payloads only.
type directGet struct {
	Seq      uint64 `json:"seq"`
	NextFor  string `json:"next_by_subj"`
	Batch    int    `json:"batch"`
	MaxBytes int    `json:"max_bytes"`
	NoHdr    bool   `json:"no_hdr"`
}

// Headers and statuses of a batched direct get's replies.
const (
	hdrNumPending   = "Nats-Num-Pending"
	hdrLastSequence = "Nats-Last-Sequence"
	statusEOB       = "204" // the end of a batch
	statusNotFound  = "404" // no message from Seq on
)

// readDirect hands fn the payload of every message on subject from stream
// sequence from on, in stream order, with batched direct gets (one round
// trip per directBatch messages, no consumer), and returns the stream
// sequence of the last message it handed (0 for none). fn runs on the
// reply subscription's goroutine, one call at a time, and never after
// readDirect returned.
func (s *Store) readDirect(ctx context.Context, subject string, from uint64, fn func(data []byte) error) (last uint64, err error) {
	b := &batchReader{fn: fn, ends: make(chan batchEnd, 1)}
	// An asynchronous subscription: its messages queue without a bound of
	// the library's (a synchronous one allocates a 64k-slot channel), and
	// the server bounds each batch.
	sub, err := s.nc.Subscribe(s.nc.NewInbox(), b.receive)
	if err != nil {
		return 0, err
	}
	defer func() {
		b.stop()
		_ = sub.Unsubscribe()
	}()
	if err := sub.SetPendingLimits(-1, -1); err != nil {
		return 0, err
	}
	apiSubject := "$JS.API.DIRECT.GET." + s.cfg.name + "_EVENTS"
	for {
		req, _ := json.Marshal(directGet{Seq: from, NextFor: subject, Batch: directBatch, MaxBytes: directMaxBytes, NoHdr: true})
		if err := s.nc.PublishRequest(apiSubject, sub.Subject, req); err != nil {
			return last, err
		}
		var end batchEnd
		select {
		case end = <-b.ends:
		case <-ctx.Done():
			return last, ctx.Err()
		case <-s.closed:
			return last, persist.ErrClosed
		}
		switch {
		case end.err != nil:
			return last, end.err
		case end.last == 0: // nothing from `from` on
			return last, nil
		}
		last, from = end.last, end.last+1
		if end.pending == 0 {
			return last, nil
		}
	}
}

// batchReader takes the replies of a read's direct gets.
type batchReader struct {
	mu      sync.Mutex
	fn      func([]byte) error
	err     error // fn's first error: the batch is still taken to its end
	stopped bool
	ends    chan batchEnd
}

// batchEnd is what a batch's end-of-batch status says: how many messages
// are left, and the sequence of the last one sent (0: none was found).
type batchEnd struct {
	pending, last uint64
	err           error
}

// receive takes one reply. On the subscription's goroutine.
func (b *batchReader) receive(m *nats.Msg) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.stopped {
		return
	}
	if len(m.Header) == 0 {
		if b.err == nil {
			b.err = b.fn(m.Data)
		}
		return
	}
	end := batchEnd{err: b.err}
	b.err = nil
	switch status := m.Header.Get("Status"); status {
	case statusEOB:
		var err1, err2 error
		end.pending, err1 = strconv.ParseUint(m.Header.Get(hdrNumPending), 10, 64)
		end.last, err2 = strconv.ParseUint(m.Header.Get(hdrLastSequence), 10, 64)
		if err := errors.Join(err1, err2); err != nil && end.err == nil {
			end.err = fmt.Errorf("end of a direct get batch: %w", err)
		}
	case statusNotFound:
	default:
		if end.err == nil {
			end.err = fmt.Errorf("direct get: status %s %s", status, m.Header.Get("Description"))
		}
	}
	select {
	case b.ends <- end:
	default: // a reply to no request of ours
	}
}

// stop ends the calls of fn.
func (b *batchReader) stop() {
	b.mu.Lock()
	b.stopped = true
	b.mu.Unlock()
}

// readWrites hands fn the writes on subject from stream sequence from on,
// decoded, and returns the stream sequence of the last (0 for none).
func (s *Store) readWrites(ctx context.Context, subject string, from uint64, fn func(evs []persist.Event) error) (uint64, error) {
	return s.readDirect(ctx, subject, from, func(data []byte) error {
		evs, err := record.ReadEvents(data)
		if err != nil {
			return fmt.Errorf("persist/jetstream: a write on %s read from stream sequence %d on: %w", subject, from, err)
		}
		return fn(evs)
	})
}
