package wiree2e

import (
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/troupe-go/troupe/remote/wire"
)

// BenchmarkGeneratedCodec marshals and unmarshals a generated message
// through the registry, as a remote tell does (compare
// remote/wire's BenchmarkCodec, a hand-written codec).
func BenchmarkGeneratedCodec(b *testing.B) {
	r := wire.NewRegistry()
	if err := RegisterWalletMessages(r); err != nil {
		b.Fatal(err)
	}
	v := walletDepositMsg{e: Entry{Amount: 123456789, Memo: "sixteen-byte-str", Scale: 3.25}, note: "n"}
	buf := make([]byte, 0, 128)
	b.ReportAllocs()
	for b.Loop() {
		name, out, err := r.Marshal(buf[:0], v)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := r.Unmarshal(name, out); err != nil {
			b.Fatal(err)
		}
	}
}

// recordCBOR is walletRecordMsg with exported fields, for CBOR.
type recordCBOR struct {
	N    int64
	S    string
	F    float64
	OK   bool
	Data []byte
}

// recordMsg is the remote bench suite's codec struct as a generated
// message: {int64, 16-byte string, float64, bool, 32-byte []byte}.
var recordMsg = walletRecordMsg{n: 123456789, s: "sixteen-byte-str", f: 3.25, ok: true, data: make([]byte, 32)}

// recordRoundTrip and markRoundTrip marshal m and unmarshal it with
// their generated codecs, as the functions generated registration passes
// to wire.RegisterFuncs do.
func recordRoundTrip(buf []byte, m walletRecordMsg) ([]byte, walletRecordMsg, error) {
	e := wire.NewEncoder(buf[:0])
	m.MarshalWire(e)
	var out walletRecordMsg
	err := out.UnmarshalWire(wire.NewDecoder(e.Bytes()))
	return e.Bytes(), out, err
}

func markRoundTrip(buf []byte, m walletMarkMsg) ([]byte, walletMarkMsg, error) {
	e := wire.NewEncoder(buf[:0])
	m.MarshalWire(e)
	var out walletMarkMsg
	err := out.UnmarshalWire(wire.NewDecoder(e.Bytes()))
	return e.Bytes(), out, err
}

// BenchmarkGeneratedCodecVsCBOR is the codec row with its yardstick in
// the same run: the codec struct through its generated codec (directly,
// and through a registry with a Decoding as the inbound path does),
// a struct of scalars, and the same struct through CBOR.
func BenchmarkGeneratedCodecVsCBOR(b *testing.B) {
	b.Run("generated", func(b *testing.B) {
		buf := make([]byte, 0, 128)
		b.ReportAllocs()
		for b.Loop() {
			var err error
			if buf, _, err = recordRoundTrip(buf, recordMsg); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("generated-scalars", func(b *testing.B) {
		buf := make([]byte, 0, 128)
		m := walletMarkMsg{n: 123456789, f: 3.25, ok: true}
		b.ReportAllocs()
		for b.Loop() {
			var err error
			if buf, _, err = markRoundTrip(buf, m); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("registry", func(b *testing.B) {
		r := wire.NewRegistry()
		if err := RegisterWalletMessages(r); err != nil {
			b.Fatal(err)
		}
		var d wire.Decoding
		buf := make([]byte, 0, 128)
		var v any = recordMsg // boxed once, as a tell's message already is
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
		v := recordCBOR{N: recordMsg.n, S: recordMsg.s, F: recordMsg.f, OK: recordMsg.ok, Data: recordMsg.data}
		b.ReportAllocs()
		for b.Loop() {
			out, err := cbor.Marshal(v)
			if err != nil {
				b.Fatal(err)
			}
			var w recordCBOR
			if err := cbor.Unmarshal(out, &w); err != nil {
				b.Fatal(err)
			}
		}
	})
}
