package suite_test

import (
	"bytes"
	"errors"
	"os"
	"regexp"
	"slices"
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

// TestQuickSuite runs every case of the loop suite once, in quick mode, each
// in its own child process, and renders the report.
func TestQuickSuite(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns a child process per case")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	res, err := suite.Run(suite.Options{Exe: exe, Runs: 1, Quick: true, ChildTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, sc := range suite.Loop {
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
}

// TestEveryScenarioHasACase checks that each system either runs each
// scenario or says why not, except the baseline's single scenario.
func TestEveryScenarioHasACase(t *testing.T) {
	for _, sc := range suite.Loop {
		for _, sys := range systems.All() {
			_, err := systems.Lookup(sys.Name, sc.Name)
			if err == nil || sys.Name == systems.RawChannels {
				continue
			}
			if !errors.Is(err, systems.ErrNA) || err.Error() == systems.ErrNA.Error() {
				t.Errorf("%s / %s: %v, want a case or an n/a reason", sc.Name, sys.Name, err)
			}
		}
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
