package web

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzDecodeUTF8: valid input decodes to itself; output is always valid
// UTF-8; decoding in two streamed chunks equals decoding at once; fatal
// fails exactly on invalid input.
func FuzzDecodeUTF8(f *testing.F) {
	for _, s := range []string{"", "héllo😀", "\xff\xff", "\xe2\x82A", "\xf0\x80\xed\xa0\x80", "a\xf0\x9f\x98", "\xef\xbb\xbfx"} {
		f.Add([]byte(s), 1)
	}
	f.Fuzz(func(t *testing.T, b []byte, cut int) {
		s, pending, ok := decodeUTF8(b, false, false)
		if !ok || pending != nil || !utf8.ValidString(s) {
			t.Fatalf("decode(%q) = %q %v %v", b, s, pending, ok)
		}
		if utf8.Valid(b) && s != string(b) {
			t.Fatalf("valid %q decoded to %q", b, s)
		}
		if _, _, fok := decodeUTF8(b, true, false); fok != utf8.Valid(b) {
			t.Fatalf("fatal decode of %q: ok=%v", b, fok)
		}
		if len(b) == 0 {
			return
		}
		cut = ((cut % len(b)) + len(b)) % len(b)
		s1, p1, _ := decodeUTF8(b[:cut], false, true)
		s2, _, _ := decodeUTF8(append(p1, b[cut:]...), false, false)
		if s1+s2 != s {
			t.Fatalf("streamed %q at %d: %q + %q, want %q", b, cut, s1, s2, s)
		}
		if n := strings.Count(s, "\uFFFD") - strings.Count(string(b), "\uFFFD"); n > len(b) {
			t.Fatalf("%d replacements for %d bytes", n, len(b))
		}
	})
}
