// Package nodetests runs a subset of Node.js's own tests (test/parallel)
// of timers, immediates, process.nextTick and microtasks in JS actors, and
// checks how many pass. It has no API: it is its tests and their
// testdata.
//
// The files in testdata/parallel are Node's, verbatim, under Node's MIT
// licence (testdata/LICENSE); testdata/README.md names the commit each
// came from and the rule that selected them. The helpers they require
// (testdata/common, the assert module) and the runner (testdata/harness)
// were written for troupe. Each file runs in a JS actor of its own, on
// virtual time unless it spins on Date.now (then on the real clock), as a
// Node main module runs: the runner emits the process's 'exit' event
// once no timer or immediate that would keep a Node process alive is
// pending, and the file passes if nothing threw, no call count was off and
// no 'exit' listener failed.
//
// The test holds the list of files expected to pass and of known failures,
// each with its reason: a passing file that starts failing, or a known
// failure that starts passing, fails the test, so the score in the README
// stays true. bench/cmd/nodetests scores the same files under goja_nodejs.
package nodetests
