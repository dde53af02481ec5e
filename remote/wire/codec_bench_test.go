package wire_test

import (
	"bytes"
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/troupe-go/troupe/remote/wire"
)

// BenchmarkCodecVsCBOR is the codec row with its yardstick in the same
// run: the benchmark struct marshalled and unmarshalled by its binary
// codec, directly (as generated registration functions call it), through
// a registry (what a remote tell does), and by CBOR.
func BenchmarkCodecVsCBOR(b *testing.B) {
	v := sample{N: 123456789, Name: "sixteen-byte-str", F: 3.25, OK: true, Data: bytes.Repeat([]byte{7}, 32)}
	scalars := Point{X: 123456789, Y: -42}
	b.Run("binary", func(b *testing.B) {
		buf := make([]byte, 0, 128)
		b.ReportAllocs()
		for b.Loop() {
			buf = appendSample(buf[:0], v)
			if _, err := decodeSample(buf); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("binary-scalars", func(b *testing.B) {
		buf := make([]byte, 0, 128)
		b.ReportAllocs()
		for b.Loop() {
			e := wire.NewEncoder(buf[:0])
			scalars.MarshalWire(e)
			buf = e.Bytes()
			var p Point
			if err := p.UnmarshalWire(wire.NewDecoder(buf)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("registry", func(b *testing.B) {
		r := wire.NewRegistry()
		if err := wire.RegisterFuncs(r, "test.sample", appendSample, decodeSample); err != nil {
			b.Fatal(err)
		}
		var d wire.Decoding
		buf := make([]byte, 0, 128)
		b.ReportAllocs()
		for b.Loop() {
			name, out, err := r.Marshal(buf[:0], v)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := d.Unmarshal(r, name, out); err != nil {
				b.Fatal(err)
			}
			buf = out
		}
	})
	b.Run("cbor", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			out, err := cbor.Marshal(v)
			if err != nil {
				b.Fatal(err)
			}
			var w sample
			if err := cbor.Unmarshal(out, &w); err != nil {
				b.Fatal(err)
			}
		}
	})
}
