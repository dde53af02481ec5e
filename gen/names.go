package gen

import (
	"go/token"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// names are the identifiers generated for one actor.
type names struct {
	file     string // counter_actor.gen.go
	adapter  string // counterActor
	factory  string // counterFactory
	ref      string // CounterRef
	refOf    string // CounterRefOf
	spawn    string // SpawnCounter
	timers   string // CounterTimers, for an actor with tells
	timersOf string // CounterTimersOf, for an actor with tells
	conn     string // CounterConn, for a connection actor
	messages string // CounterMessages, for an actor with messages
	regKind  string // RegisterCounterKind, for a remote actor
	spawnOn  string // SpawnCounterOn, for a remote actor
	// For a sharded actor:
	entity      string // CounterEntity
	entities    string // CounterEntities
	regEntities string // RegisterCounterEntities
	entityOf    string // CounterEntityOf
}

// namesOf returns the generated names of actor type name: exported for an
// exported actor, unexported otherwise.
func namesOf(name string) names {
	lower := lowerFirst(name)
	upper := upperFirst(name)
	pub := func(s string) string { return s }
	if !token.IsExported(name) {
		pub = lowerFirst
	}
	return names{
		file:     snake(name) + "_actor.gen.go",
		adapter:  lower + "Actor",
		factory:  lower + "Factory",
		ref:      pub(upper + "Ref"),
		refOf:    pub(upper + "RefOf"),
		spawn:    pub("Spawn" + upper),
		timers:   pub(upper + "Timers"),
		timersOf: pub(upper + "TimersOf"),
		conn:     pub(upper + "Conn"),
		messages: pub(upper + "Messages"),
		regKind:  pub("Register" + upper + "Kind"),
		spawnOn:  pub("Spawn" + upper + "On"),

		entity:      pub(upper + "Entity"),
		entities:    pub(upper + "Entities"),
		regEntities: pub("Register" + upper + "Entities"),
		entityOf:    pub(upper + "EntityOf"),
	}
}

// topLevel lists the package-level names of n that every actor has, for
// clash checks.
func (n names) topLevel() []string {
	return []string{n.adapter, n.factory, n.ref, n.refOf, n.spawn, n.messages}
}

// namesOfJS returns the generated names of //troupe:js interface name;
// only file, ref, refOf and spawn are set. The file is shop_jsactor.gen.go,
// not shop_js.gen.go: a _js suffix would be a GOOS=js build constraint.
func namesOfJS(name string) names {
	n := namesOf(name)
	return names{file: snake(name) + "_jsactor.gen.go", ref: n.ref, refOf: n.refOf, spawn: n.spawn}
}

// topLevelJS lists the package-level names of n, made by namesOfJS.
func (n names) topLevelJS() []string { return []string{n.ref, n.refOf, n.spawn} }

// withArticle returns name after its indefinite article, as read aloud:
// "a Counter", "an Inventory", "an HTTPServer", "a UserStore".
func withArticle(name string) string {
	rs := []rune(name)
	if len(rs) == 0 {
		return name
	}
	an := false
	if len(rs) > 1 && unicode.IsUpper(rs[0]) && unicode.IsUpper(rs[1]) {
		// An initialism is read letter by letter: an HTTP…, a URL….
		an = strings.ContainsRune("AEFHILMNORSX", rs[0])
	} else {
		lower := strings.ToLower(name)
		an = strings.ContainsRune("aeio", rune(lower[0])) ||
			lower[0] == 'u' && !hasAnyPrefix(lower, "uni", "use", "usa", "usu", "uti", "ura", "ure", "uri", "uro")
		an = an && !hasAnyPrefix(lower, "one", "eu", "ewe")
	}
	if an {
		return "an " + name
	}
	return "a " + name
}

func hasAnyPrefix(s string, prefixes ...string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// msgType returns the name of the message struct of method of actor.
func msgType(actor, method string) string {
	return lowerFirst(actor) + upperFirst(method) + "Msg"
}

// lowerFirst lowers the leading capital of s, or its leading run of
// capitals as an initialism: HTTPServer → httpServer, ID → id.
func lowerFirst(s string) string {
	rs := []rune(s)
	n := 0
	for n < len(rs) && unicode.IsUpper(rs[n]) {
		n++
	}
	if n > 1 && n < len(rs) && unicode.IsLower(rs[n]) {
		n-- // the last capital starts the next word
	}
	for i := range n {
		rs[i] = unicode.ToLower(rs[i])
	}
	return string(rs)
}

func upperFirst(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[size:]
}

// snake turns a Go name into a file name stem: HTTPServer → http_server.
func snake(s string) string {
	rs := []rune(s)
	var b strings.Builder
	for i, r := range rs {
		if unicode.IsUpper(r) && i > 0 &&
			(unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1]) ||
				i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(rs[i-1])) {
			b.WriteByte('_')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// fresh returns base, or base with a number, whichever taken does not
// hold, and marks it taken.
func fresh(base string, taken map[string]bool) string {
	name := base
	for i := 2; taken[name]; i++ {
		name = base + strconv.Itoa(i)
	}
	taken[name] = true
	return name
}
