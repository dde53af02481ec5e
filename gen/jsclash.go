package gen

// checkJSMethodClashes reports the methods of a //troupe:js interface
// whose generated ref methods clash with each other or with the ref's
// built-in methods, and two methods naming the same JavaScript handler.
func checkJSMethodClashes(rep *reporter, spec jsSpec) {
	ref := namesOfJS(spec.name).ref
	methods := map[string]string{}
	for _, name := range refBuiltins {
		methods[name] = ""
	}
	claim := func(m jsMessage, name string) {
		switch owner, ok := methods[name]; {
		case ok && owner == "":
			rep.errorf(m.pos, "%s.%s: generated method %s.%s clashes with the built-in %s.%s; rename the method (//troupe:js name= keeps the handler's name)",
				spec.name, m.name, ref, name, ref, name)
		case ok:
			rep.errorf(m.pos, "%s.%s: generated method %s.%s is also generated for method %s; rename one",
				spec.name, m.name, ref, name, owner)
		}
		methods[name] = m.name
	}
	handlers := map[string]string{}
	for _, m := range spec.msgs {
		claim(m, m.name)
		if m.ask {
			claim(m, m.name+"Async")
		}
		if other, ok := handlers[m.handler]; ok {
			rep.errorf(m.pos, "%s.%s: JavaScript handler %q is also %s's; name one with //troupe:js name=NAME",
				spec.name, m.name, m.handler, other)
		}
		handlers[m.handler] = m.name
	}
}
