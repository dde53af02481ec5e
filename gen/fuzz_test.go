package gen

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/packages"
)

// fuzzImports type-checks the fuzzed files' imports: the packages a
// plausible actor file imports (and jsactor, which the refs of JavaScript
// actors import, and remote/wire, which the codecs of remote actors
// import), loaded once.
var fuzzImports = sync.OnceValues(func() (map[string]*types.Package, error) {
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedTypes | packages.NeedImports | packages.NeedDeps}
	pkgs, err := packages.Load(cfg, actorPath, loopPath, jsactorPath, wirePath, "context", "errors", "fmt", "io", "time")
	if err != nil {
		return nil, err
	}
	m := map[string]*types.Package{}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if p.Types != nil {
			m[p.PkgPath] = p.Types
		}
	})
	return m, nil
})

type mapImporter map[string]*types.Package

func (m mapImporter) Import(path string) (*types.Package, error) {
	if p, ok := m[path]; ok {
		return p, nil
	}
	return nil, errors.New("not available to the fuzz test")
}

// checkSource parses and type-checks srcs (file name to text) as one
// package, in memory, as load does with go/packages. Extra files are added
// to the type check but not to the input.
func checkSource(t *testing.T, imps map[string]*types.Package, srcs map[string]string, extra map[string][]byte) (input, []error) {
	t.Helper()
	dir := string(filepath.Separator) + "fuzz"
	in := input{fset: token.NewFileSet(), dir: dir}
	rep := &reporter{fset: in.fset, dir: dir}
	var all []*ast.File
	for name, src := range srcs {
		f, err := parser.ParseFile(in.fset, filepath.Join(dir, name), src, parser.ParseComments)
		var list scanner.ErrorList
		if errors.As(err, &list) {
			for _, e := range list {
				rep.add(e.Pos, e.Msg)
			}
		} else if err != nil {
			t.Fatal(err)
		}
		if f != nil {
			in.files = append(in.files, f)
			all = append(all, f)
		}
	}
	in.fatal = rep.probs
	for name, src := range extra {
		f, err := parser.ParseFile(in.fset, filepath.Join(dir, name), src, parser.ParseComments)
		if err != nil {
			t.Fatalf("generated %s does not parse: %v\n%s", name, err, src)
		}
		all = append(all, f)
	}
	var typeErrs []error
	conf := types.Config{
		Importer: mapImporter(imps),
		Error:    func(err error) { typeErrs = append(typeErrs, err) },
	}
	in.info = &types.Info{Defs: map[*ast.Ident]types.Object{}, Types: map[ast.Expr]types.TypeAndValue{}}
	in.pkg, _ = conf.Check("example.com/fuzz", in.fset, all, in.info)
	rep.probs = nil
	for _, err := range typeErrs {
		var te types.Error
		if errors.As(err, &te) {
			rep.add(te.Fset.Position(te.Pos), te.Msg)
		}
	}
	in.typeErrs = rep.probs
	return in, typeErrs
}

var problemLine = regexp.MustCompile(`^[^\n:]+:\d+:\d+: [^\n]+$`)

// FuzzGenerate feeds arbitrary source text to the generator as an actor
// file: it must not panic, and it either reports problems as
// "file:line:col: message" lines or generates files that parse; when the
// input type-checks, the generated files must type-check with it.
func FuzzGenerate(f *testing.F) {
	seeds, err := filepath.Glob("testdata/*/input/*.go")
	if err != nil {
		f.Fatal(err)
	}
	for _, path := range seeds {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data))
	}
	f.Add("package p\n//troupe:actor\ntype A struct{}\n")
	f.Add("package p\nimport \"github.com/troupe-go/troupe/actor\"\n//troupe:actor\ntype A struct{}\nfunc (A) M(*actor.Context, A) A { return A{} }\n")
	f.Add("package p\nimport \"context\"\n//troupe:js kind=j\ntype J interface{\n\tM(ctx context.Context, x int) (string, error)\n\t//troupe:js name=t\n\tT(xs ...int) error\n\tU()\n}\n")
	f.Add("package p\nimport \"context\"\n//troupe:js\ntype J interface{ M(ctx context.Context, p J) error }\n")
	imps, err := fuzzImports()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src string) {
		in, typeErrs := checkSource(t, imps, map[string]string{"actor.go": src}, nil)
		if in.pkg == nil {
			return
		}
		files, _, err := generate(in, false)
		var probs Problems
		switch {
		case errors.As(err, &probs):
			if len(probs) == 0 {
				t.Fatal("empty Problems")
			}
			for _, line := range strings.Split(probs.Error(), "\n") {
				if !problemLine.MatchString(line) {
					t.Fatalf("problem %q is not file:line:col: message", line)
				}
			}
			return
		case err != nil:
			t.Fatalf("generator failed on valid input: %v", err)
		}
		_, genErrs := checkSource(t, imps, map[string]string{"actor.go": src}, files)
		if len(typeErrs) == 0 && len(genErrs) > 0 {
			t.Fatalf("generated code does not type-check: %v", genErrs)
		}
	})
}
