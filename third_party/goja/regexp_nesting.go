package goja

// troupe patch: bounded regexp nesting (see README.md in this directory).
//
// regexp2, the backtracking engine goja falls back to for lookaround and
// backreferences, recurses in Go for each level of group nesting when it
// compiles a pattern: new RegExp('(?=a)' + '('.repeat(1e6) + ...)
// overflowed the goroutine's stack, which is fatal to the process. A
// pattern whose groups nest deeper than parser.MaxNesting is refused with
// a SyntaxError before either engine sees it (Go's RE2 refuses past 1000
// levels too).

import (
	"fmt"

	"github.com/dop251/goja/parser"
)

// checkRegexpNesting counts the depth of the groups of a pattern: each
// '(' outside a character class and not escaped opens one.
func checkRegexpNesting(pattern string) error {
	depth, inClass := 0, false
	for i := 0; i < len(pattern); i++ {
		switch pattern[i] {
		case '\\':
			i++
		case '[':
			inClass = true
		case ']':
			inClass = false
		case '(':
			if !inClass {
				if depth++; depth > parser.MaxNesting {
					return fmt.Errorf("Invalid regular expression: groups nested more than %d levels deep", parser.MaxNesting)
				}
			}
		case ')':
			if !inClass && depth > 0 {
				depth--
			}
		}
	}
	return nil
}
