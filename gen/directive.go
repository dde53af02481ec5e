package gen

import (
	"go/ast"
	"regexp"
	"strings"
	"unicode"
)

// directivePrefix starts every troupe directive.
const directivePrefix = "//troupe:"

// Directive verbs: //troupe:actor on a struct, //troupe:js on an interface
// (and on its methods, to name their JavaScript handlers).
const (
	verbActor = "actor"
	verbJS    = "js"
)

// directive is a parsed //troupe:actor or //troupe:js comment.
type directive struct {
	comment *ast.Comment
	verb    string // verbActor or verbJS
	kind    string // "" for the default
	remote  bool   // //troupe:actor remote: generate wire codecs
	sharded bool   // //troupe:actor sharded: entity refs, and codecs
}

var (
	kindPattern = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)
	// jsNamePattern is a JavaScript identifier, ASCII only.
	jsNamePattern = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)
)

// parseDirective parses c if it is a troupe directive on a type; ok is
// false for other comments. Problems with its options are reported.
func parseDirective(r *reporter, c *ast.Comment) (d directive, ok bool) {
	if !isDirectiveText(c.Text) {
		return directive{}, false
	}
	verb := verbOf(c.Text)
	if verb == "" {
		r.errorf(c.Pos(), "unknown directive %s (want //troupe:actor or //troupe:js)", firstField(c.Text))
		return directive{}, false
	}
	d.comment, d.verb = c, verb
	for _, opt := range strings.Fields(strings.TrimPrefix(c.Text, directivePrefix))[1:] {
		key, val, hasVal := strings.Cut(opt, "=")
		switch {
		case key == "remote" && !hasVal && verb == verbActor:
			d.remote = true
		case key == "sharded" && !hasVal && verb == verbActor:
			d.sharded = true
		case key == "kind" && kindPattern.MatchString(val):
			d.kind = val
		case key == "kind":
			r.errorf(c.Pos(), "//troupe:%s: bad kind %q (want letters, digits, '_', '.' or '-')", verb, val)
		case key == "name" && verb == verbJS:
			r.errorf(c.Pos(), "//troupe:js: name=%s belongs in the doc comment of an interface method, not of the interface", val)
		default:
			r.errorf(c.Pos(), "//troupe:%s: unknown option %q (want kind=NAME%s)", verb, opt, remoteHint(verb))
		}
	}
	return d, true
}

// isDirectiveText reports whether comment text is written as a troupe
// directive: "//troupe:" and no space after it. Near misses are reported
// (see nearMiss), never read.
func isDirectiveText(text string) bool {
	rest, ok := strings.CutPrefix(text, directivePrefix)
	return ok && (rest == "" || !unicode.IsSpace(rune(rest[0])))
}

// nearMiss reports whether comment text, not written as a directive,
// looks like one: "// troupe:actor", "//troupe: actor", "//Troupe:actor",
// "/* troupe:js */", options and all, but not prose. want is the
// directive it likely means.
func nearMiss(text string) (want string, ok bool) {
	body, ok := strings.CutPrefix(text, "//")
	if !ok {
		if body, ok = strings.CutPrefix(text, "/*"); !ok {
			return "", false
		}
		body = strings.TrimSuffix(body, "*/")
	}
	body = strings.TrimSpace(body)
	if len(body) < len("troupe") || !strings.EqualFold(body[:len("troupe")], "troupe") {
		return "", false
	}
	rest, ok := strings.CutPrefix(strings.TrimLeft(body[len("troupe"):], " \t"), ":")
	fields := strings.Fields(rest)
	if !ok || len(fields) == 0 {
		return "", false
	}
	switch strings.ToLower(fields[0]) {
	case "actor", "actors":
		fields[0] = directivePrefix + verbActor
	case "js", "jsactor", "jsactors":
		fields[0] = directivePrefix + verbJS
	default:
		return "", false // prose: "Troupe: an actor framework"
	}
	for _, opt := range fields[1:] {
		if key, _, _ := strings.Cut(opt, "="); key != "kind" && key != "name" && opt != "remote" && opt != "sharded" {
			return "", false // prose: "troupe: actors run on loops"
		}
	}
	return strings.Join(fields, " "), true
}

// verbOf returns the verb of a troupe directive, or "" if it is unknown.
func verbOf(text string) string {
	fields := strings.Fields(strings.TrimPrefix(text, directivePrefix))
	if len(fields) > 0 && (fields[0] == verbActor || fields[0] == verbJS) {
		return fields[0]
	}
	return ""
}

