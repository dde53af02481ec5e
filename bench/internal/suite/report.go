package suite

import (
	"fmt"
	"io"
	"math"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/troupe-go/troupe/bench/internal/systems"
)

// Report is what [Render] prints besides the results: how the run was made.
type Report struct {
	Command string
	Machine Machine
	Started time.Time
	Elapsed time.Duration
}

// Render writes the markdown report of res to w. It ends with the line
// "N of M targets met".
func Render(w io.Writer, rep Report, res *Results) {
	p := &printer{w: w}
	p.printf("# %s\n\n", res.Suite.Heading())
	p.printf("Command: `%s` (%s, %s)\n\n", rep.Command, rep.Started.UTC().Format(time.RFC3339), rep.Elapsed.Round(time.Second))
	renderMachine(p, rep.Machine, res)
	renderDefinitions(p, res)
	met, total := renderResults(p, res)
	renderNotes(p, res)
	renderProcessCPU(p, res)
	p.printf("%d of %d targets met\n", met, total)
}

type printer struct{ w io.Writer }

func (p *printer) printf(format string, args ...any) { fmt.Fprintf(p.w, format, args...) }

func renderMachine(p *printer, m Machine, res *Results) {
	p.printf("## Machine\n\n")
	p.printf("- CPU: %s; %d cores\n", m.CPUModel, m.Cores)
	p.printf("- Go: %s %s/%s\n", m.GoVersion, runtime.GOOS, runtime.GOARCH)
	p.printf("- Every child: %s; %d interleaved runs per case", strings.Join(res.Env, " "), res.Runs)
	if res.Quick {
		p.printf("; **quick mode: counts ÷ 100, smoke test only**")
	}
	p.printf("\n- Peers: %s\n\n", peerVersions(res.Suite.Peers))
}

