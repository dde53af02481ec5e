package gen

import (
	"go/ast"
	"regexp"
	"strings"
)

// directivePrefix starts every troupe directive.
const directivePrefix = "//troupe:"

// directive is a parsed //troupe:actor comment.
type directive struct {
	comment *ast.Comment
	kind    string // "" for the default
}

var kindPattern = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)

// parseDirective parses c if it is a troupe directive; ok is false for
// other comments. Problems with its options are reported.
func parseDirective(r *reporter, c *ast.Comment) (d directive, ok bool) {
	if !strings.HasPrefix(c.Text, directivePrefix) {
		return directive{}, false
	}
	fields := strings.Fields(strings.TrimPrefix(c.Text, directivePrefix))
	if !isActorDirective(c.Text) {
		r.errorf(c.Pos(), "unknown directive %s (want //troupe:actor)", firstField(c.Text))
		return directive{}, false
	}
	d.comment = c
	for _, opt := range fields[1:] {
		key, val, _ := strings.Cut(opt, "=")
		switch {
		case key == "kind" && kindPattern.MatchString(val):
			d.kind = val
		case key == "kind":
			r.errorf(c.Pos(), "//troupe:actor: bad kind %q (want letters, digits, '_', '.' or '-')", val)
		default:
			r.errorf(c.Pos(), "//troupe:actor: unknown option %q (want kind=NAME)", opt)
		}
	}
	return d, true
}

// isActorDirective reports whether text is a //troupe:actor comment.
func isActorDirective(text string) bool {
	fields := strings.Fields(strings.TrimPrefix(text, directivePrefix))
	return len(fields) > 0 && fields[0] == "actor"
}

func firstField(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return s
}

// annotated is a type spec carrying a //troupe:actor directive.
type annotated struct {
	spec *ast.TypeSpec
	dir  directive
}

// findAnnotated returns the type specs of files annotated with
// //troupe:actor, and reports directives that annotate anything else.
func findAnnotated(r *reporter, files []*ast.File) []annotated {
	var out []annotated
	for _, f := range files {
		used := map[*ast.Comment]bool{}
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, spec := range gd.Specs {
				ts, ok := spec.(*ast.TypeSpec)
				if !ok {
					continue
				}
				docs := []*ast.CommentGroup{ts.Doc}
				if !gd.Lparen.IsValid() {
					docs = append(docs, gd.Doc)
				}
				if d, ok := directiveIn(r, docs, used); ok {
					out = append(out, annotated{spec: ts, dir: d})
				}
			}
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				switch {
				case used[c] || !strings.HasPrefix(c.Text, directivePrefix):
				case isActorDirective(c.Text):
					r.errorf(c.Pos(), "//troupe:actor must be in the doc comment of a struct type declaration")
				default:
					r.errorf(c.Pos(), "unknown directive %s (want //troupe:actor)", firstField(c.Text))
				}
			}
		}
	}
	return out
}

// directiveIn returns the first //troupe:actor directive of docs, marking
// every troupe directive it sees as used.
func directiveIn(r *reporter, docs []*ast.CommentGroup, used map[*ast.Comment]bool) (directive, bool) {
	var found directive
	ok := false
	for _, cg := range docs {
		if cg == nil {
			continue
		}
		for _, c := range cg.List {
			if used[c] {
				continue
			}
			d, isDir := parseDirective(r, c)
			if strings.HasPrefix(c.Text, directivePrefix) {
				used[c] = true
			}
			if !isDir {
				continue
			}
			if ok {
				r.errorf(c.Pos(), "duplicate //troupe:actor directive")
				continue
			}
			found, ok = d, true
		}
	}
	return found, ok
}
