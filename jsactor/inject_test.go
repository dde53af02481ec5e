package jsactor_test

import (
	"testing"

	"github.com/troupe-go/troupe/jsactor"
)

// A message is only data: an own "__proto__" key arrives as an own
// property, not as the received object's prototype, and setters the
// receiver put on its Object.prototype (or Array.prototype) see nothing of
// incoming fields. Checked for a Go map sent from Go, an object sent from
// another JS actor, and structuredClone.
func TestMessagesCannotInjectPrototypes(t *testing.T) {
	r := newRig(t)
	receiver := `
		let seen = "";
		Object.defineProperty(Object.prototype, "secret", { set(v) { seen += "secret=" + v }, configurable: true });
		Object.defineProperty(Array.prototype, "0", { set(v) { seen += "[0]=" + v }, configurable: true });
		function verdict(m) {
			return [
				Object.getPrototypeOf(m) === Object.prototype,
				Object.prototype.hasOwnProperty.call(m, "__proto__"),
				typeof m.__proto__ === "object" && m.__proto__ !== null && m.__proto__.polluted === true ? "own" : "?",
				m.polluted === undefined,
				Object.prototype.hasOwnProperty.call(m, "secret") && m.secret === "s",
				Array.isArray(m.list) && m.list.length === 1 && m.list[0] === "x",
				seen,
			].join(" ");
		}
		module.exports = {
			take(m) { return verdict(m) },
			clone(m) { return verdict(structuredClone(m)) },
		};`
	want := "true true own true true true "
	rcv := r.spawn("rcv", receiver)
	goMsg := map[string]any{"__proto__": map[string]any{"polluted": true}, "secret": "s", "list": []any{"x"}}
	if got := r.call(rcv, "take", goMsg); got != want {
		t.Errorf("Go -> JS: %v, want %q", got, want)
	}
	if got := r.call(rcv, "clone", goMsg); got != want {
		t.Errorf("structuredClone: %v, want %q", got, want)
	}
	sender := r.spawn("snd", `module.exports = {
		send(to) {
			const m = JSON.parse('{"__proto__": {"polluted": true}, "secret": "s", "list": ["x"]}');
			return to.ask("take", m);
		},
	};`)
	if got := r.call(sender, "send", rcv); got != want {
		t.Errorf("JS -> JS: %v, want %q", got, want)
	}
	_ = jsactor.Call{}
}
