package netactor

import (
	"errors"
	"fmt"
	"net"

	"github.com/troupe-go/troupe/loop"
	"github.com/troupe-go/troupe/poller"
)

// errAgain is the socket layer's "would block".
var errAgain = errors.New("netactor: would block")

// readsPerEvent bounds the reads one readiness event may do before the
// connection yields its loop to other work (and continues in a new task).
const readsPerEvent = 16

// Callbacks are a connection's event handlers. They run on the owning
// loop, one at a time, as that loop's macrotasks. Nil callbacks are
// skipped.
type Callbacks struct {
	// Opened runs when a dialed connection is established.
	Opened func(c *Conn)
	// Data runs with bytes read from the peer; p is only valid during the
	// call (it is a pooled buffer): copy what must outlive it.
	Data func(c *Conn, p []byte)
	// PeerClosed runs when the peer closed its write side (EOF). Return
	// true to keep writing (a half-open connection, closed later with
	// Close); otherwise, and when PeerClosed is nil, the connection closes
	// once its output has been flushed.
	PeerClosed func(c *Conn) (keepWriting bool)
	// Drained runs when output that had passed the high-water mark has
	// drained to the low-water mark and reading resumed.
	Drained func(c *Conn)
	// Closed runs once, when the socket has been closed: err is nil for a
	// close asked with Close or by the peer, the cause otherwise.
	Closed func(c *Conn, err error)
}

// handler is what a Conn calls back: *Callbacks for loop-level users,
// the connection actor for served ones (no closure per callback, which
// keeps an idle connection small).
type handler interface {
	opened(c *Conn)
	data(c *Conn, p []byte)
	peerClosed(c *Conn) bool
	drained(c *Conn)
	closed(c *Conn, err error)
}

func (cb *Callbacks) opened(c *Conn) {
	if cb.Opened != nil {
		cb.Opened(c)
	}
}

func (cb *Callbacks) data(c *Conn, p []byte) {
	if cb.Data != nil {
		cb.Data(c, p)
	}
}

func (cb *Callbacks) peerClosed(c *Conn) bool { return cb.PeerClosed != nil && cb.PeerClosed(c) }

func (cb *Callbacks) drained(c *Conn) {
	if cb.Drained != nil {
		cb.Drained(c)
	}
}

func (cb *Callbacks) closed(c *Conn, err error) {
	if cb.Closed != nil {
		cb.Closed(c, err)
	}
}

type connState uint8

const (
	stateConnecting connState = iota
	stateOpen
	stateClosing // flushing, then closes
	stateClosed
)

// Conn is a non-blocking stream socket (TCP or unix) served by one loop:
// its callbacks run on that loop, readiness comes from the loop's fd
// watching (a poller per scheduler worker for driven loops), and no
// goroutine waits on it. Write buffers output and flushes it at the end of
// the current callback; past the high-water mark ([WithHighWater]) the
// connection stops reading until its output drains.
//
// All methods must be called on the owning loop.
type Conn struct {
	l       *loop.Loop
	fd      int
	network string
	h       handler
	cfg     *config

	outp        *[]byte // pooled output buffer, (*outp)[outOff:] not yet written
	outOff      int
	inRead      bool // in a Data callback: read flushes after it
	state       connState
	paused      bool // reading stopped by backpressure
	held        bool // reading stopped by PauseReading
	readable    bool // data may be waiting (edge-triggered: not yet drained)
	hup         bool // the peer's FIN or an error was reported: read to the end
	eof         bool // the peer closed its write side
	shutWrite   bool // CloseWrite asked
	wroteShut   bool // SHUT_WR done
	flushQueued bool
	readQueued  bool
	stats       Stats
}

// Stats are a connection's counters.
type Stats struct {
	BytesRead    uint64
	BytesWritten uint64
	// PeakBuffered is the largest output the connection buffered at once.
	PeakBuffered int
	// Pauses counts how often backpressure stopped reading.
	Pauses int
}

// Open serves an already connected, non-blocking stream socket fd (from
// [Socket.Release] or another source) on l, which owns it from then on:
// the connection closes it. On l's loop only.
func Open(l *loop.Loop, fd int, network string, cb Callbacks, opts ...Option) (*Conn, error) {
	cfg, err := buildConfig(opts)
	if err != nil {
		return nil, err
	}
	return open(l, fd, network, &cb, &cfg, stateOpen)
}

func open(l *loop.Loop, fd int, network string, h handler, cfg *config, st connState) (*Conn, error) {
	if !supported {
		return nil, ErrUnsupported
	}
	if !l.OnLoop() {
		return nil, ErrNotOnLoop
	}
	c := &Conn{l: l, fd: fd, network: network, h: h, cfg: cfg, state: st}
	interest := poller.Readable | poller.Writable | poller.EdgeTriggered
	if err := l.WatchFD(uintptr(fd), interest, c.onEvent); err != nil {
		return nil, fmt.Errorf("netactor: watching fd %d: %w", fd, err)
	}
	if st == stateOpen {
		setNoDelay(fd, network)
	}
	return c, nil
}

