package actortest_test

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest"
)

// locationCases fail on purpose, each in the line after the one whose
// number it passes to at: the kit's failure must name that line of the
// test, not one inside the kit. They run in a child process (see
// TestFailuresPointAtTheTest), as failing tests of their own.
var locationCases = map[string]func(t *testing.T, at func(int)){
	"ExpectMessage none": func(t *testing.T, at func(int)) {
		p := actortest.NewSystem(t).NewProbe("p")
		at(line())
		p.ExpectMessage("x")
	},
	"ExpectMessage other": func(t *testing.T, at func(int)) {
		s := actortest.NewSystem(t)
		p := s.NewProbe("p")
		s.Tell(p.Ref(), "y")
		at(line())
		p.ExpectMessage("x")
	},
	"ExpectMessageType": func(t *testing.T, at func(int)) {
		p := actortest.NewSystem(t).NewProbe("p")
		at(line())
		actortest.ExpectMessageType[int](p)
	},
	"ExpectNoMessage": func(t *testing.T, at func(int)) {
		s := actortest.NewSystem(t)
		p := s.NewProbe("p")
		s.Tell(p.Ref(), "y")
		at(line())
		p.ExpectNoMessage(time.Second)
	},
	"ReceiveN": func(t *testing.T, at func(int)) {
		p := actortest.NewSystem(t).NewProbe("p")
		at(line())
		p.ReceiveN(2)
	},
	"FishForMessage": func(t *testing.T, at func(int)) {
		p := actortest.NewSystem(t).NewProbe("p")
		at(line())
		p.FishForMessage(func(any) bool { return true })
	},
	"ExpectTerminated": func(t *testing.T, at func(int)) {
		p := actortest.NewSystem(t).NewProbe("p")
		at(line())
		p.ExpectTerminated(p.Ref())
	},
	"Answer": func(t *testing.T, at func(int)) {
		p := actortest.NewSystem(t).NewProbe("p")
		at(line())
		actortest.Answer(p, "x", func() (int, error) { return 0, nil })
	},
	"Ask": func(t *testing.T, at func(int)) {
		s := actortest.NewSystem(t, actortest.AllowDeadLetters())
		at(line())
		actortest.Ask[int](s, actor.NewRef("test", "none", "n"), "x")
	},
	"ExpectDeadLetter": func(t *testing.T, at func(int)) {
		s := actortest.NewSystem(t)
		at(line())
		s.ExpectDeadLetter()
	},
	"dead letter at cleanup": func(t *testing.T, at func(int)) {
		at(line())
		s := actortest.NewSystem(t)
		s.Tell(actor.NewRef("test", "none", "n"), "x")
	},
	"failure at cleanup": func(t *testing.T, at func(int)) {
		at(line())
		s := actortest.NewSystem(t)
		r, _ := s.Spawn("boom", "b", func() actor.Actor {
			return actor.ActorFunc(func(*actor.Context, any) (any, error) { panic("boom") })
		}, actor.WithRestartLimit(0, time.Minute))
		s.Tell(r, "x")
	},
	"ExpectEffect": func(t *testing.T, at func(int)) {
		b := actortest.NewBehavior(t, "k", "i", func() actor.Actor { return actor.ActorFunc(nil) })
		at(line())
		b.ExpectEffect(actortest.Stopped{})
	},
	"ExpectEffectType": func(t *testing.T, at func(int)) {
		b := actortest.NewBehavior(t, "k", "i", func() actor.Actor { return actor.ActorFunc(nil) })
		at(line())
		actortest.ExpectEffectType[actortest.Sent](b)
	},
	"ExpectNoEffects": func(t *testing.T, at func(int)) {
		b := actortest.NewBehavior(t, "k", "i", func() actor.Actor {
			return actor.ActorFunc(func(c *actor.Context, _ any) (any, error) { c.Stop(c.Self()); return nil, nil })
		})
		b.Run("x")
		at(line())
		b.ExpectNoEffects()
	},
	"Behavior.Run panics": func(t *testing.T, at func(int)) {
		b := actortest.NewBehavior(t, "k", "i", func() actor.Actor {
			return actor.ActorFunc(func(*actor.Context, any) (any, error) { panic("boom") })
		})
		at(line())
		b.Run("x")
	},
	"FireTimer": func(t *testing.T, at func(int)) {
		b := actortest.NewBehavior(t, "k", "i", func() actor.Actor { return actor.ActorFunc(nil) })
		at(line())
		b.FireTimer("none")
	},
	"Child": func(t *testing.T, at func(int)) {
		b := actortest.NewBehavior(t, "k", "i", func() actor.Actor { return actor.ActorFunc(nil) })
		at(line())
		b.Child(actor.NewRef("test", "x", "y"))
	},
}

// line returns the number of the line after its call's.
func line() int {
	_, _, n, _ := runtime.Caller(1)
	return n + 1
}

// TestLocationCases runs the failing cases, in the child process only.
func TestLocationCases(t *testing.T) {
	name := os.Getenv("ACTORTEST_LOCATION_CASE")
	if name == "" {
		t.Skip("run by TestFailuresPointAtTheTest")
	}
	locationCases[name](t, func(n int) { fmt.Printf("want line %d\n", n) })
}

// Every failure of the kit names the line of the test that failed (for
// the reports at cleanup, the line that made the system), so go test and
// editors point at the test, not at the kit; and the reports at cleanup
// say how to allow what they report.
func TestFailuresPointAtTheTest(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the test binary once per case")
	}
	lineRE := regexp.MustCompile(`(?m)^\s+(\w+\.go):(\d+): actortest:`)
	for name := range locationCases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command(os.Args[0], "-test.run=^TestLocationCases$", "-test.v")
			cmd.Env = append(os.Environ(), "ACTORTEST_LOCATION_CASE="+name)
			out, _ := cmd.CombinedOutput()
			var want int
			if _, err := fmt.Sscanf(string(regexp.MustCompile(`want line \d+`).Find(out)), "want line %d", &want); err != nil {
				t.Fatalf("no line announced:\n%s", out)
			}
			hits := lineRE.FindAllStringSubmatch(string(out), -1)
			if len(hits) == 0 {
				t.Fatalf("no failure of the kit:\n%s", out)
			}
			for _, h := range hits {
				if h[1] != "location_test.go" || h[2] != fmt.Sprint(want) {
					t.Errorf("failure at %s:%s, want location_test.go:%d:\n%s", h[1], h[2], want, out)
				}
			}
			if strings.HasSuffix(name, "at cleanup") && !strings.Contains(string(out), "actortest.Allow") {
				t.Errorf("the report does not say how to allow it:\n%s", out)
			}
		})
	}
}
