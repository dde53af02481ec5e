package gen

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/packages"
)

// input is a type-checked package, without the files troupegen generated.
type input struct {
	fset     *token.FileSet
	dir      string // absolute
	files    []*ast.File
	pkg      *types.Package
	info     *types.Info
	typeErrs Problems // outside generated files; tolerated unless a message needs the type
	fatal    Problems // errors that stop generation: syntax, the go command
	// outside are the package's Go files (absolute paths) this build
	// leaves out: by build constraints, and test files.
	outside []string
	// importer returns an importer of the packages the package and the
	// generated files import, to type-check it again (see recheck).
	importer func() (types.Importer, error)
}

// load loads the package in dir with go/packages: its files from source,
// its dependencies from export data. It passes no overlay, which would
// make go/packages type-check every dependency from source.
func load(dir string) (input, error) {
	in := input{fset: token.NewFileSet(), dir: dir}
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedImports |
			packages.NeedTypes | packages.NeedTypesInfo,
		Dir:  dir,
		Fset: in.fset,
	}
	pkgs, err := packages.Load(cfg, ".")
	if err != nil {
		return input{}, fmt.Errorf("troupegen: loading %s: %w", dir, err)
	}
	if len(pkgs) != 1 {
		return input{}, fmt.Errorf("troupegen: %s holds %d packages, want 1", dir, len(pkgs))
	}
	p := pkgs[0]
	if p.Types == nil || p.TypesInfo == nil {
		return input{}, fmt.Errorf("troupegen: %s: %v", dir, errors.Join(packagesErrors(p.Errors)...))
	}
	in.pkg, in.info = p.Types, p.TypesInfo
	in.outside = append(in.outside, p.IgnoredFiles...)
	tests, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
	for _, name := range tests {
		if !slices.Contains(in.outside, name) {
			in.outside = append(in.outside, name)
		}
	}
	slices.Sort(in.outside)
	paths := slices.Collect(maps.Keys(runtimeImports))
	for path := range p.Imports {
		paths = append(paths, path)
	}
	in.importer = sync.OnceValues(func() (types.Importer, error) { return loadImports(dir, paths) })
	generated := map[string]bool{}
	for _, f := range p.Syntax {
		name := in.fset.File(f.Pos()).Name()
		if isOurs(f) {
			generated[name] = true
			continue
		}
		in.files = append(in.files, f)
	}
	rep := &reporter{fset: in.fset, dir: dir}
	for _, e := range p.Errors {
		pos := parsePos(e.Pos)
		switch {
		case strings.HasPrefix(e.Msg, "# "+p.PkgPath+"\n"):
			// The compiler's report on the package itself (go list -export):
			// the type checker reports the same as type errors.
		case e.Kind == packages.TypeError && generated[pos.Filename]:
		case e.Kind == packages.TypeError:
			rep.add(pos, e.Msg)
			in.typeErrs = append(in.typeErrs, rep.probs[len(rep.probs)-1])
		default:
			rep.add(pos, e.Msg)
			in.fatal = append(in.fatal, rep.probs[len(rep.probs)-1])
		}
	}
	return in, nil
}

// loadImports loads the packages of paths and their dependencies with
// go/packages, from export data, and returns an importer of them: for
// the package in dir to type-check again with its generated files, which
// may import packages its own files do not. One load, for one universe of
// types.
func loadImports(dir string, paths []string) (types.Importer, error) {
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedTypes, Dir: dir}
	pkgs, err := packages.Load(cfg, paths...)
	if err != nil {
		return nil, fmt.Errorf("troupegen: loading the imports of %s: %w", dir, err)
	}
	m := mapImporter{}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if p.Types != nil {
			m[p.PkgPath] = p.Types
		}
	})
	return m, nil
}

// mapImporter imports packages already loaded, by import path.
type mapImporter map[string]*types.Package

func (m mapImporter) Import(path string) (*types.Package, error) {
	if p, ok := m[path]; ok {
		return p, nil
	}
	return nil, fmt.Errorf("troupegen: package %s not loaded", path)
}

// recheck type-checks in's files again, in memory, with the generated
// files of overlay (file name in in.dir to content) beside them.
func recheck(in input, overlay map[string][]byte) (input, error) {
	rep := &reporter{fset: in.fset, dir: in.dir}
	files := slices.Clone(in.files)
	for _, name := range slices.Sorted(maps.Keys(overlay)) {
		f, err := parser.ParseFile(in.fset, filepath.Join(in.dir, name), overlay[name], parser.ParseComments)
		if err != nil {
			return input{}, fmt.Errorf("troupegen: generated %s does not parse: %w", name, err)
		}
		files = append(files, f)
	}
	imp, err := in.importer()
	if err != nil {
		return input{}, err
	}
	out, _ := check(rep, in.dir, in.pkg.Path(), files, imp)
	out.importer = in.importer
	return out, nil
}

// check type-checks files as package path in dir, with go/types and imp,
// and returns them as an input (without its importer), as load does with
// go/packages: the problems rep holds are fatal, and files troupegen
// generated type-check with the others but are left out of the input,
// their type errors ignored. It also returns every type error, those of
// generated files included.
func check(rep *reporter, dir, path string, files []*ast.File, imp types.Importer) (input, []error) {
	in := input{fset: rep.fset, dir: dir, fatal: rep.probs}
	generated := map[string]bool{}
	for _, f := range files {
		if isOurs(f) {
			generated[rep.fset.File(f.Pos()).Name()] = true
		} else {
			in.files = append(in.files, f)
		}
	}
	var typeErrs []error
	conf := types.Config{Importer: imp, Error: func(err error) { typeErrs = append(typeErrs, err) }}
	in.info = &types.Info{
		Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{},
		Types: map[ast.Expr]types.TypeAndValue{}, Implicits: map[ast.Node]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{}, Scopes: map[ast.Node]*types.Scope{},
		Instances: map[*ast.Ident]types.Instance{}, FileVersions: map[*ast.File]string{},
	}
	in.pkg, _ = conf.Check(path, rep.fset, files, in.info)
	errs := &reporter{fset: rep.fset, dir: dir}
	for _, err := range typeErrs {
		var te types.Error
		if errors.As(err, &te) && !generated[rep.fset.Position(te.Pos).Filename] {
			errs.add(rep.fset.Position(te.Pos), te.Msg)
		}
	}
	in.typeErrs = errs.probs
	return in, typeErrs
}

func packagesErrors(errs []packages.Error) []error {
	out := make([]error, len(errs))
	for i, e := range errs {
		out[i] = e
	}
	return out
}

// isOurs reports whether f is a file troupegen generated.
func isOurs(f *ast.File) bool {
	for _, cg := range f.Comments {
		if cg.Pos() > f.Package {
			break
		}
		for _, c := range cg.List {
			if c.Text == "// "+header {
				return true
			}
		}
	}
	return false
}
