package web

import (
	"testing"

	"github.com/dop251/goja"
	"go.uber.org/zap"
)

// newEnv is an Env on a bare Runtime: globals defined as plain
// properties, Uint8Arrays made with goja's own constructor.
func newEnv(t *testing.T) *Env {
	t.Helper()
	rt := goja.New()
	return &Env{
		RT: rt,
		Define: func(name string, v goja.Value) {
			_ = rt.GlobalObject().Set(name, v)
		},
		Bytes: func(b []byte) (goja.Value, error) {
			ctor := rt.GlobalObject().Get("Uint8Array").ToObject(rt)
			return rt.New(ctor, rt.ToValue(rt.NewArrayBuffer(append([]byte{}, b...))))
		},
	}
}

// The builtins work from an Env alone, without an actor.
func TestEnvBuiltins(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"btoa", `btoa("héllo")`, "aOlsbG8="},
		{"atob", `atob(" aOls bG8 ")`, "héllo"},
		{"atob invalid", `try { atob("a") } catch (e) { e.name }`, "InvalidCharacterError"},
		{"text round trip", `new TextDecoder().decode(new TextEncoder().encode("日本"))`, "日本"},
		{"decode replaces", `new TextDecoder().decode(new Uint8Array([0x61, 0xff]))`, "a\uFFFD"},
		{"uuid", `/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(crypto.randomUUID())`, "true"},
		{"performance", `performance.mark("a"); performance.measure("m", "a").duration`, "0"},
		{"console", `typeof console.log`, "function"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.Text()
			e.URL()
			e.Define("atob", e.RT.ToValue(e.Atob))
			e.Define("btoa", e.RT.ToValue(e.Btoa))
			e.Define("crypto", e.Crypto())
			e.Define("setTimeout", e.RT.ToValue(func(goja.FunctionCall) goja.Value { return goja.Undefined() }))
			e.Events()
			e.Define("performance", Performance(e.RT, func() float64 { return 0 }))
			e.Define("console", Console(e.RT, zap.NewNop()))
			v, err := e.RT.RunString(tc.src)
			if err != nil {
				t.Fatal(err)
			}
			if got := v.String(); got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestShimsCompile: the helpers are compiled on first use, so a broken
// one would fail only where a script first reaches it; compile them all.
func TestShimsCompile(t *testing.T) {
	for name, s := range map[string]func() *goja.Program{"text": textShim, "events": eventsShim, "emitter": emitterShim} {
		if s() == nil {
			t.Errorf("%s: no program", name)
		}
	}
}
