package gen

import (
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"
)

// Generate loads the Go package in dir and returns the files troupegen
// generates for its annotated actors, keyed by file name (in dir). Files
// troupegen generated before are ignored, so stale ones never get in the
// way. Bad input yields [Problems]; other failures (the go command, a
// package that does not load) an ordinary error. The output is
// deterministic.
func Generate(dir string) (map[string][]byte, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	in, err := load(abs, nil)
	if err != nil {
		return nil, err
	}
	files, invalid, err := generate(in, false)
	if err == nil || !invalid {
		return files, err
	}
	// A message signature did not type-check. If that is because it uses
	// names troupegen generates (a CounterRef parameter, say), generating
	// without those messages declares them: try again with that output.
	skeleton, _, skelErr := generate(in, true)
	if skelErr != nil || len(skeleton) == 0 {
		return nil, err
	}
	overlay := map[string][]byte{}
	for name, data := range skeleton {
		overlay[filepath.Join(abs, name)] = data
	}
	if in, err = load(abs, overlay); err != nil {
		return nil, err
	}
	files, _, err = generate(in, false)
	return files, err
}

// input is a type-checked package, without the files troupegen generated.
type input struct {
	fset     *token.FileSet
	dir      string // absolute
	files    []*ast.File
	pkg      *types.Package
	info     *types.Info
	typeErrs Problems // outside generated files; tolerated unless a message needs the type
	fatal    Problems // errors that stop generation: syntax, the go command
}

// load loads the package in dir with go/packages, with overlay (file
// path to content) over the files on disk.
func load(dir string, overlay map[string][]byte) (input, error) {
	in := input{fset: token.NewFileSet(), dir: dir}
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedImports |
			packages.NeedTypes | packages.NeedTypesInfo,
		Dir:     dir,
		Fset:    in.fset,
		Overlay: overlay,
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

// generate generates the files of in's actors. invalid says whether a
// message signature did not type-check; with lenient set, such messages
// are left out instead of reported.
func generate(in input, lenient bool) (files map[string][]byte, invalid bool, err error) {
	rep := &reporter{fset: in.fset, dir: in.dir, probs: append(Problems(nil), in.fatal...)}
	if len(rep.probs) > 0 {
		return nil, false, sortProblems(rep.probs)
	}
	a := &analyzer{reporter: rep, pkg: in.pkg, info: in.info, decls: methodDecls(in), typeErrs: in.typeErrs, lenient: lenient}
	var specs []actorSpec
	var jsSpecs []jsSpec
	for _, an := range findAnnotated(rep, in.files) {
		if an.dir.verb == verbJS {
			if spec, ok := a.js(an); ok {
				jsSpecs = append(jsSpecs, spec)
			}
		} else if spec, ok := a.actor(an); ok {
			specs = append(specs, spec)
		}
	}
	checkClashes(rep, in, units(specs, jsSpecs))
	for _, spec := range specs {
		checkMethodClashes(rep, spec)
	}
	for _, spec := range jsSpecs {
		checkJSMethodClashes(rep, spec)
	}
	planCodecs(rep, in, specs)
	if len(rep.probs) > 0 {
		return nil, a.sawInvalid, sortProblems(rep.probs)
	}
	reserved := reservedNames(in.pkg, specs, jsSpecs)
	files = map[string][]byte{}
	for _, spec := range specs {
		data, err := render(in.pkg, spec, reserved)
		if err != nil {
			return nil, a.sawInvalid, err
		}
		files[namesOf(spec.name).file] = data
	}
	for _, spec := range jsSpecs {
		data, err := renderJS(in.pkg, spec, reserved)
		if err != nil {
			return nil, a.sawInvalid, err
		}
		files[namesOfJS(spec.name).file] = data
	}
	return files, a.sawInvalid, nil
}

// methodDecls maps the methods and interface methods declared in in's
// files to their signatures' syntax.
func methodDecls(in input) map[*types.Func]*ast.FuncType {
	decls := map[*types.Func]*ast.FuncType{}
	for _, f := range in.files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				if fn, ok := in.info.Defs[n.Name].(*types.Func); ok && n.Recv != nil {
					decls[fn] = n.Type
				}
			case *ast.InterfaceType:
				for _, m := range n.Methods.List {
					ft, isFunc := m.Type.(*ast.FuncType)
					if !isFunc || len(m.Names) != 1 {
						continue
					}
					if fn, ok := in.info.Defs[m.Names[0]].(*types.Func); ok {
						decls[fn] = ft
					}
				}
			}
			return true
		})
	}
	return decls
}

