// shop.js: a JS actor that takes orders. It prices them, asks the Go
// ledger actor for the customer's balance, and tells it to debit.

const prices = new Map([["tea", 3], ["cake", 5], ["pie", 7]]);
let orders = 0;

module.exports = {
	// order answers an ask with a receipt; Go decodes it into a struct.
	async order(ledger, customer, item, qty) {
		const price = prices.get(item);
		if (price === undefined) {
			return { customer, item, ok: false, reason: "no such item" };
		}
		const total = price * qty * (qty >= 3 ? 0.9 : 1); // 10% off from three
		const balance = await ledger.ask("balance", customer);
		if (balance < total) {
			console.warn("%s cannot afford %d %s", customer, qty, item);
			return { customer, item, ok: false, reason: "insufficient funds" };
		}
		ledger.tell("debit", customer, total);
		orders++;
		// A receipt number that is ready a moment later, like an I/O call.
		const number = await new Promise((resolve) => setTimeout(resolve, 1, 1000 + orders));
		return { customer, item, qty, total, ok: true, number };
	},

	stats() {
		return { orders };
	},
};
