package suite

import (
	"math"
	"sort"
)

// Spread is the min / median / max of a set of runs.
type Spread struct {
	Min, Median, Max float64
	N                int
}

// spreadOf summarises vs; ok is false when vs is empty.
func spreadOf(vs []float64) (s Spread, ok bool) {
	if len(vs) == 0 {
		return Spread{}, false
	}
	sorted := append([]float64(nil), vs...)
	sort.Float64s(sorted)
	n := len(sorted)
	med := sorted[n/2]
	if n%2 == 0 {
		med = (sorted[n/2-1] + sorted[n/2]) / 2
	}
	return Spread{Min: sorted[0], Median: med, Max: sorted[n-1], N: n}, true
}

// Verdict is the outcome of one target.
type Verdict string

// The verdicts, as printed.
const (
	Met          Verdict = "met"
	Missed       Verdict = "missed"
	Inconclusive Verdict = "inconclusive"
	NotAvailable Verdict = "n/a"
)

// values returns, run by run, the quantity target t judges: troupe's figure,
// or its ratio to the other system's figure in the same run. Failed runs
// and undefined ratios are skipped.
func (t Target) values(troupe, other []Sample) []float64 {
	var out []float64
	for i, s := range troupe {
		if s.Err != nil {
			continue
		}
		v := t.Metric.Value(s.Figures)
		if t.Against != "" || t.Scenario != "" {
			if i >= len(other) || other[i].Err != nil {
				continue
			}
			o := t.Metric.Value(other[i].Figures)
			if t.Speedup {
				v, o = o, v
			}
			if o == 0 {
				continue
			}
			v /= o
		}
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			out = append(out, v)
		}
	}
	return out
}

// judge decides t by the median; when the min–max spread straddles the
// limit the result is inconclusive.
func (t Target) judge(troupe, other []Sample) (Spread, Verdict) {
	s, ok := spreadOf(t.values(troupe, other))
	if !ok {
		return s, NotAvailable
	}
	lo, hi := t.meets(s.Min), t.meets(s.Max)
	switch {
	case lo != hi:
		return s, Inconclusive
	case t.meets(s.Median):
		return s, Met
	default:
		return s, Missed
	}
}
