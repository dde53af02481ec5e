// Package sandbox holds what keeps one goja Runtime from taking the
// process down, for package jsactor: the memory guards of the builtins
// that can allocate far more than their input in one native call
// ([MemGuard]), the watchdog that interrupts turns running past their
// budget ([Watch]), the match timeout of backtracking regular expressions
// ([BoundRegexps]), and the cleaning of JavaScript stacks so that a
// script sees its own frames only ([CleanStack]). Beside those, it keeps
// a Runtime's value stack between turns ([StackKeeper]), which goja would
// otherwise drop and regrow every turn: like the memory guards, it reaches
// goja's unexported fields, and this package is where that is contained.
//
// It knows nothing of actors: jsactor passes in what it needs (a
// Runtime, budgets, the value an interrupt carries, a function to report
// unwatched turns) and keeps the user-facing options and defaults.
//
// Imports: goja, regexp2, goroutineid and the standard library only;
// never jsactor or its other internal packages.
package sandbox
