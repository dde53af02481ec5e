package jsactor

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"
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

// The CommonJS wrapper around a script's source.
const (
	wrapperHead = "(function (exports, module, require, __filename, __dirname) {"
	wrapperTail = "\n})"
)

// Compile compiles src as a CommonJS module named name (the name appears
// in stack traces). Syntax errors are reported as ErrScript.
func Compile(name, src string) (*Script, error) {
	// The wrapper is added on the first line so that line numbers in
	// stack traces match the source.
	wrapped := wrapperHead + src + wrapperTail
	boundRegexps()                                  // goja compiles regexp literals with the program
	prog, err := goja.Compile(name, wrapped, false) // sloppy unless the script says "use strict", as in Node
	if err != nil {
		if se := syntaxError(name, src, wrapped); se != nil {
			err = se
		}
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

// syntaxError re-parses the wrapped source to report its first syntax
// error at the script's own position: the wrapper's head shifts the
// columns of the first line, and an error past the script's end (an
// unclosed brace meets the wrapper's tail) is at the script's end.
func syntaxError(name, src, wrapped string) error {
	_, err := parser.ParseFile(nil, name, wrapped, 0)
	var list parser.ErrorList
	if !errors.As(err, &list) || len(list) == 0 {
		return nil
	}
	e := list[0]
	line, col, msg := e.Position.Line, e.Position.Column, e.Message
	if line == 1 {
		col = max(1, col-len(wrapperHead))
	}
	lines := strings.Split(src, "\n")
	if line > len(lines) || (line == len(lines) && col > len(lines[line-1])+1) {
		line, col, msg = len(lines), len(lines[len(lines)-1])+1, "Unexpected end of input"
	}
	return &goja.CompilerSyntaxError{CompilerError: goja.CompilerError{
		Message: fmt.Sprintf("%s: Line %d:%d %s", name, line, col, msg),
	}}
}
