// Package web holds the web platform and Node builtins a JS actor's
// script sees, for package jsactor: TextEncoder and TextDecoder, atob and
// btoa, URL and URLSearchParams, crypto, EventTarget, Event,
// CustomEvent, AbortController, AbortSignal and DOMException (js/*.js),
// performance, console, process.nextTick and the pure Node modules
// "events" and "util".
//
// Each is built on first use, in one goja Runtime, from what jsactor
// hands it ([Env], a logger, a clock): it knows nothing of actors,
// timers or turns.
//
// Imports: goja, goja_nodejs, zap, the standard library and
// jsactor/internal/sandbox (to compile its helpers under names stacks
// leave out); never jsactor or jsactor/internal/convert.
package web
