package observe_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/troupe-go/troupe/actor"
)

// treeSystem has, at the top level, zoo/z and the parent p/x, whose
// children are b/10, b/9, b/2 and a/only, spawned in that order.
func treeSystem(t testing.TB) *actor.System {
	t.Helper()
	s, err := actor.NewSystem("tree")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Shutdown(context.Background()) })
	idle := func() actor.Actor {
		return actor.ActorFunc(func(*actor.Context, any) (any, error) { return nil, nil })
	}
	if _, err := s.Spawn("zoo", "z", idle); err != nil {
		t.Fatal(err)
	}
	p, err := s.Spawn("p", "x", func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, _ any) (any, error) {
			for _, k := range [][2]string{{"b", "10"}, {"b", "9"}, {"b", "2"}, {"a", "only"}} {
				if _, err := c.Spawn(k[0], k[1], idle); err != nil {
					return nil, err
				}
			}
			return nil, nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := actor.Ask[any](context.Background(), s, p, "spawn"); err != nil {
		t.Fatal(err)
	}
	return s
}

type treePage struct {
	Actors []struct {
		Ref string `json:"ref"`
	} `json:"actors"`
	Next  string `json:"next"`
	Total int    `json:"total"`
	Kinds []struct {
		Kind   string `json:"kind"`
		Actors int    `json:"actors"`
	} `json:"kinds"`
}

func (p treePage) refs() string {
	var out []string
	for _, a := range p.Actors {
		out = append(out, a.Ref)
	}
	return strings.Join(out, " ")
}

func (p treePage) kinds() string {
	var out []string
	for _, k := range p.Kinds {
		out = append(out, fmt.Sprintf("%s:%d", k.Kind, k.Actors))
	}
	return strings.Join(out, " ")
}

func TestObserverTreeIsSortedAndFiltered(t *testing.T) {
	o := newObserver(t, treeSystem(t))
	for _, tt := range []struct {
		name, query       string
		refs, kinds, next string
		total             int
	}{
		{"top level by kind", "", "p/x zoo/z", "p:1 zoo:1", "", 2},
		{"a level: kinds, then ids as numbers", "parent=p/x", "p/x/a/only p/x/b/2 p/x/b/9 p/x/b/10", "a:1 b:3", "", 4},
		{"one kind of a level", "parent=p/x&kind=b", "p/x/b/2 p/x/b/9 p/x/b/10", "a:1 b:3", "", 3},
		{"a page", "parent=p/x&kind=b&limit=2", "p/x/b/2 p/x/b/9", "a:1 b:3", "p/x/b/9", 3},
		{"the next page", "parent=p/x&kind=b&limit=2&after=p/x/b/9", "p/x/b/10", "a:1 b:3", "", 3},
		{"by name, ignoring case, in the level", "parent=p/x&q=ONL", "p/x/a/only", "a:1", "", 1},
		{"by name anywhere", "all=1&q=z", "zoo/z", "zoo:1", "", 1},
		{"by name anywhere: a parent's path matches its children", "all=1&q=p/x", "p/x/a/only p/x/b/2 p/x/b/9 p/x/b/10 p/x", "a:1 b:3 p:1", "", 5},
		{"by kind anywhere", "all=1&kind=b", "p/x/b/2 p/x/b/9 p/x/b/10", "a:1 b:3 p:1 zoo:1", "", 3},
		{"nothing matches", "q=nobody", "", "", "", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var page treePage
			if code, body := get(t, o, "/api/actors?"+tt.query, &page); code != http.StatusOK {
				t.Fatalf("%d %s", code, body)
			}
			if got := page.refs(); got != tt.refs {
				t.Errorf("refs %q, want %q", got, tt.refs)
			}
			if got := page.kinds(); got != tt.kinds {
				t.Errorf("kinds %q, want %q", got, tt.kinds)
			}
			if page.Next != tt.next || page.Total != tt.total {
				t.Errorf("next %q total %d, want %q %d", page.Next, page.Total, tt.next, tt.total)
			}
		})
	}
	for _, tt := range []struct {
		query string
		code  int
	}{
		{"parent=nokind", http.StatusBadRequest},
		{"parent=p/none", http.StatusNotFound},
		{"all=maybe", http.StatusBadRequest},
		{"after=zz", http.StatusBadRequest},
		{"limit=0", http.StatusBadRequest},
	} {
		if code, _ := get(t, o, "/api/actors?"+tt.query, nil); code != tt.code {
			t.Errorf("GET /api/actors?%s: %d, want %d", tt.query, code, tt.code)
		}
	}
}

// FuzzActorsQuery: whatever the query, the tree's endpoint answers a
// page, or says what is wrong with the query; it never fails otherwise.
func FuzzActorsQuery(f *testing.F) {
	for _, q := range []string{"", "parent=p/x", "parent=p/x&kind=b&limit=2&after=p/x/b/9", "all=1&q=Z", "after=%ZZ", "parent=a/b/c", "limit=99999"} {
		f.Add(q)
	}
	o := newObserver(f, treeSystem(f))
	f.Fuzz(func(t *testing.T, query string) {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodGet, "/api/actors", nil)
		req.URL.RawQuery = query
		o.ServeHTTP(rec, req)
		switch rec.Code {
		case http.StatusOK:
			var page treePage
			if err := json.Unmarshal(rec.Body.Bytes(), &page); err != nil {
				t.Fatalf("%q: %v in %s", query, err, rec.Body)
			}
			if len(page.Actors) > 200 {
				t.Fatalf("%q: a page of %d", query, len(page.Actors))
			}
		case http.StatusBadRequest, http.StatusNotFound:
		default:
			t.Fatalf("%q: %d %s", query, rec.Code, rec.Body)
		}
	})
}
