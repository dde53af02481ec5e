package gen

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"
)

// Generate loads the Go package in dir and returns the files troupegen
// generates for its annotated actors, keyed by file name (in dir). Files
// troupegen generated before are ignored, so stale ones never get in the
// way. Bad input yields [Problems]; other failures (the go command, a
// package that does not load) an ordinary error. The output is
// deterministic.
//
// warnings say what was left out without stopping generation, each
// message starting "warning: ": an exported method of an actor that is
// no message, and annotated types in files this build does not read
// (other GOOS, GOARCH or tags, and test files).
func Generate(dir string) (files map[string][]byte, warnings Problems, err error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, nil, err
	}
	in, err := load(abs)
	if err != nil {
		return nil, nil, err
	}
	return generateFrom(in)
}

// generateFrom generates the files of the package in.
func generateFrom(in input) (map[string][]byte, Problems, error) {
	files, warns, invalid, err := generate(in, false)
	if err == nil || !invalid {
		return files, warns, err
	}
	// A message signature did not type-check. If that is because it uses
	// names troupegen generates (a CounterRef parameter, say), generating
	// without those messages declares them: try again with that output.
	skeleton, _, _, skelErr := generate(in, true)
	if skelErr != nil || len(skeleton) == 0 {
		return nil, warns, err
	}
	outside := in.outside
	in, err = recheck(in, skeleton)
	if err != nil {
		return nil, warns, err
	}
	in.outside = outside
	files, warns, _, err = generate(in, false)
	return files, warns, err
}

// generate generates the files of in's actors, and returns the warnings
// it has. invalid says whether a message signature did not type-check;
// with lenient set, such messages are left out instead of reported.
func generate(in input, lenient bool) (files map[string][]byte, warns Problems, invalid bool, err error) {
	rep := &reporter{fset: in.fset, dir: in.dir, probs: append(Problems(nil), in.fatal...)}
	if len(rep.probs) > 0 {
		return nil, nil, false, sortProblems(rep.probs)
	}
	defer func() { warns = sortProblems(rep.warns) }()
	warnOutside(rep, in.outside)
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
	nameUnexported(in, specs)
	checkClashes(rep, in, units(specs, jsSpecs))
	checkKinds(rep, specs, jsSpecs)
	for _, spec := range specs {
		checkMethodClashes(rep, spec)
		checkCallNames(rep, spec)
	}
	for _, spec := range jsSpecs {
		checkJSMethodClashes(rep, spec)
	}
	planCodecs(rep, in, specs)
	checkOverwrites(rep, in, units(specs, jsSpecs))
	if len(rep.probs) > 0 {
		return nil, nil, a.sawInvalid, sortProblems(rep.probs)
	}
	imps := chooseImports(in.pkg, allMessages(specs, jsSpecs), codecStructs(specs), packageNames(in.pkg, specs, jsSpecs))
	reserved := reservedNames(in.pkg, specs, jsSpecs, imps)
	files = map[string][]byte{}
	refs := ownRefs(specs, jsSpecs)
	for _, spec := range specs {
		data, err := render(in.pkg, spec, imps, reserved, refs)
		if err != nil {
			return nil, nil, a.sawInvalid, err
		}
		files[spec.n.file] = withConstraint(data, fileConstraint(in, spec.pos))
	}
	for _, spec := range jsSpecs {
		data, err := renderJS(in.pkg, spec, imps, reserved)
		if err != nil {
			return nil, nil, a.sawInvalid, err
		}
		files[namesOfJS(spec.name).file] = withConstraint(data, fileConstraint(in, spec.pos))
	}
	return files, nil, a.sawInvalid, nil
}

