// run.js runs one of Node's test files (../parallel) as Node runs a main
// module, up to the process's 'exit' event. Written for troupe's test
// suite. The host spawns it, calls start(file), runs the event loop until
// nothing that would keep a Node process alive is pending (no ref'd
// timer or immediate), then calls exit(), which emits 'exit' as Node
// does: common's call-count checks and the test's own 'exit' listeners
// run then, and a throw from one fails the test.
//
// The process a test sees is the host's own process object (its
// nextTick, whatever else the host has), extended with the 'exit' event:
// on/once/addListener for 'exit', and emit. A test that listens to
// another process event (uncaughtException, warning, ...) is refused
// with an error, not run half-way.
'use strict';

const listeners = [];
const host = globalThis.process;

function on(event, fn) {
  if (event !== 'exit') {
    throw new Error(`the harness emulates only the process 'exit' event, not '${String(event)}'`);
  }
  if (typeof fn !== 'function') throw new TypeError('listener must be a function');
  listeners.push({ fn, once: false });
  return this;
}

function once(event, fn) {
  on.call(this, event, fn);
  listeners[listeners.length - 1].once = true;
  return this;
}

function emit(event, ...args) {
  if (event !== 'exit') return false;
  const now = listeners.slice();
  for (let i = listeners.length - 1; i >= 0; i--) if (listeners[i].once) listeners.splice(i, 1);
  for (const l of now) Reflect.apply(l.fn, proc, args);
  return now.length > 0;
}

const proc = Object.create(host);
Object.assign(proc, { on, once, addListener: on, emit });
globalThis.process = proc;

module.exports = {
  start(file) {
    require('../parallel/' + file);
  },
  // exit returns what a listener threw, as text, or '' when none did. In
  // Node nothing runs after the 'exit' listeners: the process is gone. So
  // from then on the process's nextTick queues nothing, and the host
  // ignores what other callbacks do.
  exit() {
    Object.defineProperty(proc, 'nextTick', { value: function nextTickAfterExit() {}, writable: true, configurable: true });
    try {
      emit('exit', 0);
      return '';
    } catch (e) {
      return String((e && e.stack) || e);
    }
  },
};
