package sandbox

import (
	"errors"
	"strings"
	"testing"

	"github.com/dop251/goja"
)

// CleanStack keeps the script's frames only, and takes the wrapper's
// width off the columns of the script's first line.
func TestCleanStack(t *testing.T) {
	const wrapper = 10
	cases := []struct {
		name, stack, msg, first, want string
	}{
		{"message line trimmed", "Error: x\nat f (a.js:2:3)\n", "Error: x", "", "at f (a.js:2:3)\n"},
		{"Go frame dropped", "at github.com/x/y.(*T).m-fm (native)\nat f (a.js:2:3)\n", "", "", "at f (a.js:2:3)\n"},
		{"method value dropped", "at foo-fm (native)\nat f (a.js:2:3)\n", "", "", "at f (a.js:2:3)\n"},
		{"host helper dropped", "at follow (" + ShimPrefix + "follow:1:5)\nat f (a.js:2:3)\n", "", "", "at f (a.js:2:3)\n"},
		{"builtin kept", "at push (native)\n", "", "", "at push (native)\n"},
		{"first line shifted", "at f (a.js:1:15)\n", "", FirstLine("a.js"), "at f (a.js:1:5)\n"},
		{"other line kept", "at f (a.js:3:15)\n", "", FirstLine("a.js"), "at f (a.js:3:15)\n"},
		{"inside the wrapper kept", "at f (a.js:1:4)\n", "", FirstLine("a.js"), "at f (a.js:1:4)\n"},
		{"no script: nothing shifted", "at f (a.js:1:15)\n", "", "", "at f (a.js:1:15)\n"},
		{"only host frames", "at x-fm (native)\n", "", "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := CleanStack(tc.stack, tc.msg, tc.first, wrapper); got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// A guarded builtin refuses, with a catchable RangeError, a call over the
// budget before it allocates, and lets one within the budget through.
func TestMemGuard(t *testing.T) {
	cases := []struct {
		name, src string
		refused   bool
	}{
		{"repeat within", `'ab'.repeat(1000).length`, false},
		{"repeat over", `'ab'.repeat(2 ** 40)`, true},
		{"padEnd over", `''.padEnd(2 ** 40, 'ab')`, true},
		{"fill over", `new Array(2 ** 30).fill(0)`, true},
		{"Array.from over", `GArray.from({length: 2 ** 30})`, true},
		{"Array.from over, through a literal", `[].constructor.from({length: 2 ** 30})`, true},
		{"Array.from over, through a species", `[].map.call([], x => x).constructor.from({length: 2 ** 30})`, true},
		{"join over", `new Array(2 ** 30).join('x')`, true},
		{"ArrayBuffer over", `new GArrayBuffer(2 ** 40)`, true},
		{"ArrayBuffer within", `new GArrayBuffer(8).byteLength`, false},
		{"ArrayBuffer over, through Reflect.construct", `Reflect.construct(GArrayBuffer, [2 ** 40])`, true},
		{"ArrayBuffer over, through a subclass", `new (class extends GArrayBuffer {})(2 ** 40)`, true},
		{"Map over", `new GMap(Array(2 ** 32 - 1).entries())`, true},
		{"Map within", `new GMap([[1, 2]]).get(1)`, false},
		{"JSON.parse too deep", `GJSON.parse('['.repeat(5000) + ']'.repeat(5000))`, true},
		{"JSON.parse within", `GJSON.parse('[[1]]')[0][0]`, false},
	}
	for _, path := range []struct {
		name string
		fast bool
	}{{"templates", true}, {"fallback", false}} {
		for _, tc := range cases {
			t.Run(path.name+"/"+tc.name, func(t *testing.T) {
				testMemGuardCase(t, path.fast, tc.src, tc.refused)
			})
		}
	}
}

func testMemGuardCase(t *testing.T, fast bool, src string, refused bool) {
	rt := goja.New()
	g := &MemGuard{rt: rt, orig: rt.GlobalObject(), budget: 1 << 20}
	g.installLazy(fast && TemplatesPatched())
	_ = rt.Set("GJSON", g.Global("JSON"))
	_ = rt.Set("GArrayBuffer", g.Global("ArrayBuffer"))
	_ = rt.Set("GMap", g.Global("Map"))
	if strings.Contains(src, "GArray.") {
		_ = rt.Set("GArray", g.Global("Array"))
	}
	_, err := rt.RunString(src)
	var ex *goja.Exception
	switch {
	case !refused && err != nil:
		t.Fatalf("refused within the budget: %v", err)
	case refused && (!errors.As(err, &ex) || !strings.Contains(ex.Value().String(), "RangeError")):
		t.Fatalf("got %v, want a RangeError", err)
	}
}

// Guard returns the script's exception, and an interrupt, which goja
// raises as a panic in Go code that called into the script, as fatal.
func TestGuard(t *testing.T) {
	rt := goja.New()
	v, err := rt.RunString(`({get bad() { throw new TypeError("getter") }, get loop() { for (;;) {} }})`)
	if err != nil {
		t.Fatal(err)
	}
	o := v.ToObject(rt)
	ex, fatal := Guard(rt, func() { o.Get("bad") })
	if ex == nil || fatal != nil || !strings.Contains(ex.Error(), "getter") {
		t.Fatalf("throwing getter: %v, %v", ex, fatal)
	}
	reason := errors.New("stop")
	rt.Interrupt(reason)
	ex, fatal = Guard(rt, func() { o.Get("loop") })
	var ie *goja.InterruptedError
	if ex != nil || !errors.As(fatal, &ie) || ie.Value() != reason {
		t.Fatalf("interrupted getter: %v, %v", ex, fatal)
	}
	rt.ClearInterrupt()
	defer func() {
		if recover() == nil {
			t.Fatal("a Go panic was swallowed")
		}
	}()
	_, _ = Guard(rt, func() { panic("bug") })
}
