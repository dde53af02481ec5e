(function (report, check) {
	async function run(callback) {
		await undefined;
		try { callback(); } catch (e) { report(e); }
	}
	return function queueMicrotask(callback) {
		check(callback);
		run(callback);
	};
})
