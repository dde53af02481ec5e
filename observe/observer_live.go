package observe

import (
	"encoding/json"
	"net/http"
	"time"
)

// serveEvents streams summaries as server-sent events ("summary"), one at
// once and then one per interval, until the client goes or the observer
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
	first, err := o.event()
	if err != nil {
		return
	}
	if _, err := w.Write(first); err != nil {
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

// event encodes a fresh summary as one server-sent event.
func (o *Observer) event() ([]byte, error) {
	b, err := json.Marshal(o.summary())
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(b)+32)
	out = append(out, "event: summary\ndata: "...)
	out = append(out, b...)
	return append(out, "\n\n"...), nil
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

// tick records rates and sends every client a summary each interval,
// while there are clients: figures are read only while someone looks.
func (o *Observer) tick(stop, done chan struct{}) {
	defer close(done)
	t := time.NewTicker(o.interval)
	defer t.Stop()
	o.recordRates()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			o.recordRates()
			ev, err := o.event()
			if err != nil {
				continue
			}
			o.broadcast(ev)
		}
	}
}

func (o *Observer) recordRates() {
	t := o.sys.Totals()
	handled := make(map[string]uint64, len(t.Kinds))
	for k, kt := range t.Kinds {
		handled[k] = kt.MessagesHandled
	}
	o.hist.record(time.Now(), handled)
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
