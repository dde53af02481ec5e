package jsactor

import "github.com/troupe-go/troupe/actor"

var _ actor.StatsReporter = (*instance)(nil)

// Stats reports the instance's budgets and what it has in use, for
// [actor.System.Inspect] (the observer's inspect view): turns run since
// the instance started, timers, immediates and asks pending (and how many
// of the timers and immediates are ref'd: js_refed_pending counts those
// that would keep a Node process alive), and the budgets that
// bound it (the watchdog's per turn, the memory budget of one builtin
// call, the conversion budget, the call stack). goja keeps no account of
// a Runtime's heap, so none is reported: the memory budget bounds each
// allocating call instead. On the actor's loop.
func (in *instance) Stats() []actor.Stat {
	if in.cfg == nil {
		return nil
	}
	mem := in.cfg.memoryBudget()
	nodes, bytes := in.cfg.convLimits()
	timers := 0
	for i := range in.timers.slots {
		if in.timers.slots[i].t != nil {
			timers++
		}
	}
	imms := 0
	for _, im := range in.imms.pending() {
		if im.fn != nil {
			imms++
		}
	}
	return []actor.Stat{
		{Name: "js_turns", Value: float64(in.watch.Turns()), Unit: "1"},
		{Name: "js_timers_pending", Value: float64(timers), Unit: "1"},
		{Name: "js_immediates_pending", Value: float64(imms), Unit: "1"},
		{Name: "js_refed_pending", Value: float64(in.refedPending()), Unit: "1"},
		{Name: "js_asks_pending", Value: float64(len(in.asks)), Unit: "1"},
		{Name: "js_turn_budget", Value: in.cfg.budget.Seconds(), Unit: "s"},
		{Name: "js_memory_budget", Value: float64(mem), Unit: "By"},
		{Name: "js_conversion_budget_values", Value: float64(nodes), Unit: "1"},
		{Name: "js_conversion_budget", Value: float64(bytes), Unit: "By"},
		{Name: "js_max_call_stack", Value: float64(in.cfg.maxStack), Unit: "1"},
	}
}
