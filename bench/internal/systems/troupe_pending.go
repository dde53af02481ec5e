//go:build !troupeloop

package systems

// troupePending stands in for troupe until the loop package compiles; build
// with -tags troupeloop to measure it.
var troupePending = register(&System{
	Name: Troupe,
	NA: map[string]string{
		"submit_exec": "loop package not built (-tags troupeloop)", "roundtrip": "loop package not built",
		"timer_onloop_p0": "loop package not built", "timer_onloop_p10k": "loop package not built",
		"timer_onloop_p1m": "loop package not built", "timer_external": "loop package not built",
		"fire_1m_due": "loop package not built", "microtask": "loop package not built",
		"promise_then": "loop package not built", "idle_loop": "loop package not built",
		"idle_loop_timer": "loop package not built",
	},
})
