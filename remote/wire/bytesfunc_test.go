package wire_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/troupe-go/troupe/remote/wire"
)

// An envelope of one's own that carries a registered message: the
// message's encoding is written straight into the envelope's buffer.
func ExampleEncoder_BytesFunc() {
	reg := wire.NewRegistry()
	var name string
	var err error
	e := wire.NewEncoder(nil)
	e.BytesFunc(1, func(buf []byte) []byte {
		name, buf, err = reg.Marshal(buf, "hello")
		return buf
	})
	e.String(2, name)
	if err != nil {
		panic(err)
	}
	var body []byte
	d := wire.NewDecoder(e.Bytes())
	for d.Next() {
		switch d.Field() {
		case 1:
			body = d.Bytes()
		case 2:
			name = d.String()
		default:
			d.Skip()
		}
	}
	v, err := reg.Unmarshal(name, body)
	fmt.Println(v, err)
	// Output: hello <nil>
}

// TestBytesFunc: a field written by BytesFunc decodes as the same bytes
// written by BytesField, whatever its length (one length byte reserved,
// shifted when it needs more), after what came before in the buffer; an
// empty one is left out with its key.
func TestBytesFunc(t *testing.T) {
	for _, n := range []int{0, 1, 0x7f, 0x80, 300, 1 << 14, 70000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			body := []byte(strings.Repeat("x", n))
			for i := range body {
				body[i] = byte(i)
			}
			want := wire.NewEncoder([]byte("prefix"))
			want.Int(1, 7)
			want.BytesField(20, body)
			want.String(3, "after")
			got := wire.NewEncoder([]byte("prefix"))
			got.Int(1, 7)
			got.BytesFunc(20, func(buf []byte) []byte { return append(buf, body...) })
			got.String(3, "after")
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Fatalf("BytesFunc wrote %x, want %x", got.Bytes(), want.Bytes())
			}
		})
	}
}
