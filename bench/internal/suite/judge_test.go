package suite

import (
	"errors"
	"testing"

	"github.com/troupe-go/troupe/bench/internal/measure"
)

func samples(ns ...float64) []Sample {
	out := make([]Sample, len(ns))
	for i, v := range ns {
		if v < 0 {
			out[i].Err = errors.New("failed run")
			continue
		}
		out[i].Figures = measure.Figures{Ops: 1, NsPerOp: v}
	}
	return out
}

func TestJudge(t *testing.T) {
	abs := Target{Metric: Time, Limit: 50}
	ratio := Target{Metric: Time, Against: "peer", Limit: 1.1}
	speedup := Target{Metric: Time, Against: "peer", Speedup: true, Limit: 1.5}
	flat := Target{Metric: Time, Scenario: "mesh_100", Limit: 1.3}
	tests := []struct {
		name          string
		target        Target
		troupe, other []Sample
		want          Verdict
		wantMedian    float64
	}{
		{"abs met", abs, samples(40, 45, 42), nil, Met, 42},
		{"abs missed", abs, samples(60, 55, 70), nil, Missed, 60},
		{"abs straddles", abs, samples(40, 45, 55), nil, Inconclusive, 45},
		{"abs at limit", abs, samples(50, 50, 50), nil, Met, 50},
		{"failed runs skipped", abs, samples(40, -1, 42), nil, Met, 41},
		{"no runs", abs, nil, nil, NotAvailable, 0},
		{"ratio met", ratio, samples(100, 100, 100), samples(100, 95, 110), Met, 1},
		{"ratio paired by run", ratio, samples(100, 200), samples(100, 200), Met, 1},
		{"ratio missed", ratio, samples(130, 130, 130), samples(100, 100, 100), Missed, 1.3},
		{"ratio straddles", ratio, samples(100, 120, 105), samples(100, 100, 100), Inconclusive, 1.05},
		{"ratio peer failed", ratio, samples(100), samples(-1), NotAvailable, 0},
		{"speedup met", speedup, samples(20, 20, 20), samples(40, 40, 40), Met, 2},
		{"speedup missed", speedup, samples(40, 40, 40), samples(40, 44, 48), Missed, 1.1},
		{"flat met", flat, samples(120, 110, 125), samples(100, 100, 100), Met, 1.2},
		{"flat missed", flat, samples(150, 140, 160), samples(100, 100, 100), Missed, 1.5},
		{"flat straddles", flat, samples(120, 140, 110), samples(100, 100, 100), Inconclusive, 1.2},
		{"zero target with slack", Target{Metric: Time, Limit: 0, Slack: 0.001}, samples(0, 0.0005, 0), nil, Met, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, v := tt.target.judge(tt.troupe, tt.other)
			if v != tt.want {
				t.Errorf("verdict = %s, want %s (spread %+v)", v, tt.want, s)
			}
			if v != NotAvailable && s.Median != tt.wantMedian {
				t.Errorf("median = %g, want %g", s.Median, tt.wantMedian)
			}
		})
	}
}

func TestFormatValue(t *testing.T) {
	tests := []struct {
		v    float64
		unit string
		want string
	}{
		{4.25, "ns", "4.25 ns"},
		{42.14, "ns", "42.1 ns"},
		{420.4, "ns", "420 ns"},
		{15_900, "ns", "15.9 µs"},
		{2_500_000, "ns", "2.50 ms"},
		{312, "B", "312 B"},
		{37_700, "B", "37.7 kB"},
		{1_310_000, "B", "1.31 MB"},
		{769.2, "MB", "769.2 MB"},
		{5.981, "s", "5.98 s"},
		{0, "", "0"},
		{0.0002, "", "2.0e-04"},
		{7, "", "7"},
	}
	for _, tt := range tests {
		if got := formatValue(tt.v, tt.unit); got != tt.want {
			t.Errorf("formatValue(%g, %q) = %q, want %q", tt.v, tt.unit, got, tt.want)
		}
	}
}

func TestTargetString(t *testing.T) {
	tests := []struct {
		target Target
		want   string
	}{
		{Target{Metric: Time, Limit: 50}, "≤ 50 ns"},
		{Target{Metric: Allocs, Limit: 0, Slack: 0.001}, "0 (≤ 0.001)"},
		{Target{Metric: Goroutines, Limit: 0}, "0"},
		{Target{Metric: TotalBytes, Limit: 500}, "≤ 500 MB"},
		{Target{Metric: SpawnTime, Limit: 1.1}, "≤ 1.1 s"},
		{Target{Metric: Time, Against: "go-eventloop", Speedup: true, Limit: 1.5}, "≥ 1.5× faster than go-eventloop"},
		{Target{Metric: Time, Against: "raw channels", Speedup: true, Limit: 0.8}, "≥ 0.8× the speed of raw channels"},
		{Target{Metric: CPU, Against: "raw channels", Limit: 1.5}, "≤ 1.5× raw channels"},
		{Target{Metric: Time, Scenario: "mesh_100", Limit: 1.3}, "≤ 1.3× mesh_100"},
	}
	for _, tt := range tests {
		if got := tt.target.String(); got != tt.want {
			t.Errorf("%+v: got %q, want %q", tt.target, got, tt.want)
		}
	}
}
