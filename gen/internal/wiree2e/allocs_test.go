//go:build !race

package wiree2e

import (
	"testing"

	"github.com/troupe-go/troupe/remote/wire"
)

// TestCodecAllocations pins what a generated codec allocates per round
// trip: nothing for scalars, one block for all the strings and byte
// slices of a message, and, through a registry and a Decoding (the
// inbound path), nothing more: decoded values are boxed from shared
// slabs. Not under -race, which allocates of its own.
func TestCodecAllocations(t *testing.T) {
	r := wire.NewRegistry()
	if err := RegisterWalletMessages(r); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 0, 128)
	scalars := walletMarkMsg{n: 123456789, f: 3.25, ok: true}
	tests := []struct {
		name string
		want float64
		run  func() error
	}{
		{"scalars", 0, func() (err error) {
			buf, _, err = markRoundTrip(buf, scalars)
			return err
		}},
		{"string and bytes", 1, func() (err error) {
			buf, _, err = recordRoundTrip(buf, recordMsg)
			return err
		}},
		{"scalars through a registry", 0, registryRoundTrip(r, scalars, buf)},
		{"string and bytes through a registry", 1, registryRoundTrip(r, recordMsg, buf)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			got := testing.AllocsPerRun(1000, func() {
				if e := tt.run(); e != nil {
					err = e
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Fatalf("%v allocations per round trip, want %v", got, tt.want)
			}
		})
	}
}

// registryRoundTrip returns a round trip of v, boxed once, through r.
func registryRoundTrip(r *wire.Registry, v any, buf []byte) func() error {
	var d wire.Decoding
	return func() error {
		name, out, err := r.Marshal(buf[:0], v)
		if err != nil {
			return err
		}
		_, err = d.Unmarshal(r, name, out)
		return err
	}
}
