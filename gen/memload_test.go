package gen

import (
	"errors"
	"go/ast"
	"go/build"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/tools/go/packages"
)

// The golden and fuzz tests type-check packages in memory with go/types
// against packages loaded once, instead of running go/packages (and so
// the go command) for every case: that made gen's tests take minutes.
// The exhaustive golden test (see TestGoldenGoPackages) still runs every
// case through go/packages, as Generate does.

// testImports are the packages the test inputs, the fuzzed files and the
// generated files import, loaded once (from export data).
var testImports = sync.OnceValues(func() (map[string]*types.Package, error) {
	paths := map[string]bool{"errors": true, "io": true}
	for path := range runtimeImports {
		paths[path] = true
	}
	inputs, err := filepath.Glob("testdata/*/input/*.go")
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	for _, name := range inputs {
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			continue // a case about syntax errors
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			paths[path] = true
		}
	}
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedTypes}
	pkgs, err := packages.Load(cfg, slices.Sorted(maps.Keys(paths))...)
	if err != nil {
		return nil, err
	}
	m := map[string]*types.Package{}
	var errs []error
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if p.Types != nil {
			m[p.PkgPath] = p.Types
		}
		for _, e := range p.Errors {
			errs = append(errs, e)
		}
	})
	return m, errors.Join(errs...)
})

// checkFiles parses and type-checks srcs (absolute file path to content)
// as package pkgPath in dir, in memory against imps, as Generate does
// with go/packages; see check.
func checkFiles(imps map[string]*types.Package, dir, pkgPath string, srcs map[string][]byte) (input, []error) {
	rep := &reporter{fset: token.NewFileSet(), dir: dir}
	imp := mapImporter(imps)
	in, errs := check(rep, dir, pkgPath, parseFiles(rep, srcs), imp)
	in.importer = func() (types.Importer, error) { return imp, nil }
	return in, errs
}

// parseFiles parses srcs (absolute file path to content), reporting
// syntax errors to rep.
func parseFiles(rep *reporter, srcs map[string][]byte) []*ast.File {
	var files []*ast.File
	for _, name := range slices.Sorted(maps.Keys(srcs)) {
		f, err := parser.ParseFile(rep.fset, name, srcs[name], parser.ParseComments)
		var list scanner.ErrorList
		if errors.As(err, &list) {
			for _, e := range list {
				rep.add(e.Pos, e.Msg)
			}
		} else if err != nil {
			rep.add(token.Position{Filename: name}, err.Error())
		}
		if f != nil {
			files = append(files, f)
		}
	}
	return files
}

// testBuild is the build the golden cases are read in, whatever the host:
// linux/amd64 without tags, so that their output is the same everywhere.
var testBuild = func() build.Context {
	c := build.Default
	c.GOOS, c.GOARCH, c.BuildTags, c.ToolTags = "linux", "amd64", nil, nil
	return c
}()

// readPackage returns the Go files of the package in dir (absolute) that
// testBuild reads, file path to content, and the others (tests included)
// as outside.
func readPackage(dir string) (srcs map[string][]byte, outside []string, err error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, nil, err
	}
	srcs = map[string][]byte{}
	for _, name := range names {
		if ok, err := testBuild.MatchFile(dir, filepath.Base(name)); strings.HasSuffix(name, "_test.go") || err == nil && !ok {
			outside = append(outside, name)
			continue
		}
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, nil, err
		}
		srcs[name] = data
	}
	return srcs, outside, nil
}

// loadMem loads the package pkgPath in dir (absolute) in memory, type-
// checked against imps: Generate's load without the go command.
func loadMem(imps map[string]*types.Package, dir, pkgPath string) (input, error) {
	srcs, outside, err := readPackage(dir)
	if err != nil {
		return input{}, err
	}
	in, _ := checkFiles(imps, dir, pkgPath, srcs)
	in.outside = outside
	return in, nil
}
