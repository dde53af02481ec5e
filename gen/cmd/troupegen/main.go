// Command troupegen generates typed actor refs for the Go package in the
// current directory: for every struct annotated with //troupe:actor, a
// <name>_actor.gen.go file beside it, and for every interface annotated
// with //troupe:js (the handlers of a JavaScript actor), a
// <name>_jsactor.gen.go file (see package github.com/troupe-go/troupe/gen).
// Run it from a directive:
//
//	//go:generate go tool troupegen
//
// Problems with the input are printed one a line, as
// "file:line:col: message", and the exit status is 1. Warnings, printed
// as "file:line:col: warning: message", say what troupegen left out
// (exported methods of an actor that are no messages, annotated types in
// files the build does not read) and do not change the exit status.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/troupe-go/troupe/gen"
)

func main() { os.Exit(run(".", os.Args[1:], os.Stderr)) }

// run runs troupegen with args for the package in dir, printing problems
// to stderr, and returns the exit status.
func run(dir string, args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("troupegen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: troupegen (in the directory of a package, e.g. from //go:generate go tool troupegen)")
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return 2
	}
	files, warnings, err := gen.Generate(dir)
	if len(warnings) > 0 {
		fmt.Fprintln(stderr, warnings.Error())
	}
	if err == nil {
		err = gen.Write(dir, files)
	}
	var probs gen.Problems
	switch {
	case errors.As(err, &probs):
		fmt.Fprintln(stderr, probs.Error())
		return 1
	case err != nil:
		fmt.Fprintln(stderr, "troupegen:", err)
		return 1
	}
	return 0
}
