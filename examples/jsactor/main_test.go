package main

import (
	"bytes"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestRun(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out); err != nil {
		t.Fatal(err)
	}
	want := `receipt 1001: ada bought 2 tea for 6.00
receipt 1002: ada bought 4 cake for 18.00
refused: bob, pie: insufficient funds
refused: bob, soup: no such item
ada has 16.00 left
2 orders
`
	if out.String() != want {
		t.Fatalf("got:\n%s\nwant:\n%s", out.String(), want)
	}
}
