// Package convert copies values between Go and one goja Runtime, for
// package jsactor: Go to JavaScript (tojs.go) and back (fromjs.go), each
// conversion bounded by a budget of values and bytes and a nesting limit;
// structuredClone within one Runtime (clone.go); the values the host
// constructs in a script's Runtime with intrinsics the script cannot have
// replaced (builtins.go, typed.go); and ref objects recognised by
// identity (RefTable).
//
// It knows nothing of actors' turns or messaging: what it needs of the
// instance above (ending the turn when script code it ran was
// interrupted, the error type of exceptions, ref objects) it gets
// through [Host], which jsactor implements. Script code a conversion
// runs (getters, toString) runs under sandbox.Guard.
//
// Imports: goja, actor (Ref, Terminated), actor/call (Call),
// internal/jsonfields, jsactor/jsvalue and jsactor/internal/sandbox;
// never jsactor or jsactor/internal/web.
package convert
