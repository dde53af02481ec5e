package gen_test

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/troupe-go/troupe/gen"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata")

// TestGolden runs the generator on every testdata/<case>/input package and
// compares its output with testdata/<case>/*.gen.go.golden, or its
// problems with testdata/<case>/errors.golden. Generated files must
// type-check with their input.
func TestGolden(t *testing.T) {
	entries, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		t.Run(e.Name(), func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join("testdata", e.Name())
			files, err := gen.Generate(filepath.Join(dir, "input"))
			var probs gen.Problems
			switch {
			case errors.As(err, &probs):
				want := map[string][]byte{"errors.golden": []byte(probs.Error() + "\n")}
				checkGolden(t, dir, want)
			case err != nil:
				t.Fatal(err)
			default:
				want := map[string][]byte{}
				for name, data := range files {
					want[name+".golden"] = data
				}
				checkGolden(t, dir, want)
				typeCheck(t, filepath.Join(dir, "input"), files)
			}
		})
	}
}

// checkGolden compares want with the golden files of dir, which must be
// exactly want's; with -update it rewrites them.
func checkGolden(t *testing.T, dir string, want map[string][]byte) {
	t.Helper()
	old, err := filepath.Glob(filepath.Join(dir, "*.golden"))
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		for _, path := range old {
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
		}
		for name, data := range want {
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	var have []string
	for _, path := range old {
		have = append(have, filepath.Base(path))
	}
	var names []string
	for name := range want {
		names = append(names, name)
	}
	slices.Sort(names)
	if !slices.Equal(have, names) {
		t.Fatalf("golden files %v, generated %v (run go test -update)", have, names)
	}
	for _, name := range names {
		golden, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(golden, want[name]) {
			t.Errorf("%s differs from the output (run go test -update):\n%s", name, want[name])
		}
	}
}

// typeCheck loads the package in dir with the generated files overlaid
// and fails on any error.
func typeCheck(t *testing.T, dir string, files map[string][]byte) {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	overlay := map[string][]byte{}
	for name, data := range files {
		overlay[filepath.Join(abs, name)] = data
	}
	cfg := &packages.Config{Mode: packages.NeedFiles | packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo, Dir: abs, Overlay: overlay}
	pkgs, err := packages.Load(cfg, ".")
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) != 1 {
		t.Fatalf("loaded %d packages", len(pkgs))
	}
	for name := range overlay {
		if !slices.Contains(pkgs[0].GoFiles, name) {
			t.Fatalf("%s not loaded: %v", name, pkgs[0].GoFiles)
		}
	}
	var errs []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			errs = append(errs, e.Error())
		}
	})
	if len(errs) > 0 {
		t.Fatalf("generated code does not type-check:\n%s", strings.Join(errs, "\n"))
	}
}
