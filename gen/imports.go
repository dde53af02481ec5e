package gen

import (
	"go/types"
	"maps"
	"regexp"
	"slices"
	"strconv"

	"github.com/dave/jennifer/jen"
)

// numberedLocal matches the numbered locals of generated codecs (v0, k1,
// sub0, …) and of callByName (arg0, res0, …), which imports never take either.
var numberedLocal = regexp.MustCompile(`^(v|k|sub|system|kind|id|arg|res)[0-9]+$`)

// runtimeImports are the packages generated files may import besides
// those of message types, by import path, with their names.
var runtimeImports = map[string]string{
	actorPath: "actor", callPath: "call", loopPath: "loop", jsactorPath: "jsactor", netactorPath: "netactor", wirePath: "wire",
	shardingPath: "sharding",
	"context":    "context", "fmt": "fmt", "time": "time",
}

// importSet maps the import paths generated files may use to the name each
// goes by in them. Imports are file-scoped but may not share a name with
// anything the package declares, so a package that declares its own
// context (say) gets its generated files importing "context" under
// another name.
type importSet struct {
	names map[string]string // by path
	pkgs  map[string]string // by path: the package's own name
}

// chooseImports names the imports of the generated files of pkg, whose
// messages are msgs and whose generated codecs encode the fields of
// structs: each package's own name, unless taken (declared by the
// package, or by the generated code, or a local of generated bodies) or
// another import's, and then its name with "pkg" (and a number if need
// be).
func chooseImports(pkg *types.Package, msgs []message, structs []*types.Named, taken map[string]bool) importSet {
	imps := importSet{names: map[string]string{}, pkgs: maps.Clone(runtimeImports)}
	add := func(t types.Type) {
		walkTypes(t, func(obj *types.TypeName) {
			if p := obj.Pkg(); p != nil && p != pkg {
				imps.pkgs[p.Path()] = p.Name()
			}
		})
	}
	for _, msg := range msgs {
		for _, p := range msg.params {
			add(p.typ)
		}
		if msg.reply != nil {
			add(msg.reply)
		}
	}
	for _, s := range structs {
		add(s.Underlying())
	}
	taken = maps.Clone(taken)
	for _, name := range bodyLocals {
		taken[name] = true
	}
	free := func(name string) bool { return !taken[name] && !numberedLocal.MatchString(name) }
	paths := slices.Sorted(maps.Keys(imps.pkgs))
	// Own names first, so that a fresh name never takes another
	// package's own.
	for _, path := range paths {
		if name := imps.pkgs[path]; free(name) {
			imps.names[path] = name
			taken[name] = true
		}
	}
	for _, path := range paths {
		if _, ok := imps.names[path]; ok {
			continue
		}
		name := imps.pkgs[path] + "pkg"
		for i := 2; !free(name); i++ {
			name = imps.pkgs[path] + "pkg" + strconv.Itoa(i)
		}
		imps.names[path] = name
		taken[name] = true
	}
	return imps
}

// declare tells f the name of each import.
func (imps importSet) declare(f *jen.File) {
	for path, name := range imps.names {
		if name == imps.pkgs[path] {
			f.ImportName(path, name)
		} else {
			f.ImportAlias(path, name)
		}
	}
}
