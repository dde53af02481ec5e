// A script from someone the host does not trust. It answers asks, and it
// uses the "thumbnail" module the sandbox node grants it, whose native
// code has a bug that no JavaScript sandbox can contain.
const thumbnail = require("thumbnail");

module.exports = {
	add(a, b) { return a + b },
	// In process, the sandbox refuses this before allocating (RangeError).
	hog() {
		try { return 'x'.repeat(2 ** 40).length }
		catch (e) { return e.name + ": " + e.message }
	},
	// The granted module's native bug takes its whole process down.
	shrink(width) { return thumbnail.shrink(width) },
};
