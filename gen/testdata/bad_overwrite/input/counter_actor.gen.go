// This file is hand-written: troupegen must not overwrite it.

package overwrite

// Extra is the user's own code.
func Extra() int { return 1 }
