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

func TestCompareNatural(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{
		{"9", "10", -1},
		{"10", "9", 1},
		{"s009", "s010", -1},
		{"007", "7", 0},
		{"a", "b", -1},
		{"clerk2", "clerk10", -1},
		{"x", "x1", -1},
		{"", "", 0},
		{"b1", "a2", 1},
		{"1a", "1b", -1},
	} {
		if got := compareNatural(tt.a, tt.b); got != tt.want {
			t.Errorf("compareNatural(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestParentPath(t *testing.T) {
	for path, want := range map[string]string{"a/1": "", "a/1/b/2": "a/1", "a/1/b/2/c/%2F": "a/1/b/2", "": ""} {
		if got := parentPath(path); got != want {
			t.Errorf("parentPath(%q) = %q, want %q", path, got, want)
		}
	}
}

// FuzzCompareNatural: ids come from users; the order must be one a sort
// can use (antisymmetric, and equal only for ids that read the same).
func FuzzCompareNatural(f *testing.F) {
	for _, s := range [][3]string{{"9", "10", "a"}, {"s009", "s010", "s9"}, {"007", "7", "07"}, {"x1y", "x01y", "x1z"}} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, a, b, c string) {
		ab, ba := compareNatural(a, b), compareNatural(b, a)
		if ab != -ba {
			t.Fatalf("compare(%q, %q) = %d but compare(%q, %q) = %d", a, b, ab, b, a, ba)
		}
		if a == b && ab != 0 {
			t.Fatalf("compare(%q, %q) = %d", a, b, ab)
		}
		if ab <= 0 && compareNatural(b, c) <= 0 && compareNatural(a, c) > 0 {
			t.Fatalf("not transitive: %q <= %q <= %q but %q > %q", a, b, c, a, c)
		}
	})
}
