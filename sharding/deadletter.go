package sharding

import (
	"fmt"
	"sync"

	"go.uber.org/zap"
)

// deadLetters hands dead letters to the function of WithDeadLetters on a
// goroutine of their own, in the order they came: they arise under the
// kind's lock, and a function that sends to an entity from there would
// wait for that lock forever.
type deadLetters struct {
	mu      sync.Mutex
	queue   []DeadLetter
	running bool // the goroutine runs: queue, rather than call
	wake    chan struct{}
}

// deadLetter reports a message that could not be delivered.
func (c *Cluster) deadLetter(d DeadLetter) {
	c.dead.Add(1)
	c.logger.Warn("sharding: dead letter", zap.Stringer("entity", d.Entity),
		zap.String("message", fmt.Sprintf("%T", d.Message)), zap.Error(d.Reason))
	if c.cfg.deadLetter == nil {
		return
	}
	q := &c.dl
	q.mu.Lock()
	if q.running {
		q.queue = append(q.queue, d)
		q.mu.Unlock()
		select {
		case q.wake <- struct{}{}:
		default:
		}
		return
	}
	q.mu.Unlock()
	c.cfg.deadLetter(d) // the cluster has closed (Close fails what it held outside locks)
}

// startDeadLetters starts the goroutine that calls WithDeadLetters'
// function, if there is one.
func (c *Cluster) startDeadLetters() {
	if c.cfg.deadLetter == nil {
		return
	}
	c.dl.wake = make(chan struct{}, 1)
	c.dl.running = true
	c.wg.Add(1)
	go c.passDeadLetters()
}

// passDeadLetters calls WithDeadLetters' function for each dead letter
// queued, until the cluster closes; then for those still queued.
func (c *Cluster) passDeadLetters() {
	defer c.wg.Done()
	q := &c.dl
	for {
		select {
		case <-q.wake:
		case <-c.ctx.Done():
		}
		q.mu.Lock()
		batch := q.queue
		q.queue = nil
		stop := c.ctx.Err() != nil
		if stop {
			q.running = false
		}
		q.mu.Unlock()
		for _, d := range batch {
			c.cfg.deadLetter(d)
		}
		if stop {
			return
		}
	}
}
