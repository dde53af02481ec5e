package gen

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var problemLine = regexp.MustCompile(`^[^\n:]+:\d+:\d+: [^\n]+$`)

// FuzzGenerate feeds arbitrary source text to the generator as an actor
// file: it must not panic, and it either reports problems as
// "file:line:col: message" lines or generates files that parse; when the
// input type-checks, the generated files must type-check with it.
//
// Its seeds are a few inputs written here and the files of a few golden
// cases, of each kind of actor and of problems; every golden case's
// files with -exhaustive (TROUPE_GEN_EXHAUSTIVE=1, as in CI), since
// TestGolden runs those cases whole already (about 3 s under -race).
func FuzzGenerate(f *testing.F) {
	pattern := "testdata/{counter,js_shop,codec,conn,bad_types,bad_near_miss}/input/*.go"
	if *exhaustive {
		pattern = "testdata/*/input/*.go"
	}
	seeds, err := globBraces(pattern)
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
	imps, err := testImports()
	if err != nil {
		f.Fatal(err)
	}
	const dir, name = "/fuzz", "/fuzz/actor.go"
	f.Fuzz(func(t *testing.T, src string) {
		srcs := map[string][]byte{name: []byte(src)}
		in, typeErrs := checkFiles(imps, dir, "example.com/fuzz", srcs)
		if in.pkg == nil {
			return
		}
		files, warns, _, err := generate(in, false)
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
		for _, w := range warns {
			if !problemLine.MatchString(w.String()) || !strings.Contains(w.Msg, "warning: ") {
				t.Fatalf("warning %q is not file:line:col: warning: message", w)
			}
		}
		for file, data := range files {
			srcs[filepath.Join(dir, file)] = data
		}
		out, genErrs := checkFiles(imps, dir, "example.com/fuzz", srcs)
		if len(out.fatal) > len(in.fatal) {
			t.Fatalf("generated code does not parse: %v", out.fatal)
		}
		if len(typeErrs) == 0 && len(genErrs) > 0 {
			t.Fatalf("generated code does not type-check: %v", genErrs)
		}
	})
}

// globBraces is filepath.Glob with one {a,b,...} alternation.
func globBraces(pattern string) ([]string, error) {
	open, close := strings.IndexByte(pattern, '{'), strings.IndexByte(pattern, '}')
	if open < 0 || close < open {
		return filepath.Glob(pattern)
	}
	var out []string
	for _, alt := range strings.Split(pattern[open+1:close], ",") {
		matches, err := filepath.Glob(pattern[:open] + alt + pattern[close+1:])
		if err != nil {
			return nil, err
		}
		out = append(out, matches...)
	}
	return out, nil
}
