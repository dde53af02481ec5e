package observe

import (
	"embed"
	"errors"
	"io/fs"
	"math"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/loop"
)

//go:embed assets
var assets embed.FS

// Observer is the observer's http.Handler: the page, its assets and its
// JSON and server-sent-events API (see the package doc). Safe for
// concurrent use; call [Observer.Close] when done with it.
type Observer struct {
	sys      *actor.System
	actions  bool
	interval time.Duration
	mux      *http.ServeMux
	handler  http.Handler // mux behind the cross-origin check
	dead     *deadLog
	hist     *history
	clock    loop.Clock
	epoch    time.Time // the wall time when the clock read epochAt
	epochAt  int64

	snaps       snapshots
	treeAskedAt atomic.Int64 // on the clock: when a request last needed the tree index
	sampler     sampler

	mu      sync.Mutex
	clients map[chan []byte]struct{}
	stop    chan struct{}
	done    chan struct{}
	cancel  func()
	closed  bool
}

// ObserverOption configures an [Observer] at [NewObserver].
type ObserverOption func(*Observer) error

// WithActions lets the page stop and restart actors. Without it the
// observer is read-only: the action endpoints answer 403 Forbidden. Only
// enable it where everyone who can reach the handler may act on the
// system. Either way a request a browser sends for a page of another
// origin is refused (403), so other sites cannot act through a user's
// browser.
func WithActions() ObserverOption {
	return func(o *Observer) error {
		o.actions = true
		return nil
	}
}

// WithInterval sets how often live pages get fresh figures (default one
// second).
func WithInterval(d time.Duration) ObserverOption {
	return func(o *Observer) error {
		if d <= 0 {
			return errors.New("observe: WithInterval needs a positive duration")
		}
		o.interval = d
		return nil
	}
}

// WithClock sets the clock the observer times its readings by (default:
// the real clock). With a [loop.VirtualClock] the rate history and the
// live updates move only when the test advances it.
func WithClock(c loop.Clock) ObserverOption {
	return func(o *Observer) error {
		if c == nil {
			return errors.New("observe: WithClock(nil)")
		}
		o.clock = c
		return nil
	}
}

// NewObserver returns the observer of s. It subscribes to s's dead
// letters at once, to show the latest, and starts recording the message
// rates by kind (see the package doc); the rest is read only while a page
// is open or a request asks.
func NewObserver(s *actor.System, opts ...ObserverOption) (*Observer, error) {
	if s == nil {
		return nil, errors.New("observe: NewObserver(nil)")
	}
	o := &Observer{
		sys: s, interval: time.Second, mux: http.NewServeMux(),
		dead: newDeadLog(deadLogSize), hist: newHistory(historyPoints),
		clients: map[chan []byte]struct{}{}, clock: loop.RealClock(),
	}
	for _, opt := range opts {
		if err := opt(o); err != nil {
			return nil, err
		}
	}
	o.epoch, o.epochAt = time.Now(), o.clock.Now()
	o.treeAskedAt.Store(math.MinInt64 / 2) // never
	o.cancel = s.SubscribeDeadLetters(o.onDeadLetter)
	static, _ := fs.Sub(assets, "assets")
	o.mux.Handle("GET /", http.FileServerFS(static))
	o.mux.HandleFunc("GET /api/summary", o.serveSummary)
	o.mux.HandleFunc("GET /api/actors", o.serveActors)
	o.mux.HandleFunc("GET /api/actor", o.serveActor)
	o.mux.HandleFunc("GET /api/events", o.serveEvents)
	o.mux.HandleFunc("POST /api/actor/{action}", o.serveAction)
	o.handler = sameOrigin(o.mux)
	o.startSampler()
	return o, nil
}

// now reads the observer's clock as wall time.
func (o *Observer) now() time.Time { return o.epoch.Add(time.Duration(o.clock.Now() - o.epochAt)) }

// sameOrigin refuses state-changing requests (every method but GET, HEAD
// and OPTIONS) that a browser sent for a page of another origin: without
// it, any site the user visits could stop actors through a no-cors
// fetch. A browser says where a request comes from in Sec-Fetch-Site
// (only "same-origin" and "none", the address bar, pass), or, older
// ones, in Origin, which must then name the request's Host; a request
// with neither header comes from no browser (curl, a script) and passes.
func sameOrigin(h http.Handler) http.Handler {
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "observe: cross-origin request refused: act from the observer's own page", http.StatusForbidden)
	}))
	return cop.Handler(h)
}

// ServeHTTP implements http.Handler.
func (o *Observer) ServeHTTP(w http.ResponseWriter, r *http.Request) { o.handler.ServeHTTP(w, r) }

// Close ends the observer's subscription and its live streams. Safe to
// call more than once.
func (o *Observer) Close() error {
	o.mu.Lock()
	if o.closed {
		o.mu.Unlock()
		return nil
	}
	o.closed = true
	stop, done := o.stop, o.done
	for ch := range o.clients {
		close(ch)
		delete(o.clients, ch)
	}
	o.mu.Unlock()
	o.cancel()
	o.stopSampler()
	if stop != nil {
		close(stop)
		<-done
	}
	return nil
}
