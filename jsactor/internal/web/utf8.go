package web

import (
	"strings"
	"unicode/utf8"
)

// decodeUTF8 is the Encoding standard's UTF-8 decoder: each maximal
// subpart of an ill-formed sequence becomes one U+FFFD (so [0xFF, 0xFF]
// gives two and [0xE2, 0x82] one), or, when fatal, fails (ok false). With
// stream, an incomplete sequence at the end is not an error: its bytes are
// returned as pending, to be prepended to the next chunk.
func decodeUTF8(b []byte, fatal, stream bool) (s string, pending []byte, ok bool) {
	var out strings.Builder
	out.Grow(len(b))
	start := 0 // first byte of the sequence being read
	var cp rune
	needed, seen := 0, 0
	lower, upper := byte(0x80), byte(0xBF)
	for i := 0; i < len(b); i++ {
		c := b[i]
		if needed == 0 {
			start = i
			switch {
			case c <= 0x7F:
				out.WriteByte(c)
			case c >= 0xC2 && c <= 0xDF:
				needed, cp = 1, rune(c&0x1F)
			case c >= 0xE0 && c <= 0xEF:
				lower, upper = utf8Bounds3(c)
				needed, cp = 2, rune(c&0x0F)
			case c >= 0xF0 && c <= 0xF4:
				lower, upper = utf8Bounds4(c)
				needed, cp = 3, rune(c&0x07)
			default:
				if fatal {
					return "", nil, false
				}
				out.WriteRune(utf8.RuneError)
			}
			continue
		}
		if c < lower || c > upper {
			if fatal {
				return "", nil, false
			}
			out.WriteRune(utf8.RuneError)
			needed, seen, lower, upper = 0, 0, 0x80, 0xBF
			i-- // the byte starts over
			continue
		}
		lower, upper = 0x80, 0xBF
		cp = cp<<6 | rune(c&0x3F)
		if seen++; seen == needed {
			out.WriteRune(cp)
			needed, seen = 0, 0
		}
	}
	if needed != 0 {
		if stream {
			return out.String(), append([]byte(nil), b[start:]...), true
		}
		if fatal {
			return "", nil, false
		}
		out.WriteRune(utf8.RuneError)
	}
	return out.String(), nil, true
}

// utf8Bounds3 and utf8Bounds4 give the range of the second byte after a
// lead byte, which excludes overlong forms and surrogates.
func utf8Bounds3(lead byte) (byte, byte) {
	switch lead {
	case 0xE0:
		return 0xA0, 0xBF
	case 0xED:
		return 0x80, 0x9F
	}
	return 0x80, 0xBF
}

func utf8Bounds4(lead byte) (byte, byte) {
	switch lead {
	case 0xF0:
		return 0x90, 0xBF
	case 0xF4:
		return 0x80, 0x8F
	}
	return 0x80, 0xBF
}

// encodeInto is TextEncoder.encodeInto's counting: how many UTF-16 code
// units of s (read) fit, as whole UTF-8 sequences, in room bytes
// (written), and those bytes. A lone surrogate, which reached Go as
// U+FFFD, is encoded as U+FFFD, as the standard says.
func encodeInto(s string, room int) (read, written int, b []byte) {
	for _, r := range s {
		n := utf8.RuneLen(r)
		if n < 0 {
			n, r = 3, utf8.RuneError
		}
		if written+n > room {
			break
		}
		b = utf8.AppendRune(b, r)
		written += n
		read++
		if r >= 0x10000 {
			read++ // a surrogate pair in JavaScript
		}
	}
	return read, written, b
}
