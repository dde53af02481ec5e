package sandbox

import (
	"testing"

	"github.com/dop251/goja"
)

// TestIntrinsicFreeze: goja's own freeze, whatever the script did to
// Object and Object.freeze, and without building the Object constructor
// for a Runtime whose script never reached it.
func TestIntrinsicFreeze(t *testing.T) {
	if !CanBuildFreeze() {
		t.Fatal("the goja in go.mod is expected to let freeze be built from its template")
	}
	for _, tc := range []struct{ name, script string }{
		{"untouched", ``},
		{"freeze replaced", `Object.freeze = (o) => o`},
		{"Object replaced", `globalThis.Object = { freeze: (o) => o }`},
		{"freeze deleted", `delete Object.freeze`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rt := goja.New()
			if _, err := rt.RunString(tc.script); err != nil {
				t.Fatal(err)
			}
			freeze := IntrinsicFreeze(rt)
			if freeze == nil {
				t.Fatal("no freeze")
			}
			o := rt.NewObject()
			_ = o.Set("a", 1)
			_ = rt.Set("o", o)
			if _, err := freeze(goja.Undefined(), o); err != nil {
				t.Fatal(err)
			}
			v, err := rt.RunString(`'use strict'; let threw = 0;
				try { o.a = 2 } catch (e) { threw++ }
				try { o.b = 3 } catch (e) { threw++ }
				threw === 2 && o.a === 1 && Reflect.ownKeys(o).length === 1`)
			if err != nil || !v.ToBoolean() {
				t.Fatalf("not frozen: %v %v", v, err)
			}
		})
	}
}