// FD returns the socket's file descriptor (-1 once closed), for socket
// options; do not read, write or close it.
func (c *Conn) FD() int { return c.fd }

// LocalAddr returns the local address.
func (c *Conn) LocalAddr() net.Addr {
	if c.fd < 0 {
		return nil
	}
	return localAddr(c.fd, c.network)
}

// RemoteAddr returns the peer's address (nil for an unnamed unix peer).
func (c *Conn) RemoteAddr() net.Addr {
	if c.fd < 0 {
		return nil
	}
	return remoteAddr(c.fd, c.network)
}

// Stats returns the connection's counters.
func (c *Conn) Stats() Stats { return c.stats }

// Buffered returns how many bytes of output wait to be written.
func (c *Conn) Buffered() int {
	if c.outp == nil {
		return 0
	}
	return len(*c.outp) - c.outOff
}

// ReadPaused reports whether backpressure has stopped reading.
func (c *Conn) ReadPaused() bool { return c.paused }

// Closed reports whether the socket has been closed.
func (c *Conn) Closed() bool { return c.state == stateClosed }

// Write queues p (copied) for writing; it never blocks and never writes
// partially: the bytes go out as the socket accepts them, starting at the
// end of the current callback. It fails with ErrWriteClosed after
// CloseWrite or Close.
func (c *Conn) Write(p []byte) (int, error) {
	if c.state >= stateClosing || c.shutWrite {
		return 0, ErrWriteClosed
	}
	if c.outp == nil {
		c.outp = getWriteBuf()
	}
	*c.outp = append(*c.outp, p...)
	c.queued()
	return len(p), nil
}

// WriteString is Write for a string, without a conversion copy.
func (c *Conn) WriteString(s string) (int, error) {
	if c.state >= stateClosing || c.shutWrite {
		return 0, ErrWriteClosed
	}
	if c.outp == nil {
		c.outp = getWriteBuf()
	}
	*c.outp = append(*c.outp, s...)
	c.queued()
	return len(s), nil
}

// queued notes new output: schedule its flush and apply backpressure.
func (c *Conn) queued() {
	if b := c.Buffered(); b > c.stats.PeakBuffered {
		c.stats.PeakBuffered = b
	}
	if !c.flushQueued && !c.inRead && c.state == stateOpen {
		if c.l.QueueMicrotask(c.flush) == nil {
			c.flushQueued = true
		}
	}
	if !c.paused && c.Buffered() > c.cfg.highWater {
		c.paused = true
		c.stats.Pauses++
	}
}

// PauseReading stops reading until ResumeReading, for a handler whose own
// work (replies it waits for) must catch up before more input.
func (c *Conn) PauseReading() { c.held = true }

// ResumeReading undoes PauseReading.
func (c *Conn) ResumeReading() {
	if c.held {
		c.held = false
		if c.readable && !c.paused {
			c.queueRead()
		}
	}
}

// CloseWrite half-closes the connection: once the buffered output is
// written, the peer reads EOF; reading goes on.
func (c *Conn) CloseWrite() error {
	if c.state == stateClosed {
		return ErrClosed
	}
	c.shutWrite = true
	if c.state == stateOpen && c.Buffered() == 0 {
		c.doShutWrite()
	}
	return nil
}

// Close closes the connection gracefully: it stops reading, writes the
// buffered output, then closes the socket and runs Closed. Closing a
// connection already closed or closing returns ErrClosed.
func (c *Conn) Close() error {
	switch c.state {
	case stateClosed, stateClosing:
		return ErrClosed
	case stateConnecting:
		c.finish(nil)
		return nil
	}
	c.state = stateClosing
	if c.Buffered() == 0 {
		c.finish(nil)
		return nil
	}
	if !c.flushQueued {
		c.flushQueued = c.l.QueueMicrotask(c.flush) == nil
	}
	return nil
}

// Abort closes the connection at once, dropping buffered output, and runs
// Closed with err.
func (c *Conn) Abort(err error) {
	if c.state != stateClosed {
		c.finish(err)
	}
}

// onEvent is the fd callback: readiness of the socket.
func (c *Conn) onEvent(ev poller.Events) {
	if c.state == stateConnecting {
		c.connected()
		return
	}
	if ev&poller.Writable != 0 && c.Buffered() > 0 {
		c.flush()
	}
	if ev&(poller.Readable|poller.HangUp|poller.Error) != 0 {
		c.readable = true
		c.hup = c.hup || ev&(poller.HangUp|poller.Error) != 0
		c.read()
	}
}

// connected completes a dial.
func (c *Conn) connected() {
	if err := connectResult(c.fd); err != nil {
		c.finish(fmt.Errorf("netactor: connect: %w", err))
		return
	}
	c.state = stateOpen
	setNoDelay(c.fd, c.network)
	c.h.opened(c)
	if c.state == stateOpen {
		c.readable = true
		c.read()
		if c.Buffered() > 0 && !c.flushQueued {
			c.flush()
		}
	}
}

