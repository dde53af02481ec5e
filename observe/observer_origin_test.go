package observe_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/observe"
)

// TestObserverRefusesCrossOriginActions forges what a browser sends with a
// request another site's page makes: a state-changing request is refused
// unless it comes from the observer's own origin, or from no browser at
// all (curl sends neither header).
func TestObserverRefusesCrossOriginActions(t *testing.T) {
	for _, tt := range []struct {
		name    string
		headers map[string]string
		want    int
	}{
		{"no browser headers", nil, http.StatusNoContent},
		{"same origin", map[string]string{"Sec-Fetch-Site": "same-origin", "Origin": "http://observer.example"}, http.StatusNoContent},
		{"typed in the address bar", map[string]string{"Sec-Fetch-Site": "none"}, http.StatusNoContent},
		{"cross-site page", map[string]string{"Sec-Fetch-Site": "cross-site", "Origin": "http://evil.example"}, http.StatusForbidden},
		{"same-site page (another port)", map[string]string{"Sec-Fetch-Site": "same-site", "Origin": "http://observer.example:8081"}, http.StatusForbidden},
		{"cross-site without an origin", map[string]string{"Sec-Fetch-Site": "cross-site"}, http.StatusForbidden},
		{"older browser: foreign origin", map[string]string{"Origin": "http://evil.example"}, http.StatusForbidden},
		{"older browser: own origin", map[string]string{"Origin": "http://observer.example"}, http.StatusNoContent},
		{"opaque origin", map[string]string{"Origin": "null"}, http.StatusForbidden},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := busySystem(t)
			stopped := make(chan actor.Ref, 8)
			defer s.SubscribeEvents(func(e actor.Event) {
				if e.Kind == actor.Stopped {
					select {
					case stopped <- e.Actor:
					default:
					}
				}
			})()
			o := newObserver(t, s, observe.WithActions())
			for _, action := range []string{"restart", "stop"} {
				req := httptest.NewRequest(http.MethodPost, "http://observer.example/api/actor/"+action+"?ref=worker/0", nil)
				for k, v := range tt.headers {
					req.Header.Set(k, v)
				}
				rec := httptest.NewRecorder()
				o.ServeHTTP(rec, req)
				if rec.Code != tt.want {
					t.Fatalf("POST %s: %d %q, want %d", action, rec.Code, rec.Body, tt.want)
				}
			}
			w0 := actor.NewRef("obs", "worker", "0")
			if tt.want != http.StatusForbidden {
				if r := <-stopped; r != w0 {
					t.Fatalf("stopped %s, want %s", r, w0)
				}
				return
			}
			// Refused: neither restarted nor stopped, it answers as before.
			if n, err := actor.Ask[int](context.Background(), s, w0, 7); err != nil || n != 7 {
				t.Fatalf("worker/0 after refused actions: %d, %v", n, err)
			}
			if a, _ := s.Actor(w0); a.Restarts != 0 {
				t.Fatalf("worker/0 restarted %d times by refused requests", a.Restarts)
			}
		})
	}
}
