// tally.js: the JavaScript actor the Go interface Tally (tally.go)
// describes; its generated TallyRef sends the Calls these handlers take.

const counts = {};
let adds = 0;
let peer = null;

module.exports = {
	add(key, n) {
		counts[key] = (counts[key] || 0) + n;
		adds++;
		if (peer !== null) {
			peer.tell("add", key, n);
		}
	},
	get(key) {
		return counts[key] || 0;
	},
	sum(...xs) {
		return xs.reduce((a, b) => a + b, 0);
	},
	snapshot() {
		return { counts, adds };
	},
	settle(ms) {
		return new Promise((resolve) => setTimeout(resolve, ms, "ignored"));
	},
	fail(msg) {
		throw new Error(msg);
	},
	wrong() {
		return "not a number";
	},
	link(ref) {
		peer = ref;
	},
};
