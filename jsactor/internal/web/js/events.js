(function (setTimeout, define) {
"use strict";
class DOMException extends Error {
	constructor(message = "", name = "Error") {
		super(message);
		Object.defineProperty(this, "name", { value: String(name), configurable: true, writable: true });
	}
}

const stopped = Symbol("stopped"), stoppedNow = Symbol("stoppedNow"), canceled = Symbol("canceled");

class Event {
	constructor(type, init = {}) {
		if (arguments.length === 0) throw new TypeError("Event: type is required");
		this.type = String(type);
		this.bubbles = !!init.bubbles;
		this.cancelable = !!init.cancelable;
		this.composed = !!init.composed;
		this.target = null;
		this.currentTarget = null;
		this.timeStamp = performance.now();
		this[stopped] = false;
		this[stoppedNow] = false;
		this[canceled] = false;
	}
	get defaultPrevented() { return this[canceled]; }
	preventDefault() { if (this.cancelable) this[canceled] = true; }
	stopPropagation() { this[stopped] = true; }
	stopImmediatePropagation() { this[stopped] = true; this[stoppedNow] = true; }
}

class CustomEvent extends Event {
	constructor(type, init = {}) {
		super(type, init);
		this.detail = init.detail === undefined ? null : init.detail;
	}
}

const listeners = Symbol("listeners");

class EventTarget {
	constructor() { this[listeners] = new Map(); }
	addEventListener(type, callback, options) {
		if (callback == null) return;
		const once = typeof options === "object" && options !== null && !!options.once;
		const signal = typeof options === "object" && options !== null ? options.signal : undefined;
		if (signal && signal.aborted) return;
		let list = this[listeners].get(type);
		if (!list) this[listeners].set(type, list = []);
		if (list.some(l => l.callback === callback)) return;
		const entry = { callback, once };
		list.push(entry);
		if (signal) signal.addEventListener("abort", () => this.removeEventListener(type, callback));
	}
	removeEventListener(type, callback) {
		const list = this[listeners].get(type);
		if (!list) return;
		const i = list.findIndex(l => l.callback === callback);
		if (i >= 0) { list[i].removed = true; list.splice(i, 1); }
	}
	dispatchEvent(event) {
		if (!(event instanceof Event)) throw new TypeError("dispatchEvent: not an Event");
		event.target = this;
		event.currentTarget = this;
		const handler = this["on" + event.type];
		const list = (this[listeners].get(event.type) || []).slice();
		if (typeof handler === "function") list.unshift({ callback: handler, handler: true });
		for (const l of list) {
			if (l.removed) continue;
			if (l.once) this.removeEventListener(event.type, l.callback);
			try {
				if (typeof l.callback === "function") l.callback.call(this, event);
				else if (l.callback && typeof l.callback.handleEvent === "function") l.callback.handleEvent(event);
			} catch (e) {
				queueMicrotask(() => { throw e; });
			}
			if (event[stoppedNow]) break;
		}
		event.currentTarget = null;
		return !event[canceled];
	}
}

const abort = Symbol("abort");

class AbortSignal extends EventTarget {
	constructor(key) {
		if (key !== abort) throw new TypeError("Illegal constructor");
		super();
		this.aborted = false;
		this.reason = undefined;
		this.onabort = null;
	}
	throwIfAborted() { if (this.aborted) throw this.reason; }
	[abort](reason) {
		if (this.aborted) return;
		this.aborted = true;
		this.reason = reason === undefined ? new DOMException("This operation was aborted", "AbortError") : reason;
		this.dispatchEvent(new Event("abort"));
	}
	static abort(reason) {
		const s = new AbortSignal(abort);
		s[abort](reason);
		return s;
	}
	static timeout(ms) {
		const s = new AbortSignal(abort);
		setTimeout(() => s[abort](new DOMException("The operation timed out.", "TimeoutError")), ms);
		return s;
	}
	static any(signals) {
		const s = new AbortSignal(abort);
		for (const x of signals) {
			if (x.aborted) { s[abort](x.reason); return s; }
		}
		for (const x of signals) x.addEventListener("abort", () => s[abort](x.reason), { once: true });
		return s;
	}
}

class AbortController {
	constructor() { this.signal = new AbortSignal(abort); }
	abort(reason) { this.signal[abort](reason); }
}

define("DOMException", DOMException);
define("Event", Event);
define("CustomEvent", CustomEvent);
define("EventTarget", EventTarget);
define("AbortSignal", AbortSignal);
define("AbortController", AbortController);
})
