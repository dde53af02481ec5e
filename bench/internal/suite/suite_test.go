package suite_test

import (
	"bytes"
	"errors"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/troupe-go/troupe/bench/internal/suite"
	"github.com/troupe-go/troupe/bench/internal/systems"
)

// TestMain lets the test binary stand in for cmd/compare as the child
// process: the parent re-executes it with -child and -quick, as it does the
// compare binary.
func TestMain(m *testing.M) {
	if len(os.Args) >= 3 && os.Args[1] == "-child" {
		if err := suite.RunChild(os.Args[2], slices.Contains(os.Args, "-quick"), os.Stdout); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	goleak.VerifyTestMain(m)
}

// TestQuickSuite runs every case of each suite once, in quick mode, each in
// its own child process, and renders the report. The actor suite's quick
// cases take about a second in all.
func TestQuickSuite(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns a child process per case")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, su := range suite.Suites {
		t.Run(su.Name, func(t *testing.T) {
			res, err := suite.Run(suite.Options{Suite: su, Exe: exe, Runs: 1, Quick: true, ChildTimeout: time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			checkQuickRun(t, su, res)
		})
	}
}

// checkQuickRun checks that every case of su either ran once and reported
// figures or was n/a, and that the report ends with its targets line.
func checkQuickRun(t *testing.T, su suite.Suite, res *suite.Results) {
	t.Helper()
	ran := 0
	for _, sc := range su.Scenarios {
		for _, sys := range res.Systems {
			c := suite.Case{Scenario: sc.Name, System: sys}
			t.Run(sc.Name+"/"+sys, func(t *testing.T) {
				if why, ok := res.NA[c]; ok {
					t.Skipf("n/a: %s", why)
				}
				samples := res.Samples[c]
				if len(samples) != 1 {
					t.Fatalf("got %d samples, want 1", len(samples))
				}
				s := samples[0]
				if s.Err != nil {
					t.Fatal(s.Err)
				}
				if s.Figures.Ops <= 0 {
					t.Errorf("ops = %d, want > 0", s.Figures.Ops)
				}
				if s.ProcessCPU <= 0 {
					t.Errorf("process CPU = %v, want > 0", s.ProcessCPU)
				}
				ran++
			})
		}
	}
	if ran == 0 {
		t.Fatal("no case ran")
	}
	var buf bytes.Buffer
	suite.Render(&buf, suite.Report{Command: "test", Machine: suite.ThisMachine(), Started: time.Now()}, res)
	if !regexp.MustCompile(`\n\d+ of \d+ targets met\n$`).Match(buf.Bytes()) {
		t.Errorf("report does not end with the targets line:\n%s", buf.String())
	}
	if want := "# " + su.Heading() + "\n"; !bytes.HasPrefix(buf.Bytes(), []byte(want)) {
		t.Errorf("report starts %q, want %q", firstLine(buf.String()), want)
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// TestEveryScenarioHasACase checks that each system of a suite either runs
// each of its scenarios or says why not; the raw-channel baseline runs only
// the scenarios that name it.
func TestEveryScenarioHasACase(t *testing.T) {
	for _, su := range suite.Suites {
		for _, sc := range su.Scenarios {
			for _, sys := range su.Systems {
				_, err := systems.Lookup(sys, sc.Name)
				if err == nil || sys == systems.RawChannels {
					continue
				}
				if !errors.Is(err, systems.ErrNA) || err.Error() == systems.ErrNA.Error() {
					t.Errorf("%s %s / %s: %v, want a case or an n/a reason", su.Name, sc.Name, sys, err)
				}
			}
		}
	}
}

// TestActorSuiteWiring checks the actor suite's columns and what they run:
// Proto.Actor every scenario but the ones it says it cannot run (firing
// idle timers needs a virtual clock), raw channels the baselines of
// pingpong, fanin and ask.
func TestActorSuiteWiring(t *testing.T) {
	if got, want := suite.Actor.Systems, []string{systems.Troupe, systems.ProtoActor, systems.RawChannels}; !slices.Equal(got, want) {
		t.Errorf("actor suite systems = %q, want %q", got, want)
	}
	var names []string
	for _, sc := range suite.Actor.Scenarios {
		names = append(names, sc.Name)
	}
	if !slices.Equal(names, systems.ActorScenarios) {
		t.Errorf("actor scenarios = %q, want %q", names, systems.ActorScenarios)
	}
	for _, name := range names {
		_, err := systems.Lookup(systems.ProtoActor, name)
		if wantCase := !strings.HasPrefix(name, "idle_timers_fire") && name != "pingpong_typed"; (err == nil) != wantCase {
			t.Errorf("Proto.Actor / %s: err = %v, want a case: %v", name, err, wantCase)
		}
		_, err = systems.Lookup(systems.RawChannels, name)
		if wantCase := name == "pingpong" || name == "fanin" || name == "ask"; (err == nil) != wantCase {
			t.Errorf("raw channels / %s: err = %v, want a case: %v", name, err, wantCase)
		}
	}
}

// TestScenarioNamesUnique checks that a scenario name picks one scenario
// across suites, as a child process finds its case by name alone.
func TestScenarioNamesUnique(t *testing.T) {
	seen := map[string]string{}
	for _, su := range suite.Suites {
		for _, sc := range su.Scenarios {
			if other, ok := seen[sc.Name]; ok {
				t.Errorf("scenario %q is in both the %s and %s suites", sc.Name, other, su.Name)
			}
			seen[sc.Name] = su.Name
		}
	}
}

func TestByName(t *testing.T) {
	for _, name := range []string{"loop", "actor", "js", "io", "remote"} {
		if su, err := suite.ByName(name); err != nil || su.Name != name {
			t.Errorf("ByName(%q) = %q, %v", name, su.Name, err)
		}
	}
	if _, err := suite.ByName("nosuch"); err == nil {
		t.Error(`ByName("nosuch"): no error`)
	}
}

func TestParseSpec(t *testing.T) {
	tests := []struct {
		spec    string
		want    suite.Case
		wantErr bool
	}{
		{spec: "scenario=roundtrip,system=raw channels", want: suite.Case{Scenario: "roundtrip", System: "raw channels"}},
		{spec: "system=troupe,scenario=microtask", want: suite.Case{Scenario: "microtask", System: "troupe"}},
		{spec: "scenario=roundtrip", wantErr: true},
		{spec: "scenario=roundtrip,system=troupe,x=1", wantErr: true},
		{spec: "roundtrip", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			got, err := suite.ParseSpec(tt.spec)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if !tt.wantErr && got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
			if !tt.wantErr {
				if back, _ := suite.ParseSpec(got.Spec()); back != got {
					t.Errorf("Spec round trip: got %+v", back)
				}
			}
		})
	}
}
