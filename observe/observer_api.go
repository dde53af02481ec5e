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

func (o *Observer) serveSummary(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, o.summary())
}

// serveActors serves a page of actors: ?parent=path (kind/id pairs; default: the top
// level), ?kind=, ?after= (the previous page's next), ?limit=.
func (o *Observer) serveActors(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	opts := actor.ListOptions{Kind: q.Get("kind"), After: q.Get("after"), Limit: pageLimit}
	if p := q.Get("parent"); p != "" {
		ref, ok := parseRef(o.sys, p)
		if !ok {
			http.Error(w, "parent: want a path, kind/id pairs", http.StatusBadRequest)
			return
		}
		opts.Parent = ref
	}
	if l := q.Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 {
			http.Error(w, "limit: want a positive number", http.StatusBadRequest)
			return
		}
		opts.Limit = min(n, pageLimit)
	}
	page, next, err := o.sys.Actors(opts)
	if err != nil {
		httpError(w, err)
		return
	}
	out := struct {
		Actors []actorJSON `json:"actors"`
		Next   string      `json:"next"`
	}{Actors: make([]actorJSON, len(page)), Next: next}
	for i := range page {
		out.Actors[i] = toJSON(&page[i])
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
