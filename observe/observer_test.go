package observe_test

import (
	"bufio"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/observe"
)

func newObserver(t testing.TB, s *actor.System, opts ...observe.ObserverOption) *observe.Observer {
	t.Helper()
	o, err := observe.NewObserver(s, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = o.Close() })
	return o
}

// get serves a GET through h and decodes a JSON answer into v (if not
// nil); it returns the status and the body.
func get(t *testing.T, h http.Handler, url string, v any) (int, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, url, nil))
	if v != nil && rec.Code == http.StatusOK {
		if err := json.Unmarshal(rec.Body.Bytes(), v); err != nil {
			t.Fatalf("%s: %v in %s", url, err, rec.Body)
		}
	}
	return rec.Code, rec.Body.String()
}

func TestObserverServesThePage(t *testing.T) {
	o := newObserver(t, busySystem(t))
	for _, tt := range []struct{ url, want string }{
		{"/", "<title>troupe observer</title>"},
		{"/app.js", "EventSource"},
		{"/style.css", "--accent"},
	} {
		code, body := get(t, o, tt.url, nil)
		if code != http.StatusOK || !strings.Contains(body, tt.want) {
			t.Errorf("GET %s: %d, body without %q", tt.url, code, tt.want)
		}
	}
}

type actorsPage struct {
	Actors []struct {
		Ref      string `json:"ref"`
		Restarts uint64 `json:"restarts"`
	} `json:"actors"`
	Next string `json:"next"`
}

func TestObserverPagesAndInspectsActors(t *testing.T) {
	o := newObserver(t, busySystem(t))
	seen := map[string]bool{}
	for after := ""; ; {
		var page actorsPage
		if code, body := get(t, o, "/api/actors?limit=2&after="+after, &page); code != http.StatusOK {
			t.Fatalf("%d %s", code, body)
		}
		if len(page.Actors) > 2 {
			t.Fatalf("page of %d, limit 2", len(page.Actors))
		}
		for _, a := range page.Actors {
			seen[a.Ref] = true
		}
		if page.Next == "" {
			break
		}
		after = page.Next
	}
	if len(seen) != 6 {
		t.Fatalf("paged through %d actors, want 6: %v", len(seen), seen)
	}
	var d struct {
		Restarts uint64 `json:"restarts"`
		Failures []struct {
			Error string `json:"error"`
		} `json:"failures"`
	}
	if code, body := get(t, o, "/api/actor?ref=cache/c", &d); code != http.StatusOK {
		t.Fatalf("%d %s", code, body)
	}
	if d.Restarts != 1 || len(d.Failures) != 1 || !strings.Contains(d.Failures[0].Error, "boom") {
		t.Fatalf("inspected %+v", d)
	}
	for _, tt := range []struct {
		url  string
		code int
	}{
		{"/api/actor?ref=nokind", http.StatusBadRequest},
		{"/api/actor?ref=cache/none", http.StatusNotFound},
		{"/api/actors?parent=cache/none", http.StatusNotFound},
		{"/api/actors?limit=-1", http.StatusBadRequest},
		{"/api/actors?after=zz", http.StatusBadRequest},
	} {
		if code, _ := get(t, o, tt.url, nil); code != tt.code {
			t.Errorf("GET %s: %d, want %d", tt.url, code, tt.code)
		}
	}
}

func TestObserverIsReadOnlyUnlessActionsAreOn(t *testing.T) {
	s := busySystem(t)
	stopped := make(chan actor.Ref, 1)
	cancel := s.SubscribeEvents(func(e actor.Event) {
		if e.Kind == actor.Stopped {
			select {
			case stopped <- e.Actor:
			default:
			}
		}
	})
	defer cancel()
	post := func(h http.Handler, url string) int {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, url, nil))
		return rec.Code
	}
	ro := newObserver(t, s)
	if code := post(ro, "/api/actor/stop?ref=worker/0"); code != http.StatusForbidden {
		t.Fatalf("stop on a read-only observer: %d, want 403", code)
	}
	rw := newObserver(t, s, observe.WithActions())
	if code := post(rw, "/api/actor/restart?ref=worker/1"); code != http.StatusNoContent {
		t.Fatalf("restart: %d", code)
	}
	if code := post(rw, "/api/actor/stop?ref=worker/0"); code != http.StatusNoContent {
		t.Fatalf("stop: %d", code)
	}
	if r := <-stopped; r.ID() != "0" {
		t.Fatalf("stopped %s, want worker/0", r)
	}
	if code := post(rw, "/api/actor/stop?ref=worker/none"); code != http.StatusNotFound {
		t.Fatalf("stop of no actor: %d", code)
	}
}

func TestObserverStreamsSummaries(t *testing.T) {
	s := busySystem(t)
	o := newObserver(t, s)
	_ = s.Tell(actor.NewRef("obs", "none", "y"), "lost") // after the observer subscribed
	srv := httptest.NewServer(o)
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/api/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	var event, data string
	for sc.Scan() && (event == "" || data == "") {
		line := sc.Text()
		if v, ok := strings.CutPrefix(line, "event: "); ok {
			event = v
		}
		if v, ok := strings.CutPrefix(line, "data: "); ok {
			data = v
		}
	}
	var sum struct {
		Actors int `json:"actors"`
		Dead   []struct {
			Reason string `json:"reason"`
			To     string `json:"to"`
		} `json:"dead"`
	}
	if err := json.Unmarshal([]byte(data), &sum); err != nil || event != "summary" {
		t.Fatalf("event %q data %q: %v", event, data, err)
	}
	if sum.Actors != 6 || len(sum.Dead) != 1 || sum.Dead[0].Reason != "not_found" || sum.Dead[0].To != "none/y" {
		t.Fatalf("summary %+v", sum)
	}
	_ = o.Close() // ends the stream
	for sc.Scan() {
	}
}
