package observe

import (
	"net/http"

	"github.com/troupe-go/troupe/actor"
)

// serveEvents streams summaries as server-sent events ("summary"), the
// latest at once and then one per interval, until the client goes or the observer
// closes.
func (o *Observer) serveEvents(w http.ResponseWriter, r *http.Request) {
	flusher, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	ch, ok := o.join()
	if !ok {
		http.Error(w, "observer closed", http.StatusServiceUnavailable)
		return
	}
	defer o.leave(ch)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Accel-Buffering", "no") // nginx: do not buffer the stream
	first, err := o.snapshot(o.interval, false)
	if err != nil {
		return
	}
	if _, err := w.Write(first.event); err != nil {
		return
	}
	flusher.Flush()
	for {
		select {
		case ev, open := <-ch:
			if !open {
				return
			}
			if _, err := w.Write(ev); err != nil {
				return
			}
			flusher.Flush()
		case <-r.Context().Done():
			return
		}
	}
}

// join adds a live client, starting the ticker for the first one.
func (o *Observer) join() (chan []byte, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return nil, false
	}
	ch := make(chan []byte, 2)
	o.clients[ch] = struct{}{}
	if o.stop == nil {
		o.stop, o.done = make(chan struct{}), make(chan struct{})
		go o.tick(o.stop, o.done)
	}
	return ch, true
}

// leave removes a client, stopping the ticker after the last one.
func (o *Observer) leave(ch chan []byte) {
	o.mu.Lock()
	if _, ok := o.clients[ch]; ok {
		delete(o.clients, ch)
	}
	var stop, done chan struct{}
	if len(o.clients) == 0 && o.stop != nil && !o.closed {
		stop, done = o.stop, o.done
		o.stop, o.done = nil, nil
	}
	o.mu.Unlock()
	if stop != nil {
		close(stop)
		<-done
	}
}

// tick sends every client the latest summary each interval, while there
// are clients. A summary visits every actor twice; when that takes more
// than a quarter of the interval of CPU time (hundreds of thousands of
// actors), the interval stretches so that looking never costs more than
// a quarter of a core. The snapshot is shared: a request for
// /api/summary in between makes the tick cost nothing more.
func (o *Observer) tick(stop, done chan struct{}) {
	defer close(done)
	wake := make(chan struct{}, 1)
	t := o.clock.AfterFunc(o.clock.Now()+int64(o.interval), func() {
		select {
		case wake <- struct{}{}:
		default:
		}
	})
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-wake:
			if snap, err := o.snapshot(o.interval/2, false); err == nil {
				o.broadcast(snap.event)
			}
			t.Reset(o.clock.Now() + int64(max(o.interval, 4*o.lastCost())))
		}
	}
}

func (o *Observer) recordRates(kinds map[string]actor.KindTotals) {
	handled := make(map[string]uint64, len(kinds))
	for k, kt := range kinds {
		handled[k] = kt.MessagesHandled
	}
	o.hist.record(o.now(), handled)
}

// broadcast queues ev for every client; a client that has not taken the
// previous ones misses this one.
func (o *Observer) broadcast(ev []byte) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for ch := range o.clients {
		select {
		case ch <- ev:
		default:
		}
	}
}
