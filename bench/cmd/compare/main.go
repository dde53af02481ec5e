// Command compare runs a benchmark suite of BENCHMARKS.md on troupe and its
// peers side by side and prints a markdown table.
//
//	go run ./cmd/compare -suite loop            # 5 interleaved runs
//	go run ./cmd/compare -suite loop -quick     # smoke test
//	go run ./cmd/compare -suite loop -out RESULTS-run.md -json samples.json
//	go run ./cmd/compare -scenarios roundtrip,microtask -runs 9
//	go run ./cmd/compare -suite actor -runs 3  # troupe vs Proto.Actor
//	go run ./cmd/compare -suite js -runs 3     # JS actors vs goja_nodejs
//	go run ./cmd/compare -suite io -runs 5     # sockets vs net, kv vs redis-server
//	go run ./cmd/compare -suite remote -runs 3 # remote actors over NATS
//
// Every case (scenario × system) runs in a fresh child process: the binary
// re-executes itself with -child scenario=X,system=Y, and the child prints
// one JSON line of figures. The js suite's isolated cases start children
// of their own (package jsactor/isolate): main calls isolate.Main first.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/troupe-go/troupe/jsactor/isolate"

	"github.com/troupe-go/troupe/bench/internal/suite"
)

func main() {
	// First: the js suite's isolated cases re-execute this binary as
	// their child processes, which this runs and never returns from.
	isolate.Main()
	var (
		suiteName = flag.String("suite", "loop", "suite to run: \"loop\", \"actor\", \"js\", \"io\" or \"remote\"")
		runs      = flag.Int("runs", 5, "interleaved runs per case")
		quick     = flag.Bool("quick", false, "counts ÷ 100 and one run, for smoke testing")
		out       = flag.String("out", "", "also write the markdown report to this file")
		jsonOut   = flag.String("json", "", "also write every sample as JSON to this file")
		only      = flag.String("scenarios", "", "comma-separated scenario names of the suite (default: all)")
		child     = flag.String("child", "", "internal: run one case, scenario=X,system=Y, and print its JSON figures")
		timeout   = flag.Duration("child-timeout", 5*time.Minute, "limit for one child process")
	)
	flag.Parse()
	if *child != "" {
		if err := suite.RunChild(*child, *quick, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	if err := compare(*suiteName, *runs, *quick, *out, *jsonOut, *only, *timeout); err != nil {
		fmt.Fprintln(os.Stderr, "compare:", err)
		os.Exit(1)
	}
}

func compare(suiteName string, runs int, quick bool, out, jsonOut, only string, timeout time.Duration) error {
	su, err := suite.ByName(suiteName)
	if err != nil {
		return err
	}
	if quick && !flagSet("runs") {
		runs = 1
	}
	if runs < 1 {
		return fmt.Errorf("-runs %d: need at least 1", runs)
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	var names []string
	if only != "" {
		names = strings.Split(only, ",")
	}
	start := time.Now()
	res, err := suite.Run(suite.Options{
		Suite: su, Exe: exe, Runs: runs, Quick: quick, Scenarios: names,
		ChildTimeout: timeout, Progress: os.Stderr,
	})
	if err != nil {
		return err
	}
	rep := suite.Report{
		Command: "go run ./cmd/compare " + strings.Join(os.Args[1:], " "),
		Machine: suite.ThisMachine(),
		Started: start,
		Elapsed: time.Since(start),
	}
	if jsonOut != "" {
		if err := writeJSON(jsonOut, res); err != nil {
			return err
		}
	}
	var buf bytes.Buffer
	suite.Render(&buf, rep, res)
	if out != "" {
		if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
			return err
		}
	}
	_, err = io.Copy(os.Stdout, &buf)
	return err
}

func writeJSON(path string, res *suite.Results) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := suite.WriteJSON(f, res); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func flagSet(name string) bool {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
