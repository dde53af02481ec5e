package gen

import (
	"cmp"
	"fmt"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Problem is one thing wrong with the input, at a position in it.
type Problem struct {
	Pos token.Position // Filename is relative to the package directory
	Msg string
}

// String returns "file:line:col: message".
func (p Problem) String() string {
	if p.Pos.Filename == "" {
		return p.Msg
	}
	return fmt.Sprintf("%s:%d:%d: %s", p.Pos.Filename, p.Pos.Line, p.Pos.Column, p.Msg)
}

// Problems is every problem [Generate] found in its input, sorted by
// position. Nothing is generated when there is one.
type Problems []Problem

// Error lists the problems, one a line.
func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// sortProblems sorts ps by position, then message, and drops duplicates.
func sortProblems(ps Problems) Problems {
	slices.SortFunc(ps, func(a, b Problem) int {
		return cmp.Or(
			cmp.Compare(a.Pos.Filename, b.Pos.Filename),
			cmp.Compare(a.Pos.Line, b.Pos.Line),
			cmp.Compare(a.Pos.Column, b.Pos.Column),
			cmp.Compare(a.Msg, b.Msg),
		)
	})
	return slices.CompactFunc(ps, func(a, b Problem) bool { return a.String() == b.String() })
}

// reporter collects problems, with positions relative to dir.
type reporter struct {
	fset  *token.FileSet
	dir   string
	probs Problems
	warns Problems // what was skipped, which does not stop generation
}

func (r *reporter) errorf(pos token.Pos, format string, args ...any) {
	r.add(r.fset.Position(pos), fmt.Sprintf(format, args...))
}

// warnf records a warning: its message starts "warning: ".
func (r *reporter) warnf(pos token.Pos, format string, args ...any) {
	probs := r.probs
	r.add(r.fset.Position(pos), "warning: "+fmt.Sprintf(format, args...))
	r.warns = append(r.warns, r.probs[len(r.probs)-1])
	r.probs = probs
}

// add records msg at p, making p's file name relative and msg one line.
func (r *reporter) add(p token.Position, msg string) {
	p.Filename = relPath(r.dir, p.Filename)
	msg = strings.Join(strings.Fields(msg), " ")
	r.probs = append(r.probs, Problem{Pos: p, Msg: msg})
}

// relPath returns name relative to dir when it lies inside it.
func relPath(dir, name string) string {
	if name == "" || !filepath.IsAbs(name) {
		return name
	}
	if rel, err := filepath.Rel(dir, name); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return name
}

// parsePos parses the "file:line:col" (or "file:line") of a go/packages
// error.
func parsePos(s string) token.Position {
	rest := s
	var nums []int
	for range 2 {
		i := strings.LastIndexByte(rest, ':')
		if i < 0 {
			break
		}
		n, err := strconv.Atoi(rest[i+1:])
		if err != nil {
			break
		}
		nums, rest = append(nums, n), rest[:i]
	}
	p := token.Position{Filename: rest}
	switch len(nums) {
	case 2:
		p.Line, p.Column = nums[1], nums[0]
	case 1:
		p.Line = nums[0]
	}
	return p
}
