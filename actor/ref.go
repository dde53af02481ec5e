package actor

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"strings"
)

// Ref names an actor: its system and its path. A top-level actor's path
// is its kind and id ("account/42"); a child's is its parent's path
// followed by its own kind and id ("account/42/auditor/main"), so a name
// need only be unique among siblings, as in Akka. A Ref is a small
// comparable value, safe to copy and share between goroutines, and it
// does not point at the actor: a Ref stays valid, and means the same
// actor, in another process (remote actors) or after the actor stopped
// (messages then go to dead letters). The zero Ref names no actor.
type Ref struct {
	system string
	path   string // kind/id segments from the top-level ancestor down, each escaped (see escapeSegment)
	h      uint64 // nameHash(path), so a send hashes nothing
}

// NewRef returns the ref of the top-level actor kind/id in the named
// system; [Ref.Child] names the actors below it.
func NewRef(system, kind, id string) Ref {
	if system == "" && kind == "" && id == "" {
		return Ref{}
	}
	return refOf(system, escapeSegment(kind)+"/"+escapeSegment(id))
}

// refOf returns the ref of the escaped path in system.
func refOf(system, path string) Ref {
	return Ref{system: system, path: path, h: nameHash(path)}
}

// nameSeed seeds the hash of actor paths, the same for every system of
// the process (refs are process-local values; a ref from elsewhere is
// made anew with NewRef or decoded).
var nameSeed = maphash.MakeSeed()

// nameHash hashes an actor's path.
func nameHash(path string) uint64 { return maphash.String(nameSeed, path) }

// Child returns the ref of the actor kind/id spawned by the actor r
// names. The zero Ref has no children: Child returns the zero Ref.
func (r Ref) Child(kind, id string) Ref {
	if r.IsZero() {
		return Ref{}
	}
	return refOf(r.system, r.path+"/"+escapeSegment(kind)+"/"+escapeSegment(id))
}

// Parent returns the ref of the actor that spawned r's, or the zero Ref
// for a top-level actor.
func (r Ref) Parent() Ref {
	parent, _, _ := r.split()
	if parent == "" {
		return Ref{}
	}
	return refOf(r.system, parent)
}

// split returns r's parent path and its own escaped kind and id.
func (r Ref) split() (parent, kind, id string) {
	i := strings.LastIndexByte(r.path, '/')
	if i < 0 {
		return "", "", ""
	}
	rest := r.path[:i]
	j := strings.LastIndexByte(rest, '/')
	if j < 0 {
		return "", rest, r.path[i+1:]
	}
	return rest[:j], rest[j+1:], r.path[i+1:]
}

// System returns the name of the actor's system.
func (r Ref) System() string { return r.system }

// Kind returns the actor's kind.
func (r Ref) Kind() string {
	_, k, _ := r.split()
	return unescapeSegment(k)
}

// ID returns the actor's id, unique among its siblings of its kind (or
// among top-level actors of its kind).
func (r Ref) ID() string {
	_, _, id := r.split()
	return unescapeSegment(id)
}

// Path returns the actor's path: kind and id from the top-level
// ancestor down, joined by '/', with '/', '%' and control characters in
// a kind or id written as %XX (%2F, %25, %0A...).
func (r Ref) Path() string { return r.path }

// IsZero reports whether r names no actor.
func (r Ref) IsZero() bool { return r == Ref{} }

// String returns "troupe://system/path", which [ParseRef] reads back;
// '/' and '%' in the system's name are written as in a path.
func (r Ref) String() string {
	if r.IsZero() {
		return zeroRefString
	}
	return "troupe://" + escapeSegment(r.system) + "/" + r.path
}

const (
	refScheme     = "troupe://"
	zeroRefString = refScheme + "<none>" // the zero Ref, printed
)

// ParseRef returns the ref that [Ref.String] printed: "troupe://", a
// non-empty system name, then kind/id pairs separated by '/' (or
// "troupe://<none>", the zero Ref). Other input fails with [ErrBadRef].
func ParseRef(s string) (Ref, error) {
	if s == zeroRefString {
		return Ref{}, nil
	}
	rest, ok := strings.CutPrefix(s, refScheme)
	if !ok {
		return Ref{}, fmt.Errorf("%w: %q: no %s", ErrBadRef, s, refScheme)
	}
	system, path, ok := strings.Cut(rest, "/")
	if !ok || system == "" {
		return Ref{}, fmt.Errorf("%w: %q: no system and path", ErrBadRef, s)
	}
	system, err := unescapeChecked(system)
	if err != nil {
		return Ref{}, fmt.Errorf("%w: %q: %w", ErrBadRef, s, err)
	}
	canon, err := canonicalPath(path)
	if err != nil {
		return Ref{}, fmt.Errorf("%w: %q: %w", ErrBadRef, s, err)
	}
	return refOf(system, canon), nil
}

// canonicalPath checks that path is kind/id pairs and returns it with
// each segment escaped as escapeSegment does, so that equal names give
// equal refs however they were escaped.
func canonicalPath(path string) (string, error) {
	segs := strings.Split(path, "/")
	if len(segs)%2 != 0 {
		return "", errors.New("a path is kind/id pairs")
	}
	for i, s := range segs {
		u, err := unescapeChecked(s)
		if err != nil {
			return "", err
		}
		segs[i] = escapeSegment(u)
	}
	return strings.Join(segs, "/"), nil
}

// escapeSegment writes '%', '/' and control characters (bytes below
// 0x20, and 0x7f) in a kind or id as %XX, so that a path splits at its
// slashes only and prints on one line; other bytes stand for themselves.
func escapeSegment(s string) string {
	i := 0
	for i < len(s) && !mustEscape(s[i]) {
		i++
	}
	if i == len(s) {
		return s
	}
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	b.Grow(len(s) + 4)
	b.WriteString(s[:i])
	for ; i < len(s); i++ {
		if c := s[i]; mustEscape(c) {
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// mustEscape reports whether escapeSegment writes c as %XX.
func mustEscape(c byte) bool { return c == '%' || c == '/' || c < 0x20 || c == 0x7f }

// unescapeSegment reverses escapeSegment on a segment of a valid path.
func unescapeSegment(s string) string {
	u, _ := unescapeChecked(s)
	return u
}

// unescapeChecked decodes the %XX escapes of a path segment.
func unescapeChecked(s string) (string, error) {
	if !strings.Contains(s, "%") {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b.WriteByte(s[i])
			continue
		}
		if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
			return "", fmt.Errorf("bad escape in %q", s)
		}
		b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
		i += 2
	}
	return b.String(), nil
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

// KindRegistrar is where a node registers the factory of an actor kind,
// so that other nodes may spawn actors of that kind on it: a
// *remote.Node. The RegisterXKind functions troupegen generates for
// remote actors take one, so that generated code need not import remote.
type KindRegistrar interface {
	RegisterKind(kind string, f Factory) error
}

// RemoteSpawner spawns an actor of a registered kind, named id, on the
// node of another system and returns its ref, waiting for that node's
// answer under ctx: a *remote.Node. The SpawnXOn functions troupegen
// generates for remote actors take one.
type RemoteSpawner interface {
	Spawn(ctx context.Context, system, kind, id string) (Ref, error)
}
