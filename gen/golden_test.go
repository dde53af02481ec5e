package gen

import (
	"bytes"
	"errors"
	"flag"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

var (
	update = flag.Bool("update", false, "rewrite the golden files of testdata")
	// exhaustive also runs the cases through go/packages, as Generate
	// does: slow (the go command per case), so CI sets it and the edit
	// and test loop need not.
	exhaustive = flag.Bool("exhaustive", os.Getenv("TROUPE_GEN_EXHAUSTIVE") != "",
		"also run every golden case through go/packages (or set TROUPE_GEN_EXHAUSTIVE=1)")
)

// goldenCases lists the directories of testdata, one case each.
func goldenCases(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, filepath.Join("testdata", e.Name()))
		}
	}
	return dirs
}

// TestGolden runs the generator on every testdata/<case>/input package and
// compares its output with testdata/<case>/*.gen.go.golden, or its
// problems with testdata/<case>/errors.golden. Generated files must
// type-check with their input. Packages are type-checked in memory
// against dependencies loaded once (see testImports).
func TestGolden(t *testing.T) {
	imps, err := testImports()
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range goldenCases(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			t.Parallel()
			abs, pkgPath := caseDir(t, dir)
			in, err := loadMem(imps, abs, pkgPath)
			if err != nil {
				t.Fatal(err)
			}
			files, warns, err := generateFrom(in)
			if compareGolden(t, dir, files, warns, err) {
				typeCheck(t, imps, abs, pkgPath, files)
			}
		})
	}
}

// TestGoldenGoPackages runs every golden case through Generate, which
// loads packages with go/packages (and so the go command): what go
// generate does. Only with -exhaustive: TestGolden covers the generator,
// and the examples and the command's tests cover Generate's loading.
func TestGoldenGoPackages(t *testing.T) {
	if !*exhaustive {
		t.Skip("set -exhaustive or TROUPE_GEN_EXHAUSTIVE=1")
	}
	if *update {
		t.Skip("TestGolden updates the golden files")
	}
	imps, err := testImports()
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range goldenCases(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			t.Parallel()
			abs, pkgPath := caseDir(t, dir)
			files, warns, err := Generate(abs)
			if compareGolden(t, dir, files, warns, err) {
				typeCheck(t, imps, abs, pkgPath, files)
			}
		})
	}
}

// compareGolden compares the outcome of generating the case in dir with
// its golden files (warnings.golden for warnings), and reports whether it
// generated files.
func compareGolden(t *testing.T, dir string, files map[string][]byte, warns Problems, err error) bool {
	t.Helper()
	want := map[string][]byte{}
	if len(warns) > 0 {
		want["warnings.golden"] = []byte(warns.Error() + "\n")
	}
	var probs Problems
	switch {
	case errors.As(err, &probs):
		want["errors.golden"] = []byte(probs.Error() + "\n")
		checkGolden(t, dir, want)
		return false
	case err != nil:
		t.Fatal(err)
	}
	for name, data := range files {
		want[name+".golden"] = data
	}
	checkGolden(t, dir, want)
	return true
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

// typeCheck type-checks the package pkgPath in abs with files, generated
// for it, beside its own, in memory, and fails on any error.
func typeCheck(t *testing.T, imps map[string]*types.Package, abs, pkgPath string, files map[string][]byte) {
	t.Helper()
	srcs, _, err := readPackage(abs)
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range files {
		srcs[filepath.Join(abs, name)] = data
	}
	if _, errs := checkFiles(imps, abs, pkgPath, srcs); len(errs) > 0 {
		t.Fatalf("generated code does not type-check:\n%v", errors.Join(errs...))
	}
}

// caseDir returns the absolute input directory of the golden case in dir
// and its package path.
func caseDir(t *testing.T, dir string) (abs, pkgPath string) {
	t.Helper()
	abs, err := filepath.Abs(filepath.Join(dir, "input"))
	if err != nil {
		t.Fatal(err)
	}
	return abs, "github.com/troupe-go/troupe/gen/" + filepath.ToSlash(filepath.Join(dir, "input"))
}
