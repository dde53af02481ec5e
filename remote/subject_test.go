package remote_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/remote"
)

func TestSubject(t *testing.T) {
	tests := []struct {
		ref  actor.Ref
		want string
		err  error
	}{
		{actor.NewRef("shop", "cart", "42"), "troupe.shop.cart.42", nil},
		{actor.NewRef("shop", "cart", "a.b*c>d e"), "troupe.shop.cart.a~2Eb~2Ac~3Ed~20e", nil},
		{actor.NewRef("eu-1", "user_profile", "ünï~"), "troupe.eu-1.user_profile.~C3~BCn~C3~AF~7E", nil},
		{actor.NewRef("s", "$c", "x"), "troupe.s.~24c.x", nil},
		{actor.NewRef("shop", "cart", "42").Child("line", "a/b"), "troupe.shop.cart.42.line.a~2Fb", nil},
		{actor.NewRef("", "cart", "1"), "", remote.ErrBadRef},
		{actor.NewRef("s", "cart", "1").Child("", "x"), "", remote.ErrBadRef},
		{actor.NewRef("s", "cart", ""), "", remote.ErrBadRef},
	}
	for _, tt := range tests {
		t.Run(tt.ref.String(), func(t *testing.T) {
			got, err := remote.Subject(tt.ref)
			if got != tt.want || !errors.Is(err, tt.err) {
				t.Fatalf("Subject = %q, %v; want %q, %v", got, err, tt.want, tt.err)
			}
		})
	}
}

func TestDecodeTokenErrors(t *testing.T) {
	for _, tok := range []string{"a.b", "~", "~2", "~zz", "~2e", "a b"} {
		if _, err := remote.DecodeToken(tok); !errors.Is(err, remote.ErrBadRef) {
			t.Errorf("DecodeToken(%q) = %v, want ErrBadRef", tok, err)
		}
	}
}

func FuzzToken(f *testing.F) {
	for _, s := range []string{"", "a", "a.b", "~", "ünï", ">", "$c", "\x00\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tok := remote.EncodeToken(s)
		if strings.ContainsAny(tok, ".*> \t\r\n$") {
			t.Fatalf("EncodeToken(%q) = %q: not a safe subject token", s, tok)
		}
		back, err := remote.DecodeToken(tok)
		if err != nil || back != s {
			t.Fatalf("DecodeToken(EncodeToken(%q)) = %q, %v", s, back, err)
		}
	})
}