// peerVersions lists the build's versions of the modules at paths.
func peerVersions(paths []string) string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	var out []string
	for _, d := range info.Deps {
		if slices.Contains(paths, d.Path) {
			out = append(out, d.Path+" "+d.Version)
		}
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

func renderDefinitions(p *printer, res *Results) {
	p.printf("## Definitions\n\n")
	p.printf("| scenario | definition | counts |\n|---|---|---|\n")
	for _, s := range res.Scenarios {
		c := s.ParamsFor(res.Quick)
		counts := "N=" + countName(c.N)
		if c.Pending > 0 {
			counts += ", pending=" + countName(c.Pending)
		}
		if c.Batch > 0 {
			counts += ", batch=" + countName(c.Batch)
		}
		if c.Senders > 0 {
			counts += ", senders=" + countName(c.Senders)
		}
		if c.Actors > 0 {
			counts += ", actors=" + countName(c.Actors)
		}
		p.printf("| %s | %s | %s |\n", s.Name, s.Definition, counts)
	}
	p.printf("\n%s\n\n", res.Suite.Method)
}

// renderResults prints one row per target and returns how many were met.
func renderResults(p *printer, res *Results) (met, total int) {
	p.printf("## Results\n\n")
	p.printf("Cells: median [min–max] over runs. Ratio: troupe ÷ the named system, run by run (for speed-ups, the named system ÷ troupe). ")
	p.printf("A target is judged by the median, and is inconclusive when the min–max spread straddles it. ")
	p.printf("A time target met while troupe's CPU per operation exceeded %.3g× its time per operation says so beside the verdict.\n\n", cpuFlagRatio)
	p.printf("| scenario | metric | %s | ratio | target | verdict |\n", strings.Join(res.Systems, " | "))
	p.printf("|---|---|%s---|---|---|\n", strings.Repeat("---|", len(res.Systems)))
	for _, s := range res.Scenarios {
		if len(s.Targets) == 0 { // reported for the record, or as another row's baseline
			renderRow(p, res, s, Target{Metric: Time}, false)
			continue
		}
		for _, t := range s.Targets {
			v := renderRow(p, res, s, t, true)
			total++
			if v == Met {
				met++
			}
		}
	}
	p.printf("\n")
	return met, total
}

// renderRow prints one target's row; an unjudged row (a scenario without
// targets) shows the figures and the ratio to the reference only.
func renderRow(p *printer, res *Results, s Scenario, t Target, judged bool) Verdict {
	troupe := res.Samples[Case{s.Name, systems.Troupe}]
	cells := make([]string, 0, len(res.Systems))
	for _, sys := range res.Systems {
		cells = append(cells, cell(res, Case{s.Name, sys}, t.Metric))
	}
	against, shown := t.Against, t
	if against == "" && (t.Metric.Name == Time.Name || t.Metric.Name == SpawnTime.Name) {
		against, shown = res.Suite.Reference, Target{Metric: t.Metric, Against: res.Suite.Reference}
	}
	ratio := "—"
	baseline := res.Samples[Case{s.Name, against}]
	if t.Scenario != "" { // troupe against itself in another scenario
		against, shown, baseline = t.Scenario, t, res.Samples[Case{t.Scenario, systems.Troupe}]
	}
	if against != "" {
		if sp, ok := spreadOf(shown.values(troupe, baseline)); ok {
			ratio = fmt.Sprintf("%.2f× [%.2f–%.2f] vs %s", sp.Median, sp.Min, sp.Max, against)
		}
	}
	if t.Scenario == "" {
		baseline = res.Samples[Case{s.Name, t.Against}]
	}
	_, v := t.judge(troupe, baseline)
	metric := t.Metric.Name + " per " + s.Per
	if t.Metric.Total {
		metric = t.Metric.Name
	}
	if !judged {
		p.printf("| %s | %s | %s | %s | — | reported |\n", s.Name, metric, strings.Join(cells, " | "), ratio)
		return v
	}
	p.printf("| %s | %s | %s | %s | %s | %s%s |\n",
		s.Name, metric, strings.Join(cells, " | "), ratio, t, v, cpuFlag(t, v, troupe))
	return v
}

// cpuFlag marks a wall-time target met while troupe spent more than 1.5×
// as much CPU as wall time per operation: more than one core was busy, so
// the time alone overstates the speed.
func cpuFlag(t Target, v Verdict, troupe []Sample) string {
	if v != Met || t.Metric.Name != Time.Name {
		return ""
	}
	var wall, cpu []float64
	for _, s := range troupe {
		if s.Err == nil {
			wall = append(wall, s.Figures.NsPerOp)
			cpu = append(cpu, s.Figures.CPUNsPerOp)
		}
	}
	w, _ := spreadOf(wall)
	c, _ := spreadOf(cpu)
	if w.Median > 0 && c.Median > cpuFlagRatio*w.Median {
		return fmt.Sprintf(" (CPU/op %.2f× time/op)", c.Median/w.Median)
	}
	return ""
}

const cpuFlagRatio = 1.5

// cell renders one system's figure for metric m, with CPU per operation
// beside wall time.
func cell(res *Results, c Case, m Metric) string {
	if why, ok := res.NA[c]; ok {
		if why == "" {
			return "—"
		}
		return "n/a"
	}
	samples := res.Samples[c]
	var vs, cpu []float64
	for _, s := range samples {
		if s.Err == nil {
			vs = append(vs, m.Value(s.Figures))
			cpu = append(cpu, s.Figures.CPUNsPerOp)
		}
	}
	sp, ok := spreadOf(vs)
	if !ok {
		return "error"
	}
	out := fmt.Sprintf("%s [%s–%s]", formatValue(sp.Median, m.Unit), formatValue(sp.Min, m.Unit), formatValue(sp.Max, m.Unit))
	if m.Name == Time.Name {
		c, _ := spreadOf(cpu)
		out += "<br>CPU " + formatValue(c.Median, "ns")
	}
	if len(vs) < len(samples) {
		out += fmt.Sprintf(" (%d of %d runs failed)", len(samples)-len(vs), len(samples))
	}
	return out
}

// formatValue prints v with its unit at a precision fit for a table.
func formatValue(v float64, unit string) string {
	a := math.Abs(v)
	switch unit {
	case "ns":
		switch {
		case a >= 1e6:
			return fmt.Sprintf("%.2f ms", v/1e6)
		case a >= 1e4:
			return fmt.Sprintf("%.1f µs", v/1e3)
		case a >= 100:
			return fmt.Sprintf("%.0f ns", v)
		case a >= 10:
			return fmt.Sprintf("%.1f ns", v)
		default:
			return fmt.Sprintf("%.2f ns", v)
		}
	case "MB":
		return fmt.Sprintf("%.1f MB", v)
	case "s":
		return fmt.Sprintf("%.2f s", v)
	case "B":
		switch {
		case a >= 1e6:
			return fmt.Sprintf("%.2f MB", v/1e6)
		case a >= 1e4:
			return fmt.Sprintf("%.1f kB", v/1e3)
		default:
			return fmt.Sprintf("%.0f B", v)
		}
	default:
		switch {
		case v == 0:
			return "0"
		case a < 0.001:
			return fmt.Sprintf("%.1e", v)
		default:
			return fmt.Sprintf("%.3g", v)
		}
	}
}

func renderNotes(p *printer, res *Results) {
	var notes []string
	seen := map[string]bool{}
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			notes = append(notes, s)
		}
	}
	for _, sc := range res.Scenarios {
		for _, sys := range res.Systems {
			c := Case{sc.Name, sys}
			if why := res.NA[c]; why != "" {
				add(fmt.Sprintf("%s / %s: n/a: %s", sc.Name, sys, why))
			}
			for _, s := range res.Samples[c] {
				if s.Err != nil {
					add(fmt.Sprintf("%s / %s: error: %v", sc.Name, sys, s.Err))
				} else if s.Figures.Note != "" {
					add(fmt.Sprintf("%s / %s: %s", sc.Name, sys, s.Figures.Note))
				}
			}
		}
	}
	if len(notes) == 0 {
		return
	}
	p.printf("## Notes\n\n")
	for _, n := range notes {
		p.printf("- %s\n", n)
	}
	p.printf("\n")
}

// renderProcessCPU prints each child's whole CPU time, setup included, as
// read from its ProcessState: a cross-check on the per-operation CPU.
func renderProcessCPU(p *printer, res *Results) {
	p.printf("## Child process CPU (user+sys, whole process, median)\n\n")
	p.printf("| scenario | %s |\n|---|%s\n", strings.Join(res.Systems, " | "), strings.Repeat("---|", len(res.Systems)))
	for _, sc := range res.Scenarios {
		cells := make([]string, 0, len(res.Systems))
		for _, sys := range res.Systems {
			var vs []float64
			for _, s := range res.Samples[Case{sc.Name, sys}] {
				vs = append(vs, float64(s.ProcessCPU.Nanoseconds()))
			}
			if sp, ok := spreadOf(vs); ok {
				cells = append(cells, formatValue(sp.Median, "ns"))
			} else {
				cells = append(cells, "—")
			}
		}
		p.printf("| %s | %s |\n", sc.Name, strings.Join(cells, " | "))
	}
	p.printf("\n")
}
