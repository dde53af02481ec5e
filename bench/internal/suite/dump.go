package suite

import (
	"encoding/json"
	"io"

	"github.com/troupe-go/troupe/bench/internal/measure"
)

// record is one sample as [WriteJSON] writes it.
type record struct {
	Scenario     string           `json:"scenario"`
	System       string           `json:"system"`
	Run          int              `json:"run"`
	Figures      *measure.Figures `json:"figures,omitempty"`
	ProcessCPUNs int64            `json:"process_cpu_ns"`
	Error        string           `json:"error,omitempty"`
}

// WriteJSON writes every sample of res as a JSON array, for analysis
// beyond the markdown table.
func WriteJSON(w io.Writer, res *Results) error {
	var out []record
	for _, sc := range res.Scenarios {
		for _, sys := range res.Systems {
			for i, s := range res.Samples[Case{sc.Name, sys}] {
				r := record{Scenario: sc.Name, System: sys, Run: i + 1, ProcessCPUNs: s.ProcessCPU.Nanoseconds()}
				if s.Err != nil {
					r.Error = s.Err.Error()
				} else {
					r.Figures = &s.Figures
				}
				out = append(out, r)
			}
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
