package main

import (
	"bytes"
	"testing"

	"go.uber.org/goleak"

	"github.com/troupe-go/troupe/actortest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestDemo(t *testing.T) {
	var out bytes.Buffer
	if err := demo(&out, []string{"hello", "world"}); err != nil {
		t.Fatal(err)
	}
	if want := "echo: hello\necho: world\n"; out.String() != want {
		t.Fatalf("got %q, want %q", out.String(), want)
	}
}

func TestClientAgainstServer(t *testing.T) {
	s := actortest.NewSystem(t, actortest.WithName("echo-test"))
	srv, err := serve(s.System, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := runClient(&out, srv.Addr().String(), []string{"one"}); err != nil {
		t.Fatal(err)
	}
	if out.String() != "echo: one\n" {
		t.Fatalf("got %q", out.String())
	}
}

func TestClientRefused(t *testing.T) {
	var out bytes.Buffer
	if err := runClient(&out, "127.0.0.1:1", []string{"x"}); err == nil {
		t.Fatal("dialing a closed port succeeded")
	}
}
