// Copyright Joyent, Inc. and other Node contributors.
//
// Permission is hereby granted, free of charge, to any person obtaining a
// copy of this software and associated documentation files (the
// "Software"), to deal in the Software without restriction, including
// without limitation the rights to use, copy, modify, merge, publish,
// distribute, sublicense, and/or sell copies of the Software, and to permit
// persons to whom the Software is furnished to do so, subject to the
// following conditions:
//
// The above copyright notice and this permission notice shall be included
// in all copies or substantial portions of the Software.
//
// THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS
// OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF
// MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN
// NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM,
// DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR
// OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE
// USE OR OTHER DEALINGS IN THE SOFTWARE.

'use strict';
const common = require('../common');

const assert = require('assert');

process.nextTick(common.mustCall(function() {
  process.nextTick(common.mustCall(function() {
    process.nextTick(common.mustCall());
  }));
}));

setTimeout(common.mustCall(function() {
  process.nextTick(common.mustCall());
}), 50);

process.nextTick(common.mustCall());

const obj = {};

process.nextTick(function(a, b) {
  assert.strictEqual(a, 42);
  assert.strictEqual(b, obj);
  assert.strictEqual(this, undefined);
}, 42, obj);

process.nextTick((a, b) => {
  assert.strictEqual(a, 42);
  assert.strictEqual(b, obj);
  assert.deepStrictEqual(this, {});
}, 42, obj);

process.nextTick(function() {
  assert.strictEqual(this, undefined);
}, 1, 2, 3, 4);

process.nextTick(() => {
  assert.deepStrictEqual(this, {});
}, 1, 2, 3, 4);

process.on('exit', function() {
  process.nextTick(common.mustNotCall());
});
