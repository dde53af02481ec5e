package wiree2e

import (
	"testing"

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
