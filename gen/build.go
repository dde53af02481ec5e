package gen

import (
	"bytes"
	"go/ast"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
)

// A generated file builds exactly where the file declaring its actor
// does: it carries that file's //go:build expression, and'ed with the
// GOOS and GOARCH its name implies (foo_linux.go, foo_arm64.go), so an
// actor declared for one platform or behind a tag does not leave
// generated code that fails to compile everywhere else.

// knownOS and knownArch are the GOOS and GOARCH values a file name suffix
// constrains to, as go/build's lists (internal/syslist) hold them.
var (
	knownOS = setOf("aix", "android", "darwin", "dragonfly", "freebsd", "hurd", "illumos", "ios", "js", "linux",
		"nacl", "netbsd", "openbsd", "plan9", "solaris", "wasip1", "windows", "zos")
	knownArch = setOf("386", "amd64", "amd64p32", "arm", "armbe", "arm64", "arm64be", "loong64", "mips", "mipsle",
		"mips64", "mips64le", "mips64p32", "mips64p32le", "ppc", "ppc64", "ppc64le", "riscv", "riscv64", "s390",
		"s390x", "sparc", "sparc64", "wasm")
)

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// nameConstraint returns the constraint the name of a Go file implies by
// its _GOOS, _GOARCH or _GOOS_GOARCH suffix (before an optional _test),
// as go/build reads it, or nil.
func nameConstraint(name string) constraint.Expr {
	name, _, _ = strings.Cut(filepath.Base(name), ".")
	i := strings.Index(name, "_")
	if i < 0 {
		return nil
	}
	l := strings.Split(name[i:], "_")
	if n := len(l); n > 0 && l[n-1] == "test" {
		l = l[:n-1]
	}
	n := len(l)
	switch {
	case n >= 2 && knownOS[l[n-2]] && knownArch[l[n-1]]:
		return &constraint.AndExpr{X: &constraint.TagExpr{Tag: l[n-2]}, Y: &constraint.TagExpr{Tag: l[n-1]}}
	case n >= 1 && (knownOS[l[n-1]] || knownArch[l[n-1]]):
		return &constraint.TagExpr{Tag: l[n-1]}
	}
	return nil
}

// buildLine returns the //go:build expression of f, nil if it has none.
func buildLine(f *ast.File) constraint.Expr {
	for _, cg := range f.Comments {
		if cg.Pos() > f.Package {
			break
		}
		for _, c := range cg.List {
			if constraint.IsGoBuild(c.Text) {
				if x, err := constraint.Parse(c.Text); err == nil {
					return x
				}
			}
		}
	}
	return nil
}

// fileConstraint returns the build constraint of the file of in that
// declares pos, as a //go:build expression: "" if the file builds
// everywhere.
func fileConstraint(in input, pos token.Pos) string {
	name := in.fset.File(pos).Name()
	x := nameConstraint(name)
	for _, f := range in.files {
		if in.fset.File(f.Pos()).Name() != name {
			continue
		}
		if line := buildLine(f); line != nil {
			if x == nil {
				x = line
			} else {
				x = &constraint.AndExpr{X: x, Y: line}
			}
		}
	}
	if x == nil {
		return ""
	}
	return x.String()
}

// withConstraint returns src, a generated file, with the //go:build line
// of expr after its header (src itself for no expr).
func withConstraint(src []byte, expr string) []byte {
	if expr == "" {
		return src
	}
	first := []byte("// " + header + "\n")
	rest, ok := bytes.CutPrefix(src, first)
	if !ok {
		return src
	}
	out := append([]byte(nil), first...)
	out = append(out, "\n//go:build "+expr+"\n"...)
	return append(out, rest...)
}

// warnOutside warns of the annotated types in files of the package that
// the build leaves out (outside, absolute paths): other build
// constraints, and test files. troupegen sees only the files of the
// build it runs in, and generates nothing for them.
func warnOutside(rep *reporter, outside []string) {
	for _, name := range outside {
		data, err := os.ReadFile(name)
		if err != nil || !bytes.Contains(data, []byte("//troupe:")) {
			continue
		}
		f, err := parser.ParseFile(rep.fset, name, data, parser.ParseComments)
		if err != nil {
			continue
		}
		why := "its build constraints leave it out of this build: run troupegen with the GOOS, GOARCH or tags that build it"
		if strings.HasSuffix(name, "_test.go") {
			why = "troupegen does not read test files: declare it in a file that is not a test"
		}
		quiet := &reporter{fset: rep.fset, dir: rep.dir} // the file's own problems show when it is built
		for _, an := range findAnnotated(quiet, []*ast.File{f}) {
			what := "actor"
			if an.dir.verb == verbJS {
				what = "JS actor"
			}
			rep.warnf(an.spec.Name.Pos(), "nothing generated for %s %s: %s", what, an.spec.Name.Name, why)
		}
	}
}
