package jsactor

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/dop251/goja"
)

// Script is JavaScript source compiled once, to be shared by every actor
// spawned from it (each runs it in its own Runtime). A Script is immutable
// and safe to share between goroutines.
//
// The source is a CommonJS module: its top level runs once per actor
// instance (at spawn and after each restart), with `module`, `exports` and
// `this` as in Node, and it exports the actor's handlers through
// `module.exports`.
type Script struct {
	name string
	prog *goja.Program
}

// Compile compiles src as a CommonJS module named name (the name appears
// in stack traces). Syntax errors are reported as ErrScript.
func Compile(name, src string) (*Script, error) {
	// The wrapper is added on the first line so that line numbers in
	// stack traces match the source.
	wrapped := "(function (exports, module) {" + src + "\n})"
	boundRegexps()                                  // goja compiles regexp literals with the program
	prog, err := goja.Compile(name, wrapped, false) // sloppy unless the script says "use strict", as in Node
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrScript, name, err)
	}
	return &Script{name: name, prog: prog}, nil
}

// CompileFile reads and compiles the file at path, named by its base name.
// Only the host reads the file: the script itself has no file access.
func CompileFile(path string) (*Script, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrScript, err)
	}
	return Compile(filepath.Base(path), string(src))
}

// MustCompile is Compile that panics on error, for scripts embedded in
// the program.
func MustCompile(name, src string) *Script {
	s, err := Compile(name, src)
	if err != nil {
		panic(err)
	}
	return s
}

// Name returns the script's name.
func (s *Script) Name() string { return s.name }
