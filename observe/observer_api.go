package observe

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strconv"
	"time"

	"github.com/troupe-go/troupe/actor"
)

// pageLimit is the default and largest page of actors the API returns.
const pageLimit = 200

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(v)
}

func writeJSONBytes(w http.ResponseWriter, b []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(b)
}

func (o *Observer) serveSummary(w http.ResponseWriter, _ *http.Request) {
	b, err := o.summary()
	if err != nil {
		httpError(w, err)
		return
	}
	writeJSONBytes(w, b)
}

// actorsJSON is a page of the tree.
type actorsJSON struct {
	Actors []actorJSON     `json:"actors"`
	Next   string          `json:"next"`  // the cursor of the next page; "" after the last
	Total  int             `json:"total"` // how many actors the query selects
	Kinds  []kindCountJSON `json:"kinds"` // how many of each kind it selects, before ?kind=
}

// serveActors serves a page of the tree: the children of ?parent=path
// (kind/id pairs; default: the top level), or with ?all=1 every actor;
// of those, the ones whose path contains ?q= (ignoring case) and those of
// ?kind=; sorted by kind, then id, then path; ?limit= of them after
// ?after= (the previous page's next). The actors are read from the
// latest snapshot's index (less than an interval old), their figures
// when the page is served.
func (o *Observer) serveActors(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	tq := treeQuery{kind: q.Get("kind"), q: q.Get("q")}
	switch q.Get("all") {
	case "", "0", "false":
	case "1", "true":
		tq.all = true
	default:
		http.Error(w, "all: want 1 or 0", http.StatusBadRequest)
		return
	}
	if p := q.Get("parent"); p != "" && !tq.all {
		ref, ok := parseRef(o.sys, p)
		if !ok {
			http.Error(w, "parent: want a path, kind/id pairs", http.StatusBadRequest)
			return
		}
		if _, live := o.sys.Actor(ref); !live {
			httpError(w, fmt.Errorf("%w: %s", actor.ErrNotFound, ref))
			return
		}
		tq.parent = ref.Path()
	}
	var after actor.Ref
	if a := q.Get("after"); a != "" {
		ref, ok := parseRef(o.sys, a)
		if !ok {
			http.Error(w, "after: want the path the previous page gave as next", http.StatusBadRequest)
			return
		}
		after = ref
	}
	limit := pageLimit
	if l := q.Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 {
			http.Error(w, "limit: want a positive number", http.StatusBadRequest)
			return
		}
		limit = min(n, pageLimit)
	}
	snap, err := o.snapshot(o.interval, true)
	if err != nil {
		httpError(w, err)
		return
	}
	view := snap.tree.view(tq)
	rows, more := view.page(after, limit)
	out := actorsJSON{Actors: make([]actorJSON, 0, len(rows)), Total: len(view.rows), Kinds: view.kinds}
	for _, row := range rows {
		if a, live := o.sys.Actor(row.ref); live { // the latest figures; one stopped since the snapshot is left out
			out.Actors = append(out.Actors, toJSON(&a))
		}
	}
	if more && len(rows) > 0 {
		out.Next = rows[len(rows)-1].ref.Path()
	}
	writeJSON(w, out)
}

// inspectTimeout bounds how long inspecting waits for a busy actor.
const inspectTimeout = 2 * time.Second

// serveActor inspects ?ref=path.
func (o *Observer) serveActor(w http.ResponseWriter, r *http.Request) {
	ref, ok := parseRef(o.sys, r.URL.Query().Get("ref"))
	if !ok {
		http.Error(w, "ref: want a path, kind/id pairs", http.StatusBadRequest)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), inspectTimeout)
	defer cancel()
	d, err := o.sys.Inspect(ctx, ref)
	if err != nil {
		httpError(w, err)
		return
	}
	writeJSON(w, detailToJSON(&d))
}

// serveAction stops or restarts ?ref=path, if actions are enabled.
func (o *Observer) serveAction(w http.ResponseWriter, r *http.Request) {
	if !o.actions {
		http.Error(w, "the observer is read-only (see observe.WithActions)", http.StatusForbidden)
		return
	}
	ref, ok := parseRef(o.sys, r.URL.Query().Get("ref"))
	if !ok {
		http.Error(w, "ref: want a path, kind/id pairs", http.StatusBadRequest)
		return
	}
	if _, live := o.sys.Actor(ref); !live {
		httpError(w, fmt.Errorf("%w: %s", actor.ErrNotFound, ref))
		return
	}
	switch r.PathValue("action") {
	case "stop":
		o.sys.Stop(ref)
	case "restart":
		if err := o.sys.Restart(ref); err != nil {
			httpError(w, err)
			return
		}
	default:
		http.Error(w, "unknown action", http.StatusNotFound)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func httpError(w http.ResponseWriter, err error) {
	code := http.StatusInternalServerError
	switch {
	case errors.Is(err, actor.ErrBadCursor):
		code = http.StatusBadRequest
	case errors.Is(err, actor.ErrNotFound), errors.Is(err, actor.ErrStopped):
		code = http.StatusNotFound
	case errors.Is(err, context.DeadlineExceeded):
		code = http.StatusGatewayTimeout
	case errors.Is(err, context.Canceled):
		code = http.StatusServiceUnavailable
	}
	http.Error(w, err.Error(), code)
}

// typeName names a message's type for the dead-letter view.
func typeName(v any) string { return reflect.TypeOf(v).String() }
