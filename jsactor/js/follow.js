(function () {
	return async function follow(p, ok, err) {
		let v;
		try { v = await p; } catch (e) { err(e); return; }
		ok(v);
	};
})
