package troupe_test

import (
	"bufio"
	"go/parser"
	"go/token"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestToolsMirrorGoMod keeps tools.go and the tool directives of go.mod in
// step: a tool added to one and not the other fails here.
func TestToolsMirrorGoMod(t *testing.T) {
	fromMod, err := goModTools("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	fromFile, err := toolsGoImports("tools.go")
	if err != nil {
		t.Fatal(err)
	}
	if len(fromMod) == 0 {
		t.Fatal("go.mod declares no tool")
	}
	if !slices.Equal(fromMod, fromFile) {
		t.Fatalf("go.mod tools %v != tools.go imports %v", fromMod, fromFile)
	}
}

// goModTools returns the sorted paths named by tool directives, in both the
// single-line and the block form.
func goModTools(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var tools []string
	inBlock := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if i := strings.Index(line, "//"); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		switch {
		case inBlock && line == ")":
			inBlock = false
		case inBlock && line != "":
			tools = append(tools, line)
		case line == "tool (":
			inBlock = true
		case strings.HasPrefix(line, "tool "):
			tools = append(tools, strings.TrimSpace(strings.TrimPrefix(line, "tool ")))
		}
	}
	slices.Sort(tools)
	return tools, sc.Err()
}

// toolsGoImports returns the sorted import paths of tools.go.
func toolsGoImports(path string) ([]string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, imp := range f.Imports {
		p, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			return nil, err
		}
		paths = append(paths, p)
	}
	slices.Sort(paths)
	return paths, nil
}
