package remote

import (
	"fmt"
	"strings"

	"github.com/troupe-go/troupe/actor"
)

// Subjects. An actor's subject is troupe.<system>.<kind>.<id>, each part
// encoded by [EncodeToken]; a node's own subjects put a reserved token,
// starting with '$' (which EncodeToken never leaves bare), after the
// system, so they never collide with an actor's.
const (
	subjectRoot = "troupe"
	batchToken  = "$b"  // frames of several envelopes for a node
	ctlToken    = "$c"  // replies, notices, watch traffic for a node
	noRespToken = "$nr" // where no-responders statuses come back
	hbRoot      = "troupe.$hb"
)

// EncodeToken encodes s as a NATS subject token: ASCII letters, digits,
// '-' and '_' stand for themselves, every other byte is written as '~'
// and two upper-case hex digits. The encoding is one-to-one, so distinct
// names always get distinct subjects.
func EncodeToken(s string) string {
	safe := true
	for i := 0; i < len(s); i++ {
		if !tokenSafe(s[i]) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if tokenSafe(c) {
			b.WriteByte(c)
			continue
		}
		const hex = "0123456789ABCDEF"
		b.WriteByte('~')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

// DecodeToken reverses [EncodeToken].
func DecodeToken(t string) (string, error) {
	if !strings.Contains(t, "~") {
		for i := 0; i < len(t); i++ {
			if !tokenSafe(t[i]) {
				return "", fmt.Errorf("%w: token %q", ErrBadRef, t)
			}
		}
		return t, nil
	}
	var b strings.Builder
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch {
		case tokenSafe(c):
			b.WriteByte(c)
		case c == '~' && i+2 < len(t) && isHex(t[i+1]) && isHex(t[i+2]):
			b.WriteByte(unhex(t[i+1])<<4 | unhex(t[i+2]))
			i += 2
		default:
			return "", fmt.Errorf("%w: token %q", ErrBadRef, t)
		}
	}
	return b.String(), nil
}

func tokenSafe(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_'
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'A' <= c && c <= 'F' }

func unhex(c byte) byte {
	if c <= '9' {
		return c - '0'
	}
	return c - 'A' + 10
}

// Subject returns the subject of the actor named r, or [ErrBadRef] if a
// part of r is empty: troupe.<system>.<kind>.<id>, and for a child
// actor its ancestors' kinds and ids before its own, from the top-level
// one down.
func Subject(r actor.Ref) (string, error) {
	var names []string // kinds and ids, from r up
	for p := r; !p.IsZero(); p = p.Parent() {
		if p.Kind() == "" || p.ID() == "" {
			return "", fmt.Errorf("%w: %s", ErrBadRef, r)
		}
		names = append(names, p.ID(), p.Kind())
	}
	if r.System() == "" || len(names) == 0 {
		return "", fmt.Errorf("%w: %s", ErrBadRef, r)
	}
	var b strings.Builder
	b.WriteString(subjectRoot + "." + EncodeToken(r.System()))
	for i := len(names) - 1; i >= 0; i-- {
		b.WriteString("." + EncodeToken(names[i]))
	}
	return b.String(), nil
}

// nodeSubject returns one of a node's own subjects.
func nodeSubject(system, token string) string {
	return subjectRoot + "." + EncodeToken(system) + "." + token
}

// nodeOfSubject returns the system named by the second token of a troupe
// subject.
func nodeOfSubject(subject string) (string, bool) {
	parts := strings.Split(subject, ".")
	if len(parts) < 3 || parts[0] != subjectRoot {
		return "", false
	}
	s, err := DecodeToken(parts[1])
	return s, err == nil && s != ""
}
