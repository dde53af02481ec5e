package remote

import (
	"fmt"
	"strings"

	"github.com/troupe-go/troupe/actor"
)

// Subjects. Everything a node receives is under troupe.<system>.>, each
// part encoded by [EncodeToken]; the node's own subjects put a reserved
// token, starting with '$' (which EncodeToken never leaves bare), after
// the system, so they never collide with an actor's:
//
//   - troupe.<to>.$n.<from>: every frame node <from> sends to node <to>.
//     The subject names its sender, so a node checks that each envelope
//     comes from the node it claims, and NATS permissions can make sure
//     that only <from> publishes there (see [PermissionsFor]).
//   - troupe.<to>.$nr.<seq>: the reply subject of <to>'s frames, where the
//     server's no-responders statuses come back. Nobody publishes there.
//   - troupe.$hb.<from>: heartbeats and goodbyes of node <from>.
const (
	subjectRoot = "troupe"
	frameToken  = "$n"  // frames from one node to another
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

// Subject returns the subject that names the actor r under its node's
// subjects, or [ErrBadRef] if a part of r is empty:
// troupe.<system>.<kind>.<id>, and for a child actor its ancestors' kinds
// and ids before its own, from the top-level one down. Frames do not go
// there (they go to the node's frame subjects, see "Addressing"); it is
// the name an actor has in its node's subject space.
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

// frameSubject returns the subject of the frames node from sends to
// node to.
func frameSubject(to, from string) string {
	return nodeSubject(to, frameToken) + "." + EncodeToken(from)
}

// heartbeatSubject returns the subject of node's heartbeats.
func heartbeatSubject(node string) string { return hbRoot + "." + EncodeToken(node) }

// lastToken returns the node named by the last token of subject.
func lastToken(subject string) (string, bool) {
	s, err := DecodeToken(subject[strings.LastIndexByte(subject, '.')+1:])
	return s, err == nil && s != ""
}

// parseFrameSubject returns the nodes a frame subject,
// troupe.<to>.$n.<from>, names.
func parseFrameSubject(subject string) (to, from string, ok bool) {
	parts := strings.Split(subject, ".")
	if len(parts) != 4 || parts[0] != subjectRoot || parts[2] != frameToken {
		return "", "", false
	}
	to, err1 := DecodeToken(parts[1])
	from, err2 := DecodeToken(parts[3])
	return to, from, err1 == nil && err2 == nil && to != "" && from != ""
}
