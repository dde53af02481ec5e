package observe

import (
	"testing"
	"time"
)

func TestHistoryRatesAndBounds(t *testing.T) {
	h := newHistory(3)
	t0 := time.Unix(100, 0)
	for i := range 5 {
		h.record(t0.Add(time.Duration(i)*time.Second), map[string]uint64{"busy": uint64(i * 100), "calm": uint64(i)})
	}
	r := h.json()
	if len(r.Times) != 3 {
		t.Fatalf("%d points kept, want 3", len(r.Times))
	}
	if len(r.Series) != 2 || r.Series[0].Kind != "busy" || r.Series[0].Values[2] != 100 || r.Series[1].Values[0] != 1 {
		t.Fatalf("series %+v", r.Series)
	}
	if got := h.lastRates()["busy"]; got != 100 {
		t.Fatalf("last rate %v, want 100/s", got)
	}
}

func TestDeadLogKeepsTheLatest(t *testing.T) {
	l := newDeadLog(3)
	for i := range 5 {
		l.add(deadJSON{To: string(rune('a' + i))})
	}
	got := l.latest(2)
	if len(got) != 2 || got[0].To != "d" || got[1].To != "e" || got[1].Seq != 5 {
		t.Fatalf("latest %+v", got)
	}
	if all := l.since(3); len(all) != 2 {
		t.Fatalf("since 3: %+v", all)
	}
}