// checkOverwrites reports the generated files of us that would take the
// place of a file of the package troupegen did not write (one without
// its header, in or out of this build): troupegen never overwrites one.
func checkOverwrites(rep *reporter, in input, us []unit) {
	theirs := map[string]token.Pos{} // base name → a position in the file
	for _, f := range in.files {
		theirs[filepath.Base(in.fset.File(f.Pos()).Name())] = f.Package
	}
	for _, name := range in.outside {
		if _, ok := theirs[filepath.Base(name)]; !ok && isGenFile(filepath.Base(name)) && !isOursOnDisk(name) {
			theirs[filepath.Base(name)] = token.NoPos
		}
	}
	for _, u := range us {
		pos, ok := theirs[u.file]
		if !ok {
			continue
		}
		msg := fmt.Sprintf("%s is not a file troupegen wrote (it lacks the line // %s), but %s's generated code goes there: "+
			"troupegen does not overwrite it; rename or remove it", u.file, header, u.what)
		if pos.IsValid() {
			rep.errorf(pos, "%s", msg)
		} else {
			rep.add(token.Position{Filename: filepath.Join(in.dir, u.file), Line: 1, Column: 1}, msg)
		}
	}
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

// packageNames returns the package-level names of pkg and of the files
// generated for specs and jsSpecs.
func packageNames(pkg *types.Package, specs []actorSpec, jsSpecs []jsSpec) map[string]bool {
	names := map[string]bool{}
	for _, name := range pkg.Scope().Names() {
		names[name] = true
	}
	for _, u := range units(specs, jsSpecs) {
		for _, name := range u.top {
			names[name] = true
		}
	}
	return names
}

// codecStructs returns the structs whose codecs the remote actors of
// specs generate.
func codecStructs(specs []actorSpec) []*types.Named {
	var out []*types.Named
	for _, spec := range specs {
		if spec.wire != nil {
			for _, s := range spec.wire.structs {
				out = append(out, s.named)
			}
		}
	}
	return out
}

// allMessages returns the messages of specs and jsSpecs.
func allMessages(specs []actorSpec, jsSpecs []jsSpec) []message {
	var msgs []message
	for _, spec := range specs {
		msgs = append(msgs, spec.msgs...)
	}
	for _, spec := range jsSpecs {
		for _, m := range spec.msgs {
			msgs = append(msgs, m.message)
		}
	}
	return msgs
}

// reservedNames returns the names generated parameters may not take:
// anything the generated bodies may refer to.
func reservedNames(pkg *types.Package, specs []actorSpec, jsSpecs []jsSpec, imps importSet) map[string]bool {
	reserved := packageNames(pkg, specs, jsSpecs)
	for _, name := range types.Universe.Names() {
		reserved[name] = true
	}
	for _, name := range locals {
		reserved[name] = true
	}
	if slices.ContainsFunc(specs, func(s actorSpec) bool { return s.crossesNodes() }) {
		// Methods of the message structs of remote actors.
		reserved["MarshalWire"], reserved["UnmarshalWire"] = true, true
	}
	for _, name := range imps.names {
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
		n := spec.n
		u := unit{what: "actor " + spec.name, pos: spec.pos, file: n.file, top: n.topLevel()}
		if len(spec.conn) > 0 { // XConn exists for connection actors only
			u.top = append(u.top, n.conn)
		}
		if spec.crossesNodes() {
			u.top = append(u.top, registerFunc(spec))
		}
		if spec.remote {
			u.top = append(u.top, n.regKind, n.spawnOn)
		}
		if spec.sharded {
			u.top = append(u.top, n.entity, n.entities, n.regEntities, n.entityOf)
		}
		if spec.hasTells() { // typed timers exist for actors with tells only
			u.top = append(u.top, n.timers, n.timersOf)
		}
		for _, m := range spec.msgs {
			u.top = append(u.top, m.typeName)
			if m.boxes != "" {
				u.top = append(u.top, m.boxes)
			}
		}
		out = append(out, u)
	}
	for _, spec := range jsSpecs {
		n := namesOfJS(spec.name)
		out = append(out, unit{what: "JS actor " + spec.name, pos: spec.pos, file: n.file, top: n.topLevelJS()})
	}
	return out
}

// declaredNames returns the package-level names of in's files (not of
// files troupegen generated).
func declaredNames(in input) map[string]types.Object {
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
	return declared
}

// nameUnexported names the unexported package-level declarations of the
// files of specs (adapters, factories, message structs) so that none
// takes a name the package declares: counterActor, or counterActor2 if
// the package has a counterActor of its own. Exported names are API and
// do not move: checkClashes reports theirs.
func nameUnexported(in input, specs []actorSpec) {
	taken := map[string]bool{}
	for name := range declaredNames(in) {
		taken[name] = true
	}
	for i := range specs {
		n := &specs[i].n
		for _, name := range []string{n.ref, n.refOf, n.spawn, n.timers, n.timersOf, n.conn} {
			taken[name] = true
		}
	}
	for i := range specs {
		n := &specs[i].n
		n.adapter, n.factory = fresh(n.adapter, taken), fresh(n.factory, taken)
		for j := range specs[i].msgs {
			m := &specs[i].msgs[j]
			m.typeName = fresh(m.typeName, taken)
			if m.boxed() {
				m.boxes = fresh(strings.TrimSuffix(msgType(specs[i].name, m.name), "Msg")+"Boxes", taken)
			}
		}
	}
}

// checkClashes reports generated names that clash with each other or with
// names the package declares.
func checkClashes(rep *reporter, in input, us []unit) {
	declared := declaredNames(in)
	if len(us) > 0 {
		checkPredeclared(rep, declared)
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

// generatedPredeclared are the predeclared identifiers generated files
// may use. Unlike an import, a predeclared identifier cannot be renamed
// in them, so a package may not declare one at package level.
var generatedPredeclared = []string{
	"any", "append", "bool", "byte", "error", "false", "float64", "int64", "len", "make", "nil", "string", "true", "uint64",
}

// checkPredeclared reports the package-level names of the package (in
// declared) that shadow a predeclared identifier generated files use.
func checkPredeclared(rep *reporter, declared map[string]types.Object) {
	for _, name := range generatedPredeclared {
		if obj, ok := declared[name]; ok {
			rep.errorf(obj.Pos(), "%s shadows the predeclared %s at package level, which the files troupegen generates use; rename it",
				name, name)
		}
	}
}

// checkKinds reports two actors of the package, Go or JavaScript, that
// have the same kind: a ref names an actor by kind and id, so one kind
// means one actor type.
func checkKinds(rep *reporter, specs []actorSpec, jsSpecs []jsSpec) {
	type owner struct {
		what string
		pos  token.Pos
	}
	kinds := map[string]owner{}
	claim := func(what string, pos token.Pos, kind string) {
		if first, ok := kinds[kind]; ok {
			rep.errorf(pos, "%s: kind %q is also %s's (%s): a ref names an actor by kind and id, so each actor type needs its own kind; set another with kind=NAME",
				what, kind, first.what, relPos(rep, first.pos))
			return
		}
		kinds[kind] = owner{what, pos}
	}
	for _, spec := range specs {
		claim("actor "+spec.name, spec.pos, spec.kind)
	}
	for _, spec := range jsSpecs {
		claim("JS actor "+spec.name, spec.pos, spec.kind)
	}
}

func relPos(rep *reporter, pos token.Pos) string {
	p := rep.fset.Position(pos)
	p.Filename = relPath(rep.dir, p.Filename)
	return p.String()
}

// refBuiltins and timersBuiltins are the methods (and the embedded
// field) the generated ref and timers have besides those of the messages:
// the typed timers embed actor.Timers.
var (
	refBuiltins    = []string{"Poison", "Ref", "Stop", "String"}
	timersBuiltins = []string{"Cancel", "CancelAll", "IsActive", "StartFixedDelay", "StartFixedRate", "StartSingle", "Timers"}
)

// checkMethodClashes reports messages whose generated methods clash with
// each other or with the built-in methods of the ref and the timers.
func checkMethodClashes(rep *reporter, spec actorSpec) {
	n := spec.n
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
		if m.asks() {
			continue // typed timers deliver tells only
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

// ownRefs returns the names of the typed refs generated for specs and
// jsSpecs, whose XRefOf functions are generated beside them.
func ownRefs(specs []actorSpec, jsSpecs []jsSpec) map[string]bool {
	refs := map[string]bool{}
	for _, spec := range specs {
		refs[spec.n.ref] = true
	}
	for _, spec := range jsSpecs {
		refs[namesOfJS(spec.name).ref] = true
	}
	return refs
}
