package wire_test

import (
	"bytes"
	"encoding/hex"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/troupe-go/troupe/remote/wire"
)

var update = flag.Bool("update", false, "rewrite golden files")

func envelopes() []*wire.Envelope {
	return []*wire.Envelope{
		{Kind: wire.KindTell, Node: "n1", To: wire.Ref{System: "n2", Kind: "counter", ID: "c1"}, Type: "int", Body: []byte{0x08, 0x04}},
		{Kind: wire.KindAsk, Node: "n1", To: wire.Ref{System: "n2", Kind: "counter", ID: "c1"}, From: wire.Ref{System: "n1", Kind: "client", ID: "x"}, Corr: 300, Type: "string", Body: []byte{0x0a, 0x03, 'g', 'e', 't'}, Headers: []wire.Header{{Key: "trace", Value: "abc"}, {Key: "empty"}}},
		{Kind: wire.KindReply, Node: "n2", Corr: 300, Err: &wire.Error{Code: 1, Message: "actor: not found"}},
		{Kind: wire.KindReply, Node: "n2", Corr: 1, Err: &wire.Error{}},
		{Kind: wire.KindHeartbeat, Node: "n3", Body: bytes.Repeat([]byte{'z'}, 20000)},
	}
}

func TestFrameGolden(t *testing.T) {
	frame := wire.AppendFrame(nil, envelopes()...)
	path := filepath.Join("testdata", "frame.hex")
	// The golden file holds the first 4 KiB: the large body is only
	// repeated bytes.
	got := hex.Dump(frame[:min(len(frame), 4096)])
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Fatalf("frame encoding changed (run with -update if intended):\n%s", got)
	}
	var back []*wire.Envelope
	err = wire.ReadFrame(frame, 0, func(m *wire.Envelope) error {
		c := *m
		c.Body = append([]byte(nil), m.Body...)
		back = append(back, &c)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range envelopes() {
		if len(m.Body) == 0 {
			m.Body = back[i].Body
		}
		if !reflect.DeepEqual(back[i], m) {
			t.Errorf("envelope %d: got %+v, want %+v", i, back[i], m)
		}
	}
}

func TestFrameErrors(t *testing.T) {
	good := wire.AppendFrame(nil, envelopes()[0])
	tests := []struct {
		name  string
		frame []byte
		max   int
		want  error
	}{
		{"empty", nil, 0, wire.ErrMalformed},
		{"header only", []byte{wire.Version}, 0, wire.ErrMalformed},
		{"bad version", append([]byte{9}, good[1:]...), 0, wire.ErrMalformed},
		{"too large", good, len(good) - 1, wire.ErrTooLarge},
		{"truncated", good[:len(good)-1], 0, wire.ErrMalformed},
		{"length past end", []byte{wire.Version, 0x7f, 0x08}, 0, wire.ErrMalformed},
		{"no kind", []byte{wire.Version, 0x02, 0x12, 0x00}, 0, wire.ErrMalformed},
		{"unknown kind", []byte{wire.Version, 0x02, 0x08, 0x7f}, 0, wire.ErrMalformed},
		{"inherits from nothing", []byte{wire.Version, 0x04, 0x08, 0x01, 0x50, 0x01}, 0, wire.ErrMalformed},
		{"unknown inherit bits", []byte{wire.Version, 0x04, 0x08, 0x01, 0x50, 0x10}, 0, wire.ErrMalformed},
		{"future version", append([]byte{wire.Version + 1}, good[1:]...), 0, wire.ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := wire.ReadFrame(tt.frame, tt.max, func(*wire.Envelope) error { return nil })
			if !errors.Is(err, tt.want) {
				t.Fatalf("ReadFrame = %v, want %v", err, tt.want)
			}
		})
	}
	stop := errors.New("stop")
	if err := wire.ReadFrame(good, 0, func(*wire.Envelope) error { return stop }); err != stop {
		t.Fatalf("callback error = %v, want it returned", err)
	}
}

// TestFrameVersion1: frames of version 1, without inherited routing, are
// still read.
func TestFrameVersion1(t *testing.T) {
	frame := []byte{1}
	for _, m := range envelopes()[:2] {
		frame = wire.AppendEnvelope(frame, m) // each in full
	}
	var got []string
	err := wire.ReadFrame(frame, 0, func(m *wire.Envelope) error {
		got = append(got, m.Node+" "+m.To.ID+" "+m.Type)
		return nil
	})
	if err != nil || strings.Join(got, ",") != "n1 c1 int,n1 c1 string" {
		t.Fatalf("version 1 frame read as %q, %v", got, err)
	}
}

func TestKindString(t *testing.T) {
	if s := wire.KindAsk.String(); s != "ask" {
		t.Errorf("KindAsk = %q", s)
	}
	if s := wire.Kind(99).String(); !strings.Contains(s, "99") {
		t.Errorf("Kind(99) = %q", s)
	}
}

func FuzzReadFrame(f *testing.F) {
	f.Add(wire.AppendFrame(nil, envelopes()[:4]...))
	f.Add([]byte{wire.Version, 0x02, 0x08, 0x01})
	f.Fuzz(func(t *testing.T, frame []byte) {
		var got []wire.Envelope
		err := wire.ReadFrame(frame, 1<<20, func(m *wire.Envelope) error {
			got = append(got, *m)
			return nil
		})
		if err != nil {
			if !errors.Is(err, wire.ErrMalformed) && !errors.Is(err, wire.ErrTooLarge) {
				t.Fatalf("unexpected error kind: %v", err)
			}
			return
		}
		// A frame that decodes re-encodes to one that decodes the same.
		ms := make([]*wire.Envelope, len(got))
		for i := range got {
			ms[i] = &got[i]
		}
		again := wire.AppendFrame(nil, ms...)
		i := 0
		err = wire.ReadFrame(again, 0, func(m *wire.Envelope) error {
			if m.Kind != got[i].Kind || m.Corr != got[i].Corr || m.To != got[i].To || !bytes.Equal(m.Body, got[i].Body) {
				t.Fatalf("envelope %d changed: %+v -> %+v", i, got[i], *m)
			}
			i++
			return nil
		})
		if err != nil || i != len(got) {
			t.Fatalf("re-encoded frame: %d of %d envelopes, %v", i, len(got), err)
		}
	})
}

// BenchmarkFrame encodes 64 tells of a 64-byte body to one actor into a
// frame and reads them back: the per-message cost of remote_tell's
// envelopes, both ends.
func BenchmarkFrame(b *testing.B) {
	body := make([]byte, 66)
	e := wire.Envelope{Kind: wire.KindTell, Node: "a", To: wire.Ref{System: "b", Kind: "sink", ID: "main"}, Type: "bytes", Body: body}
	var frame []byte
	b.ReportAllocs()
	for b.Loop() {
		frame = wire.AppendFrameHeader(frame[:0])
		for range 64 {
			frame = wire.AppendEnvelope(frame, &e)
		}
		n := 0
		if err := wire.ReadFrame(frame, 0, func(*wire.Envelope) error { n++; return nil }); err != nil || n != 64 {
			b.Fatal(n, err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*64), "ns/msg")
}
