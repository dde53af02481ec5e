package jsactor_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The packages under jsactor are a one-way street: the actor glue
// (package jsactor) imports the lower packages, never the reverse, and
// each lower package reaches only the troupe packages listed here (and
// third-party ones). A back-import would make this fail.
func TestPackageLayering(t *testing.T) {
	const mod = "github.com/troupe-go/troupe/"
	allowed := map[string][]string{ // troupe packages each may import, transitively
		"jsactor/jsvalue":          nil,
		"jsactor/internal/sandbox": nil,
		"jsactor/internal/web":     {"jsactor/internal/sandbox"},
	}
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Deps " "}}`, "./...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	seen := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(fields[0], mod)
		if pkg == "jsactor" {
			continue
		}
		allow, known := allowed[pkg]
		if !known {
			t.Errorf("package %s is not in the layering table: add it with what it may import", pkg)
			continue
		}
		seen[pkg] = true
		for _, dep := range fields[1:] {
			d, ours := strings.CutPrefix(dep, mod)
			if ours && !slices.Contains(allow, d) {
				t.Errorf("%s imports %s (allowed: %v)", pkg, d, allow)
			}
		}
	}
	for pkg := range allowed {
		if !seen[pkg] {
			t.Errorf("package %s of the layering table was not listed by go list", pkg)
		}
	}
}