func firstField(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return s
}

// annotated is a type spec carrying a //troupe:actor or //troupe:js
// directive.
type annotated struct {
	spec *ast.TypeSpec
	dir  directive
	// jsNames maps the interface methods of a //troupe:js spec whose doc
	// comment names their handler (//troupe:js name=NAME) to that name.
	jsNames map[string]string
}

// findAnnotated returns the annotated type specs of files, and reports
// directives that annotate anything else.
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
					an := annotated{spec: ts, dir: d}
					if it, isIface := ts.Type.(*ast.InterfaceType); isIface && d.verb == verbJS {
						an.jsNames = methodNames(r, it, used)
					}
					out = append(out, an)
				}
			}
		}
		reportStray(r, f, used)
	}
	return out
}

// reportStray reports the troupe directives of f that annotate nothing.
func reportStray(r *reporter, f *ast.File, used map[*ast.Comment]bool) {
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			if used[c] {
				continue
			}
			if !isDirectiveText(c.Text) {
				if want, ok := nearMiss(c.Text); ok {
					r.errorf(c.Pos(), "%q is not read as a directive: write %s (lower case, no space after // or the colon)", c.Text, want)
				}
				continue
			}
			switch {
			case verbOf(c.Text) == verbActor:
				r.errorf(c.Pos(), "//troupe:actor must be in the doc comment of a struct type declaration")
			case verbOf(c.Text) == verbJS:
				r.errorf(c.Pos(), "//troupe:js must be in the doc comment of an interface type declaration, or (name=NAME) of a method of an interface annotated //troupe:js")
			default:
				r.errorf(c.Pos(), "unknown directive %s (want //troupe:actor or //troupe:js)", firstField(c.Text))
			}
		}
	}
}

// directiveIn returns the first type directive of docs, marking every
// troupe directive it sees as used.
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
			if isDirectiveText(c.Text) {
				used[c] = true
			}
			if !isDir {
				continue
			}
			if ok {
				r.errorf(c.Pos(), "duplicate troupe directive (%s, after %s)", firstField(c.Text), firstField(found.comment.Text))
				continue
			}
			found, ok = d, true
		}
	}
	return found, ok
}

// methodNames parses the //troupe:js name=NAME directives in the doc
// comments of it's methods, marking them used, and returns the names by
// method.
func methodNames(r *reporter, it *ast.InterfaceType, used map[*ast.Comment]bool) map[string]string {
	names := map[string]string{}
	for _, field := range it.Methods.List {
		if field.Doc == nil {
			continue
		}
		method := ""
		if len(field.Names) == 1 {
			method = field.Names[0].Name
		}
		for _, c := range field.Doc.List {
			if !isDirectiveText(c.Text) {
				continue
			}
			used[c] = true
			name, ok := parseMethodDirective(r, c, method)
			switch {
			case !ok:
			case names[method] != "":
				r.errorf(c.Pos(), "duplicate //troupe:js directive on method %s", method)
			default:
				names[method] = name
			}
		}
	}
	return names
}

// parseMethodDirective parses c, a troupe directive on interface method
// (empty for an embedded interface): //troupe:js name=NAME.
func parseMethodDirective(r *reporter, c *ast.Comment, method string) (string, bool) {
	fields := strings.Fields(strings.TrimPrefix(c.Text, directivePrefix))
	switch {
	case verbOf(c.Text) == "":
		r.errorf(c.Pos(), "unknown directive %s (want //troupe:js name=NAME)", firstField(c.Text))
		return "", false
	case verbOf(c.Text) != verbJS || method == "":
		r.errorf(c.Pos(), "%s: only //troupe:js name=NAME may annotate a method of a JS actor's interface", firstField(c.Text))
		return "", false
	case len(fields) != 2:
		r.errorf(c.Pos(), "//troupe:js on method %s: want exactly one option, name=NAME", method)
		return "", false
	}
	key, val, _ := strings.Cut(fields[1], "=")
	switch {
	case key != "name":
		r.errorf(c.Pos(), "//troupe:js on method %s: unknown option %q (want name=NAME)", method, fields[1])
	case !jsNamePattern.MatchString(val):
		r.errorf(c.Pos(), "//troupe:js on method %s: bad name %q (want a JavaScript identifier: letters, digits, '_' or '$', not first a digit)", method, val)
	default:
		return val, true
	}
	return "", false
}
