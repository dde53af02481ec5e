package jsactor_test

import (
	"strings"
	"testing"
)

// The guards of String.prototype, Array.prototype, Function.prototype and
// the Array and Object constructors are built on first lookup: what a
// script sees of them stays what it sees of goja's own methods (name,
// length, attributes, assignment, deletion, inheritance), and no path
// reaches an unguarded original.
func TestLazyGuardsLookLikeBuiltins(t *testing.T) {
	cases := []struct{ name, expr string }{
		{"in before lookup", `'repeat' in String.prototype && 'from' in Array && 'keys' in Object`},
		{"name and length", `''.padEnd.name === 'padEnd' && ''.padEnd.length === 1 && [].concat.length === 1 && Function.prototype.apply.length === 2`},
		{"own after lookup", `(''.repeat, String.prototype.hasOwnProperty('repeat'))`},
		{"attributes", `(() => { [].fill; const d = Object.getOwnPropertyDescriptor(Array.prototype, 'fill'); return d.writable && !d.enumerable && d.configurable })()`},
		{"name attributes", `(() => { const d = Object.getOwnPropertyDescriptor(''.repeat, 'name'); return !d.writable && !d.enumerable && d.configurable })()`},
		{"typed array constructor attributes", `(() => { const d = Object.getOwnPropertyDescriptor(Uint8Array.prototype, 'constructor'); return d.value === Uint8Array && d.writable && !d.enumerable && d.configurable })()`},
		{"RangeError message not enumerable", `(() => { try { 'x'.repeat(2**40) } catch (e) { return e instanceof RangeError && !Object.keys(e).includes('message') } })()`},
		{"assign before lookup", `(() => { String.prototype.padStart = function () { return 'mine' }; return 'x'.padStart(3) === 'mine' })()`},
		{"delete after lookup", `(() => { [].flat; delete Array.prototype.flat; return [].flat === undefined })()`},
		{"same function each time", `'a'.split === 'b'.split && [].map === [].map`},
		{"not enumerable", `(() => { const k = []; for (const p in 'ab') k.push(p); for (const p in [1]) k.push(p); return k.join() === '0,1,0' })()`},
		{"inherits Object.prototype", `'x'.hasOwnProperty('length') && [] instanceof Object && Object.prototype.isPrototypeOf(String.prototype) && typeof [].valueOf === 'function'`},
		{"Object.prototype additions seen", `(() => { Object.prototype.extra = 7; const ok = ''.extra === 7 && [].extra === 7 && (function () {}).extra === 7; delete Object.prototype.extra; return ok })()`},
		{"__proto__ of a literal", `''.__proto__ === String.prototype && [].__proto__ === Array.prototype`},
		{"prototype chains are the builtins'", `Object.getPrototypeOf(String.prototype) === Object.prototype && Object.getPrototypeOf(Array.prototype) === Object.prototype && Object.getPrototypeOf(Function.prototype) === Object.prototype && Object.getPrototypeOf(Array) === Function.prototype && Object.getPrototypeOf(Object) === Function.prototype`},
		{"own before lookup", `String.prototype.hasOwnProperty('repeat') && Object.getOwnPropertyNames(Array.prototype).includes('flat') && Object.getOwnPropertyNames(Array.prototype).includes('constructor') && Object.hasOwn(Object, 'keys') && Object.hasOwn(Array, 'from')`},
		{"guard reached through a descriptor first", `(() => { try { Object.getOwnPropertyDescriptor(String.prototype, 'repeat').value.call('x', 2**40); return false } catch (e) { return e instanceof RangeError } })()`},
		{"guard reached through enumeration first", `(() => { const d = Object.getOwnPropertyDescriptors(Array.prototype); try { d.fill.value.call({ length: 2**40 }, 0); return false } catch (e) { return e instanceof RangeError } })()`},
		{"delete before lookup", `(() => { delete String.prototype.padEnd; return ''.padEnd === undefined && !('padEnd' in String.prototype) })()`},
		{"subclass inherits the guard", `(() => { try { (class X extends Array {}).from({ length: 1e12 }); return false } catch (e) { return e instanceof RangeError } })()`},
		{"works", `'ab'.repeat(2) + [1, [2]].flat().join() + [1, 2, 3].slice(1).join() + [1].concat([2], 3).join() + Object.keys('ab').join() + Reflect.apply(Math.max, null, [1, 3]) === 'abab1,22,31,2,30,13'`},
	}
	r := newRig(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ref := r.spawn("lazy"+strings.ReplaceAll(tc.name, " ", "_"), `module.exports = { run() { return `+tc.expr+` } };`)
			if got := r.call(ref, "run"); got != true {
				t.Fatalf("%s: got %v", tc.expr, got)
			}
		})
	}
}
