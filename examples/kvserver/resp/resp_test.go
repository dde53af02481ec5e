package resp

import (
	"errors"
	"reflect"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		args []string
		n    int
		err  bool
	}{
		{"empty", "", nil, 0, false},
		{"multibulk", "*2\r\n$3\r\nGET\r\n$1\r\nk\r\n", []string{"GET", "k"}, 20, false},
		{"binary value", "*2\r\n$4\r\nECHO\r\n$4\r\na\r\nb\r\n", []string{"ECHO", "a\r\nb"}, 24, false},
		{"empty bulk", "*1\r\n$0\r\n\r\n", []string{""}, 10, false},
		{"zero args", "*0\r\n", []string{}, 4, false},
		{"incomplete header", "*2\r", nil, 0, false},
		{"incomplete bulk", "*2\r\n$3\r\nGET\r\n$1\r\n", nil, 0, false},
		{"incomplete crlf", "*1\r\n$3\r\nGET\r", nil, 0, false},
		{"inline", "PING\r\n", []string{"PING"}, 6, false},
		{"inline words", "SET  a b\n", []string{"SET", "a", "b"}, 9, false},
		{"inline blank", "\r\n", []string{}, 2, false},
		{"bad count", "*x\r\n", nil, 0, true},
		{"huge count", "*99999999\r\n", nil, 0, true},
		{"not a bulk", "*1\r\n:3\r\n", nil, 0, true},
		{"bad bulk length", "*1\r\n$-3\r\n", nil, 0, true},
		{"huge bulk", "*1\r\n$999999999999\r\n", nil, 0, true},
		{"bulk without crlf", "*1\r\n$1\r\nabc\r\n", nil, 0, true},
		{"header without cr", "*1\n", nil, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args, n, err := Parse([]byte(tc.in))
			if tc.err {
				if !errors.Is(err, ErrProtocol) {
					t.Fatalf("got %v, want a protocol error", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if n != tc.n {
				t.Fatalf("used %d bytes, want %d", n, tc.n)
			}
			var got []string
			if args != nil {
				got = []string{}
				for _, a := range args {
					got = append(got, string(a))
				}
			}
			if !reflect.DeepEqual(got, tc.args) {
				t.Fatalf("args %q, want %q", got, tc.args)
			}
		})
	}
}

func TestAppend(t *testing.T) {
	var b []byte
	b = AppendOK(b)
	b = AppendError(b, "ERR bad\r\nthing")
	b = AppendInt(b, -7)
	b = AppendBulk(b, []byte("hi"))
	b = AppendNil(b)
	b = AppendArrayHeader(b, 2)
	b = AppendSimple(b, "PONG")
	b = AppendBulkString(b, "")
	want := "+OK\r\n-ERR bad  thing\r\n:-7\r\n$2\r\nhi\r\n$-1\r\n*2\r\n+PONG\r\n$0\r\n\r\n"
	if string(b) != want {
		t.Fatalf("got %q\nwant %q", b, want)
	}
}

// FuzzParse checks that no input crashes the parser, that a parsed
// command used at most the input, and that parsing is prefix-stable: a
// complete command parses the same with more bytes after it.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"*2\r\n$3\r\nGET\r\n$1\r\nk\r\n", "PING\r\n", "*1\r\n$-1\r\n", "*-1\r\n",
		"*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$5\r\nvalue\r\n", "$3\r\nabc\r\n", "*1\r\n$99\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		args, n, err := Parse(in)
		if err != nil {
			if !errors.Is(err, ErrProtocol) {
				t.Fatalf("error %v is not a protocol error", err)
			}
			return
		}
		if n < 0 || n > len(in) {
			t.Fatalf("used %d of %d bytes", n, len(in))
		}
		if n == 0 {
			return
		}
		more := append(append([]byte{}, in[:n]...), "*1\r\n$1\r\nx\r\n"...)
		args2, n2, err2 := Parse(more)
		if err2 != nil || n2 != n || !reflect.DeepEqual(args, args2) {
			t.Fatalf("not prefix-stable: %q (%d) vs %q (%d, %v)", args, n, args2, n2, err2)
		}
	})
}
