// assert: the part of Node's assert module that the files in ../parallel
// use, registered as the module 'assert'. Written for troupe's test suite
// (not copied from Node): each function fails as Node's documents
// (https://nodejs.org/api/assert.html), with an AssertionError whose code
// is 'ERR_ASSERTION'. Evaluated as a function of (module, exports).
'use strict';

class AssertionError extends Error {
  constructor(message) {
    super(message);
    this.name = 'AssertionError';
    this.code = 'ERR_ASSERTION';
  }
}

function show(v) {
  try {
    return typeof v === 'string' ? JSON.stringify(v) : String(v);
  } catch {
    return Object.prototype.toString.call(v);
  }
}

function fail(message, fallback) {
  if (message instanceof Error) throw message;
  throw new AssertionError(message === undefined ? fallback : String(message));
}

function ok(value, message) {
  if (!value) fail(message, `The expression evaluated to a falsy value: ${show(value)}`);
}

function strictEqual(actual, expected, message) {
  if (!Object.is(actual, expected)) fail(message, `Expected values to be strictly equal: ${show(actual)} !== ${show(expected)}`);
}

function notStrictEqual(actual, expected, message) {
  if (Object.is(actual, expected)) fail(message, `Expected "actual" to be strictly unequal to: ${show(expected)}`);
}

function equal(actual, expected, message) {
  // eslint-disable-next-line eqeqeq
  if (!(actual == expected || (actual !== actual && expected !== expected))) fail(message, `${show(actual)} == ${show(expected)}`);
}

function notEqual(actual, expected, message) {
  // eslint-disable-next-line eqeqeq
  if (actual == expected || (actual !== actual && expected !== expected)) fail(message, `${show(actual)} != ${show(expected)}`);
}

// isDeepStrictEqual compares as assert.deepStrictEqual does: primitives
// with Object.is, objects by prototype, tag and own enumerable
// properties (string and symbol keys), arrays element by element, Dates by
// time, RegExps by source and flags, Errors by name and message too, Maps
// and Sets by their entries; cycles are followed once.
function isDeepStrictEqual(a, b, seen = new Map()) {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return false;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const tag = Object.prototype.toString.call(a);
  if (tag !== Object.prototype.toString.call(b)) return false;
  if (seen.get(a) === b) return true;
  seen.set(a, b);
  if (Array.isArray(a) && a.length !== b.length) return false;
  if (a instanceof Date && a.getTime() !== b.getTime()) return false;
  if (a instanceof RegExp && String(a) !== String(b)) return false;
  if (a instanceof Error && (a.name !== b.name || a.message !== b.message)) return false;
  if (a instanceof Map) {
    if (a.size !== b.size) return false;
    for (const [k, v] of a) if (!b.has(k) || !isDeepStrictEqual(v, b.get(k), seen)) return false;
  }
  if (a instanceof Set) {
    if (a.size !== b.size) return false;
    for (const v of a) if (!b.has(v)) return false;
  }
  const keys = ownKeys(a);
  if (keys.length !== ownKeys(b).length) return false;
  for (const k of keys) {
    if (!Object.prototype.propertyIsEnumerable.call(b, k)) return false;
    if (!isDeepStrictEqual(a[k], b[k], seen)) return false;
  }
  return true;
}

function ownKeys(o) {
  return Reflect.ownKeys(o).filter((k) => Object.prototype.propertyIsEnumerable.call(o, k));
}

function deepStrictEqual(actual, expected, message) {
  if (!isDeepStrictEqual(actual, expected)) fail(message, `Expected values to be strictly deep-equal: ${show(actual)} and ${show(expected)}`);
}

function notDeepStrictEqual(actual, expected, message) {
  if (isDeepStrictEqual(actual, expected)) fail(message, `Expected "actual" not to be strictly deep-equal to: ${show(expected)}`);
}

// matches checks a thrown error against what assert.throws expects: a
// class (err must be an instance), a RegExp (tested on String(err)), a
// validation function (must return true), or an object whose every own
// property (and name and message, for an Error) err has, deep-equal or
// matching a RegExp.
function matches(err, expected, message) {
  if (typeof expected === 'function') {
    if (expected.prototype !== undefined && err instanceof expected) return;
    if (expected === Error || Error.isPrototypeOf(expected)) throw err;
    if (expected.call({}, err) !== true) fail(message, `The ${expected.name || 'validation'} function did not return true for ${show(err)}`);
    return;
  }
  if (expected instanceof RegExp) {
    if (!expected.test(String(err))) fail(message, `The error ${show(err)} does not match ${expected}`);
    return;
  }
  if (typeof expected !== 'object' || expected === null) {
    throw new TypeError('assert.throws: "expected" must be a function, a RegExp or an object');
  }
  const keys = Object.keys(expected);
  if (expected instanceof Error) keys.push('name', 'message');
  for (const key of keys) {
    const want = expected[key];
    const got = err === null || err === undefined ? undefined : err[key];
    if (want instanceof RegExp && typeof got === 'string') {
      if (!want.test(got)) fail(message, `The error's ${key} ${show(got)} does not match ${want}`);
    } else if (!isDeepStrictEqual(got, want)) {
      fail(message, `The error's ${key} is ${show(got)}, expected ${show(want)}`);
    }
  }
}

function throws(fn, expected, message) {
  if (typeof fn !== 'function') throw new TypeError('assert.throws: "fn" must be a function');
  if (typeof expected === 'string') {
    message = expected;
    expected = undefined;
  }
  try {
    fn();
  } catch (e) {
    if (expected !== undefined) matches(e, expected, message);
    return;
  }
  fail(message, 'Missing expected exception.');
}

function doesNotThrow(fn, expected, message) {
  if (typeof fn !== 'function') throw new TypeError('assert.doesNotThrow: "fn" must be a function');
  if (typeof expected === 'string') message = expected;
  try {
    fn();
  } catch (e) {
    fail(message === undefined ? undefined : `Got unwanted exception: ${message}\nActual message: "${e && e.message}"`,
         `Got unwanted exception.\nActual message: "${e && e.message}"`);
  }
}

function assert(value, message) {
  ok(value, message);
}

Object.assign(assert, {
  AssertionError,
  ok,
  fail: (message) => fail(message, 'Failed'),
  equal,
  notEqual,
  strictEqual,
  notStrictEqual,
  deepStrictEqual,
  notDeepStrictEqual,
  throws,
  doesNotThrow,
});
assert.strict = assert;

module.exports = assert;
