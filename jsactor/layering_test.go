package jsactor_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The packages under jsactor are a one-way street: the actor glue
// (package jsactor) imports the lower packages, never the reverse, even
// indirectly, and each lower package imports only the troupe packages
// listed here (and third-party ones). A back-import, or a new import
// between the layers, makes this fail. jsactor/isolate is above the glue
// (it imports jsactor and remote) and is not checked here.
func TestPackageLayering(t *testing.T) {
	const mod = "github.com/troupe-go/troupe/"
	allowed := map[string][]string{ // the troupe packages each may import directly
		"jsactor/jsvalue":            nil,
		"jsactor/internal/nodetests": nil, // its tests alone, which run JS actors
		"jsactor/internal/sandbox":   nil,
		"jsactor/internal/web":       {"jsactor/internal/sandbox"},
		"jsactor/internal/convert":   {"jsactor/internal/sandbox", "jsactor/jsvalue", "internal/jsonfields", "actor", "actor/call"},
	}
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports ","}} {{join .Deps ","}}`, "./...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	seen := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := append(strings.Fields(line), "", "")
		pkg := strings.TrimPrefix(fields[0], mod)
		if pkg == "jsactor" || pkg == "jsactor/isolate" { // the glue, and the layer above it (it runs JS actors in child processes, over remote)
			continue
		}
		allow, known := allowed[pkg]
		if !known {
			t.Errorf("package %s is not in the layering table: add it with what it may import", pkg)
			continue
		}
		seen[pkg] = true
		for _, imp := range strings.Split(fields[1], ",") {
			if p, ours := strings.CutPrefix(imp, mod); ours && !slices.Contains(allow, p) {
				t.Errorf("%s imports %s (allowed: %v)", pkg, p, allow)
			}
		}
		if slices.Contains(strings.Split(fields[2], ","), mod+"jsactor") {
			t.Errorf("%s depends on package jsactor, the glue above it", pkg)
		}
	}
	for pkg := range allowed {
		if !seen[pkg] {
			t.Errorf("package %s of the layering table was not listed by go list", pkg)
		}
	}
}