// read reads while data is ready, up to readsPerEvent reads.
func (c *Conn) read() {
	if c.paused || c.held || c.eof || c.state != stateOpen || !c.readable {
		return
	}
	bp := getReadBuf()
	defer c.endRead(bp)
	buf := *bp
	for range readsPerEvent {
		n, err := sysRead(c.fd, buf)
		if err == errAgain {
			c.readable = false
			return
		}
		if err != nil {
			c.finish(fmt.Errorf("netactor: read: %w", err))
			return
		}
		if n == 0 {
			c.peerClosed()
			return
		}
		c.stats.BytesRead += uint64(n)
		c.inRead = true
		c.h.data(c, buf[:n])
		c.inRead = false
		if c.state != stateOpen || c.eof {
			return
		}
		if c.Buffered() > 0 {
			c.flush() // the reply to this read, in one write
		}
		if c.paused || c.held {
			return
		}
		if n < len(buf) && !c.hup {
			// A short read drained the socket: what arrives next (data, or
			// the FIN, watched with EPOLLRDHUP / EV_EOF) makes a new edge.
			// A FIN that came with this data was reported as HangUp, and
			// then the loop reads on to EOF.
			c.readable = false
			return
		}
	}
	c.queueRead() // more may be waiting: continue after other work
}

// endRead returns the read buffer and, if a Data callback panicked with
// output written, schedules the flush the read loop could not do.
func (c *Conn) endRead(bp *[]byte) {
	putReadBuf(bp)
	if c.inRead {
		c.inRead = false
		if c.Buffered() > 0 && !c.flushQueued && c.state == stateOpen {
			c.flushQueued = c.l.QueueMicrotask(c.flush) == nil
		}
	}
}

func (c *Conn) queueRead() {
	if !c.readQueued && c.l.Submit(c.readTask) == nil {
		c.readQueued = true
	}
}

func (c *Conn) readTask() {
	c.readQueued = false
	c.read()
}

// peerClosed handles EOF from the peer.
func (c *Conn) peerClosed() {
	c.eof, c.readable = true, false
	if c.wroteShut {
		c.finish(nil) // both directions are done
		return
	}
	if c.h.peerClosed(c) {
		return
	}
	if c.state == stateOpen {
		_ = c.Close()
	}
}

// flush writes buffered output until the socket would block.
func (c *Conn) flush() {
	c.flushQueued = false
	if c.state != stateOpen && c.state != stateClosing {
		return
	}
	for c.Buffered() > 0 {
		n, err := sysWrite(c.fd, (*c.outp)[c.outOff:])
		if err == errAgain {
			break
		}
		if err != nil {
			c.finish(fmt.Errorf("netactor: write: %w", err))
			return
		}
		c.outOff += n
		c.stats.BytesWritten += uint64(n)
	}
	c.compact()
	if c.Buffered() == 0 {
		c.drained()
	}
	if c.paused && c.Buffered() <= c.cfg.highWater/2 {
		c.resume()
	}
}

// compact releases a drained buffer or moves the unwritten tail down.
func (c *Conn) compact() {
	switch {
	case c.Buffered() == 0:
		if c.outp != nil {
			putWriteBuf(c.outp)
		}
		c.outp, c.outOff = nil, 0
	case c.outOff > len(*c.outp)/2:
		n := copy(*c.outp, (*c.outp)[c.outOff:])
		*c.outp, c.outOff = (*c.outp)[:n], 0
	}
}

// drained runs when all output is written.
func (c *Conn) drained() {
	if c.state == stateClosing {
		c.finish(nil)
		return
	}
	if c.shutWrite && !c.wroteShut {
		c.doShutWrite()
	}
}

func (c *Conn) resume() {
	c.paused = false
	c.h.drained(c)
	if c.readable && !c.held {
		c.queueRead()
	}
}

func (c *Conn) doShutWrite() {
	c.wroteShut = true
	if err := sysShutdownWrite(c.fd); err != nil {
		c.finish(fmt.Errorf("netactor: shutdown: %w", err))
		return
	}
	if c.eof {
		c.finish(nil)
	}
}

// finish closes the socket and runs Closed.
func (c *Conn) finish(err error) {
	if c.state == stateClosed {
		return
	}
	c.release()
	c.h.closed(c, err)
}

// release unwatches and closes the fd and drops the buffers, without
// callbacks.
func (c *Conn) release() {
	c.state = stateClosed
	_ = c.l.UnwatchFD(uintptr(c.fd))
	_ = sysClose(c.fd)
	c.fd = -1
	if c.outp != nil {
		putWriteBuf(c.outp)
	}
	c.outp, c.outOff = nil, 0
}

// closeLinger is a stopping actor's close: it writes what is buffered,
// blocking up to the linger timeout, then closes, without callbacks.
func (c *Conn) closeLinger() error {
	if c.state == stateClosed {
		return nil
	}
	var err error
	if c.state != stateConnecting && c.Buffered() > 0 {
		_ = c.l.UnwatchFD(uintptr(c.fd))
		err = sysFlushBlocking(c.fd, (*c.outp)[c.outOff:], c.cfg.linger)
		if err == nil {
			c.stats.BytesWritten += uint64(c.Buffered())
		}
	}
	c.release()
	return err
}
