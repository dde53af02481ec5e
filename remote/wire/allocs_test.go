//go:build !race

package wire_test

import (
	"bytes"
	"testing"

	"github.com/troupe-go/troupe/remote/wire"
)

// TestDecodingBytesAllocations: small []byte messages decoded through a
// Decoding (the inbound path) share slabs for their bytes and their
// slice headers: no allocation of their own. Not under -race, which
// allocates of its own.
func TestDecodingBytesAllocations(t *testing.T) {
	r := wire.NewRegistry()
	name, data, err := r.Marshal(nil, bytes.Repeat([]byte{7}, 64))
	if err != nil {
		t.Fatal(err)
	}
	var d wire.Decoding
	var last any
	got := testing.AllocsPerRun(1000, func() {
		if last, err = d.Unmarshal(r, name, data); err != nil {
			t.Fatal(err)
		}
	})
	if got != 0 || !bytes.Equal(last.([]byte), bytes.Repeat([]byte{7}, 64)) {
		t.Fatalf("%v allocations per message (want 0), last %v", got, last)
	}
}
