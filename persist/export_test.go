package persist

// OnRecoveryAwaitsWrite makes fn run whenever a recovery waits for a
// write its actor's previous instance left in flight, until the returned
// function restores the default. For tests.
func OnRecoveryAwaitsWrite(fn func(entity string)) (restore func()) {
	old := testHookAwaitsWrite
	testHookAwaitsWrite = fn
	return func() { testHookAwaitsWrite = old }
}
