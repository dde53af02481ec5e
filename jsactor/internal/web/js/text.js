(function (encode, encodeInto, decode, define) {
"use strict";
class TextEncoder {
	get encoding() { return "utf-8"; }
	encode(input = "") { return encode(String(input)); }
	encodeInto(input, dest) { return encodeInto(String(input), dest); }
}
class TextDecoder {
	#pending = null;
	#started = false;
	constructor(label = "utf-8", options = {}) {
		const l = String(label).trim().toLowerCase();
		if (l !== "utf-8" && l !== "utf8" && l !== "unicode-1-1-utf-8") {
			throw new RangeError("TextDecoder: unsupported encoding " + label);
		}
		this.fatal = !!options.fatal;
		this.ignoreBOM = !!options.ignoreBOM;
	}
	get encoding() { return "utf-8"; }
	decode(input, options) {
		const stream = !!(options && options.stream);
		const pending = this.#pending, keepBOM = this.ignoreBOM || this.#started;
		this.#pending = null;
		this.#started = false;
		const r = decode(input, pending, this.fatal, keepBOM, stream);
		if (stream) {
			this.#pending = r[1];
			this.#started = r[2];
		}
		return r[0];
	}
}
define("TextEncoder", TextEncoder);
define("TextDecoder", TextDecoder);
})
