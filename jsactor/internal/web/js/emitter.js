(function (module) {
"use strict";
// A small EventEmitter, Node's API for what a sandboxed actor needs: no
// domains, no captureRejections, no max-listeners warnings.
const listenersOf = Symbol("listeners");
class EventEmitter {
	constructor() { Object.defineProperty(this, listenersOf, { value: new Map() }); }
	static get defaultMaxListeners() { return 10; }
	on(name, fn) { return add(this, name, fn, false, false); }
	addListener(name, fn) { return add(this, name, fn, false, false); }
	prependListener(name, fn) { return add(this, name, fn, false, true); }
	once(name, fn) { return add(this, name, fn, true, false); }
	prependOnceListener(name, fn) { return add(this, name, fn, true, true); }
	off(name, fn) { return this.removeListener(name, fn); }
	removeListener(name, fn) {
		const list = table(this).get(name);
		if (!list) return this;
		for (let i = list.length - 1; i >= 0; i--) {
			if (list[i].fn === fn) { list.splice(i, 1); break; }
		}
		if (list.length === 0) table(this).delete(name);
		return this;
	}
	removeAllListeners(name) {
		if (arguments.length === 0) table(this).clear(); else table(this).delete(name);
		return this;
	}
	emit(name, ...args) {
		const list = table(this).get(name);
		if (!list || list.length === 0) {
			if (name === "error") {
				const err = args[0];
				throw err instanceof Error ? err : new Error("Unhandled error. (" + String(err) + ")");
			}
			return false;
		}
		for (const l of list.slice()) {
			if (l.once) this.removeListener(name, l.fn);
			Reflect.apply(l.fn, this, args);
		}
		return true;
	}
	listenerCount(name) { const list = table(this).get(name); return list ? list.length : 0; }
	listeners(name) { const list = table(this).get(name); return list ? list.map((l) => l.fn) : []; }
	eventNames() { return [...table(this).keys()]; }
}
function table(e) {
	if (!e[listenersOf]) Object.defineProperty(e, listenersOf, { value: new Map() });
	return e[listenersOf];
}
function add(e, name, fn, once, prepend) {
	if (typeof fn !== "function") throw new TypeError('The "listener" argument must be of type function');
	const t = table(e);
	let list = t.get(name);
	if (!list) { list = []; t.set(name, list); }
	if (prepend) list.unshift({ fn, once }); else list.push({ fn, once });
	return e;
}
EventEmitter.EventEmitter = EventEmitter;
module.exports = EventEmitter;
})
