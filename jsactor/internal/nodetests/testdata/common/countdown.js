// Countdown calls a function once dec() has been called `limit` times:
// the helper Node's tests require as '../common/countdown'. Written for
// troupe's test suite, not copied from Node.
'use strict';

class Countdown {
  constructor(limit, cb) {
    if (typeof limit !== 'number' || limit <= 0) throw new TypeError('Countdown: limit must be a positive number');
    this.remaining = limit;
    this.cb = cb;
  }

  dec() {
    if (this.remaining <= 0) throw new Error('Countdown: dec() called more than limit times');
    if (--this.remaining === 0) this.cb();
    return this.remaining;
  }
}

module.exports = Countdown;
