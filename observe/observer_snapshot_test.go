package observe_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/loop"
	"github.com/troupe-go/troupe/observe"
)

// TestObserverSharesOneSummaryPerInterval: however often clients ask, the
// server reads the system at most once per interval.
func TestObserverSharesOneSummaryPerInterval(t *testing.T) {
	vc := loop.NewVirtualClock()
	s := busySystem(t)
	o := newObserver(t, s, observe.WithClock(vc), observe.WithInterval(time.Second))
	actors := func() int {
		t.Helper()
		var sum struct{ Actors int }
		if code, body := get(t, o, "/api/summary", &sum); code != http.StatusOK {
			t.Fatalf("%d %s", code, body)
		}
		return sum.Actors
	}
	if n := actors(); n != 6 {
		t.Fatalf("%d actors, want 6", n)
	}
	if _, err := s.Spawn("worker", "new", func() actor.Actor {
		return actor.ActorFunc(func(*actor.Context, any) (any, error) { return nil, nil })
	}); err != nil {
		t.Fatal(err)
	}
	for range 10 {
		if n := actors(); n != 6 {
			t.Fatalf("%d actors within the interval, want the 6 of the shared summary", n)
		}
	}
	vc.Advance(999 * time.Millisecond)
	if n := actors(); n != 6 {
		t.Fatalf("%d actors 999 ms later, want 6", n)
	}
	vc.Advance(time.Millisecond)
	if n := actors(); n != 7 {
		t.Fatalf("%d actors an interval later, want 7", n)
	}
}

// TestObserverKeepsRatesWithoutPage: the rate history is recorded while
// no page looks, so a page opened later plots it at once.
func TestObserverKeepsRatesWithoutPage(t *testing.T) {
	vc := loop.NewVirtualClock()
	s := busySystem(t)
	o := newObserver(t, s, observe.WithClock(vc))
	w0 := actor.NewRef("obs", "worker", "0")
	for range 2 {
		for i := range 20 {
			if _, err := actor.Ask[int](context.Background(), s, w0, i); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.Inspect(context.Background(), w0); err != nil { // its loop publishes its counts first
			t.Fatal(err)
		}
		vc.Advance(5 * time.Second)
	}
	var sum struct {
		Rates struct {
			Times  []int64 `json:"times"`
			Series []struct {
				Kind   string    `json:"kind"`
				Values []float64 `json:"values"`
			} `json:"series"`
		} `json:"rates"`
	}
	if code, body := get(t, o, "/api/summary", &sum); code != http.StatusOK {
		t.Fatalf("%d %s", code, body)
	}
	r := sum.Rates
	if len(r.Times) != 2 || r.Times[1]-r.Times[0] != 5000 {
		t.Fatalf("times %v, want two points 5 s apart", r.Times)
	}
	if len(r.Series) == 0 || r.Series[0].Kind != "worker" || r.Series[0].Values[0] < 4 || r.Series[0].Values[1] < 4 {
		t.Fatalf("series %+v, want worker at 20 asks (and an inspection) per 5 s", r.Series)
	}
}
