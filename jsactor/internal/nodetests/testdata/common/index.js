// common: the helpers Node's tests require as '../common', the part the
// files in ../parallel use. Written for troupe's test suite (not copied
// from Node): each helper does what Node's documents (test/common/README.md
// in nodejs/node), checked at the 'exit' event as Node's are.
'use strict';

// The call-count checks run when the process exits. The listener is
// registered when common is loaded, as Node's common does, so a test
// that replaces globalThis.process afterwards still gets its checks.
const exitChecks = [];
process.on('exit', () => {
  for (const check of exitChecks) check();
});

function onExit(check) {
  exitChecks.push(check);
}

function noop() {}

// mustCall(fn, exact = 1) wraps fn; the test fails at exit unless the
// wrapper was called exactly `exact` times. mustCall(n) wraps a no-op.
function mustCall(fn, exact) {
  return counted(fn, exact, 'exactly', (actual, expected) => actual === expected);
}

// mustCallAtLeast(fn, minimum = 1): called at least `minimum` times.
function mustCallAtLeast(fn, minimum) {
  return counted(fn, minimum, 'at least', (actual, expected) => actual >= expected);
}

function counted(fn, expected, how, ok) {
  if (typeof fn === 'number') {
    expected = fn;
    fn = noop;
  } else if (fn === undefined) {
    fn = noop;
  }
  if (expected === undefined) expected = 1;
  if (typeof fn !== 'function') throw new TypeError('mustCall: fn must be a function');
  const name = fn.name || '<anonymous>';
  let actual = 0;
  onExit(() => {
    if (!ok(actual, expected)) {
      throw new Error(`Mismatched ${name} function calls. Expected ${how} ${expected}, actual ${actual}.`);
    }
  });
  return function() {
    actual++;
    return Reflect.apply(fn, this, arguments);
  };
}

// mustNotCall(msg) returns a function that fails the test when called.
function mustNotCall(msg) {
  return function mustNotCall() {
    throw new Error(msg || 'function should not have been called');
  };
}

// platformTimeout scales a timeout for slow platforms; troupe's suite
// runs the tests on virtual time or with no such allowance: ms as given.
function platformTimeout(ms) {
  return ms;
}

// busyLoop spins for ms milliseconds of Date.now time.
function busyLoop(ms) {
  const stop = Date.now() + ms;
  while (Date.now() < stop);
}

// allowGlobals names globals a test may leak; this common checks no
// leaks, so it only accepts the names.
function allowGlobals() {}

module.exports = {
  mustCall,
  mustCallAtLeast,
  mustNotCall,
  platformTimeout,
  busyLoop,
  allowGlobals,
};
