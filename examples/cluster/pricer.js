// pricer.js: a JavaScript actor on the warehouse node. The shop asks it
// for quotes across nodes; it records each quote with the shop's ledger
// (a Go actor on the shop node: a tell), then asks the ledger how many
// quotes it holds (an ask), and answers with an object.

const prices = { apples: 0.5, pears: 0.75 };

module.exports = {
	async quote(ledger, item, qty) {
		const price = prices[item];
		if (price === undefined) {
			throw new Error(`no price for ${item}`);
		}
		const total = price * qty;
		ledger.tell("record", { item, qty, total });
		const entries = await ledger.ask("entries");
		return { item, qty, total, entries, by: self.toString() };
	},
};