// reservedNames returns the names generated parameters may not take:
// anything the generated bodies may refer to.
func reservedNames(pkg *types.Package, specs []actorSpec, jsSpecs []jsSpec) map[string]bool {
	reserved := map[string]bool{}
	for _, name := range types.Universe.Names() {
		reserved[name] = true
	}
	for _, name := range pkg.Scope().Names() {
		reserved[name] = true
	}
	for _, name := range locals {
		reserved[name] = true
	}
	for _, u := range units(specs, jsSpecs) {
		for _, name := range u.top {
			reserved[name] = true
		}
	}
	if slices.ContainsFunc(specs, func(s actorSpec) bool { return s.remote }) {
		// Methods of the message structs of remote actors.
		reserved["MarshalWire"], reserved["UnmarshalWire"] = true, true
	}
	var msgs []message
	for _, spec := range specs {
		msgs = append(msgs, spec.msgs...)
	}
	for _, spec := range jsSpecs {
		for _, m := range spec.msgs {
			msgs = append(msgs, m.message)
		}
	}
	for _, name := range importNames(pkg, msgs) {
		reserved[name] = true
	}
	return reserved
}

// unit is what troupegen generates for one annotated type: a file and
// package-level names.
type unit struct {
	what string // "actor Counter", "JS actor Shop"
	pos  token.Pos
	file string
	top  []string
}

// units lists the generated units of specs and jsSpecs.
func units(specs []actorSpec, jsSpecs []jsSpec) []unit {
	var out []unit
	for _, spec := range specs {
		n := namesOf(spec.name)
		u := unit{what: "actor " + spec.name, pos: spec.pos, file: n.file, top: n.topLevel()}
		if len(spec.conn) > 0 { // XConn exists for connection actors only
			u.top = append(u.top, n.conn)
		}
		if spec.remote {
			u.top = append(u.top, registerFunc(spec))
		}
		for _, m := range spec.msgs {
			u.top = append(u.top, msgType(spec.name, m.name))
		}
		out = append(out, u)
	}
	for _, spec := range jsSpecs {
		n := namesOfJS(spec.name)
		out = append(out, unit{what: "JS actor " + spec.name, pos: spec.pos, file: n.file, top: n.topLevelJS()})
	}
	return out
}

// checkClashes reports generated names that clash with each other or with
// names the package declares.
func checkClashes(rep *reporter, in input, us []unit) {
	ours := map[string]bool{}
	for _, f := range in.files {
		ours[in.fset.File(f.Pos()).Name()] = true
	}
	declared := map[string]types.Object{}
	for _, name := range in.pkg.Scope().Names() {
		obj := in.pkg.Scope().Lookup(name)
		if obj.Pos().IsValid() && ours[in.fset.File(obj.Pos()).Name()] {
			declared[name] = obj
		}
	}
	generated := map[string]string{} // name → unit it is generated for
	files := map[string]string{}
	for _, u := range us {
		if other, ok := files[u.file]; ok {
			rep.errorf(u.pos, "%s: its generated file %s is also %s's", u.what, u.file, other)
		}
		files[u.file] = u.what
		for _, name := range u.top {
			if obj, ok := declared[name]; ok {
				rep.errorf(u.pos, "%s: generated name %s clashes with %s declared at %s",
					u.what, name, name, relPos(rep, obj.Pos()))
			}
			if other, ok := generated[name]; ok {
				rep.errorf(u.pos, "%s: generated name %s is also generated for %s", u.what, name, other)
			}
			generated[name] = u.what
		}
	}
}

func relPos(rep *reporter, pos token.Pos) string {
	p := rep.fset.Position(pos)
	p.Filename = relPath(rep.dir, p.Filename)
	return p.String()
}

// refBuiltins and timersBuiltins are the methods the generated ref and
// timers have besides those of the messages.
var (
	refBuiltins    = []string{"Poison", "Ref", "Stop", "String"}
	timersBuiltins = []string{"Cancel", "CancelAll", "IsActive"}
)

// checkMethodClashes reports messages whose generated methods clash with
// each other or with the built-in methods of the ref and the timers.
func checkMethodClashes(rep *reporter, spec actorSpec) {
	n := namesOf(spec.name)
	ref, timers := map[string]string{}, map[string]string{}
	for _, name := range refBuiltins {
		ref[name] = ""
	}
	for _, name := range timersBuiltins {
		timers[name] = ""
	}
	claim := func(m message, typ string, methods map[string]string, name string) {
		switch owner, ok := methods[name]; {
		case ok && owner == "":
			rep.errorf(m.pos, "%s.%s: generated method %s.%s clashes with the built-in %s.%s; rename the method",
				spec.name, m.name, typ, name, typ, name)
		case ok:
			rep.errorf(m.pos, "%s.%s: generated method %s.%s is also generated for message %s; rename one",
				spec.name, m.name, typ, name, owner)
		}
		methods[name] = m.name
	}
	for _, m := range spec.msgs {
		claim(m, n.ref, ref, m.name)
		if m.asks() {
			claim(m, n.ref, ref, m.name+"Async")
		}
		for _, k := range timerKinds {
			claim(m, n.timers, timers, m.name+k.suffix)
		}
	}
}

// isGenFile reports whether name is a file name troupegen generates.
func isGenFile(name string) bool {
	return strings.HasSuffix(name, "_actor.gen.go") || strings.HasSuffix(name, "_jsactor.gen.go")
}
