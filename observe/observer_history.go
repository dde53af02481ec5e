package observe

import (
	"slices"
	"sync"
	"time"

	"github.com/troupe-go/troupe/actor"
)

// deadLogSize is how many recent dead letters the observer keeps.
const deadLogSize = 200

// deadJSON is one dead letter as the page shows it.
type deadJSON struct {
	Seq     uint64    `json:"seq"`
	At      time.Time `json:"at"`
	To      string    `json:"to"`
	Reason  string    `json:"reason"`
	Error   string    `json:"error"`
	Message string    `json:"message"` // its type: values may be large or private
}

// deadLog is a ring of the latest dead letters.
type deadLog struct {
	mu   sync.Mutex
	seq  uint64
	ring []deadJSON
	next int
}

func newDeadLog(n int) *deadLog { return &deadLog{ring: make([]deadJSON, 0, n)} }

func (l *deadLog) add(d deadJSON) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seq++
	d.Seq = l.seq
	if len(l.ring) < cap(l.ring) {
		l.ring = append(l.ring, d)
		return
	}
	l.ring[l.next] = d
	l.next = (l.next + 1) % len(l.ring)
}

// since returns the kept dead letters after seq, oldest first.
func (l *deadLog) since(seq uint64) []deadJSON {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]deadJSON, 0, len(l.ring))
	for i := range l.ring {
		if d := l.ring[(l.next+i)%len(l.ring)]; d.Seq > seq {
			out = append(out, d)
		}
	}
	return out
}

// latest returns the last n kept dead letters, oldest first.
func (l *deadLog) latest(n int) []deadJSON {
	all := l.since(0)
	return all[max(len(all)-n, 0):]
}

// onDeadLetter runs on the goroutine that dead-letters: it only records.
func (o *Observer) onDeadLetter(d actor.DeadLetter) {
	msg := "<nil>"
	if d.Message != nil {
		msg = typeName(d.Message)
	}
	errText := ""
	if d.Reason != nil {
		errText = d.Reason.Error()
	}
	o.dead.add(deadJSON{At: o.now(), To: refString(d.To), Reason: actor.DeadLetterReason(d.Reason), Error: errText, Message: msg})
}

// historyPoints is how many intervals of rates the plots show.
const historyPoints = 120

// plottedKinds bounds the kinds plotted: the busiest.
const plottedKinds = 6

// history keeps per-kind message rates over the last intervals.
type history struct {
	mu       sync.Mutex
	n        int
	times    []time.Time
	rates    []map[string]float64
	last     map[string]uint64
	lastTime time.Time
	current  map[string]float64
}

func newHistory(n int) *history { return &history{n: n} }

// record adds a point from cumulative per-kind message counts.
func (h *history) record(at time.Time, handled map[string]uint64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.last != nil && !at.After(h.lastTime) {
		return // no time passed: no rate
	}
	if h.last != nil {
		dt := at.Sub(h.lastTime).Seconds()
		rates := map[string]float64{}
		for k, n := range handled {
			if prev, ok := h.last[k]; ok && dt > 0 && n >= prev {
				rates[k] = float64(n-prev) / dt
			}
		}
		h.times = append(h.times, at)
		h.rates = append(h.rates, rates)
		if len(h.times) > h.n {
			h.times, h.rates = h.times[1:], h.rates[1:]
		}
		h.current = rates
	}
	h.last, h.lastTime = handled, at
}

// lastAt returns when the last reading was recorded (zero if none).
func (h *history) lastAt() time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.lastTime
}

func (h *history) lastRates() map[string]float64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.current
}

// ratesJSON holds the plotted series: times in Unix milliseconds, and a
// rate per time for each of the busiest kinds.
type ratesJSON struct {
	Times  []int64      `json:"times"`
	Series []seriesJSON `json:"series"`
}

type seriesJSON struct {
	Kind   string    `json:"kind"`
	Values []float64 `json:"values"`
}

func (h *history) json() ratesJSON {
	h.mu.Lock()
	defer h.mu.Unlock()
	r := ratesJSON{Times: make([]int64, len(h.times)), Series: []seriesJSON{}}
	for i, t := range h.times {
		r.Times[i] = t.UnixMilli()
	}
	busy := map[string]float64{}
	for _, p := range h.rates {
		for k, v := range p {
			busy[k] += v
		}
	}
	kinds := sortedKeys(busy)
	slices.SortStableFunc(kinds, func(a, b string) int {
		switch {
		case busy[a] > busy[b]:
			return -1
		case busy[a] < busy[b]:
			return 1
		}
		return 0
	})
	if len(kinds) > plottedKinds {
		kinds = kinds[:plottedKinds]
	}
	for _, k := range kinds {
		s := seriesJSON{Kind: k, Values: make([]float64, len(h.rates))}
		for i, p := range h.rates {
			s.Values[i] = p[k]
		}
		r.Series = append(r.Series, s)
	}
	return r
}
