package main

import (
	"bytes"
	"io"
	"net/http"
	"sync/atomic"
	"time"
)

// next picks the node the front door tries first, round robin.
var next atomic.Uint64

// frontClient forwards requests to the nodes; a request may wait while
// its cart fails over (askBudget).
var frontClient = &http.Client{Timeout: askBudget + 5*time.Second}

// forward is the front door: it sends the request to a live node, and to
// the next one if that node cannot be reached (it died: its connection
// is refused, or cut mid-request). Every request of the shop may be
// repeated (an add carries its request id), so a request cut mid-way is
// sent again.
func (s *shop) forward(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var last error
	for try := 0; try < 2*s.cfg.nodes; try++ {
		nodes := s.live()
		if len(nodes) == 0 {
			break
		}
		c := nodes[int(next.Add(1)%uint64(len(nodes)))]
		req, err := http.NewRequestWithContext(r.Context(), r.Method, c.url+r.URL.RequestURI(), bytes.NewReader(body))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		req.Header = r.Header.Clone()
		resp, err := frontClient.Do(req)
		if err != nil {
			last = err
			continue
		}
		for k, v := range resp.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(resp.StatusCode)
		_, _ = io.Copy(w, resp.Body)
		_ = resp.Body.Close()
		return
	}
	msg := "no node is reachable"
	if last != nil {
		msg += ": " + last.Error()
	}
	http.Error(w, msg, http.StatusBadGateway)
}
