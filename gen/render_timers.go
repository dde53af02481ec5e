package gen

import (
	"regexp"

	"github.com/dave/jennifer/jen"
)

// timerKinds are the typed timer methods generated per tell: the suffix
// of their name, the actor.Timers method they call, and when they
// deliver.
var timerKinds = []struct{ suffix, start, when string }{
	{"After", "StartSingle", "once, after d (a single-shot timer)"},
	{"FixedDelay", "StartFixedDelay", "every d, measured from the end of the previous delivery's handling " +
		"(fixed delay: a slow handler delays the next delivery), until cancelled"},
	{"FixedRate", "StartFixedRate", "every d, measured from the previous delivery's deadline " +
		"(fixed rate: a slow handler does not shift the schedule), until cancelled"},
}

// durationWord is the duration parameter's name, d, in timer docs.
var durationWord = regexp.MustCompile(`\bd\b`)

// timers renders the typed timers of an actor with tells: a timer
// delivers a message whose reply nobody waits for, so asks get none.
func (r *renderer) timers() {
	s, n := r.spec, r.n
	if !s.hasTells() {
		return
	}
	r.f.Add(doc("%s schedules %s's tells (its messages without results) to the actor itself, by key, "+
		"as the actor.Timers it embeds does: each tell has a single-shot timer (After), a fixed-delay one "+
		"(FixedDelay) and a fixed-rate one (FixedRate), and Cancel, CancelAll and IsActive come from actor.Timers. "+
		"Starting a key replaces its timer, cancelling a key guarantees its message is not handled "+
		"afterwards, even if it was due already, and all timers are cancelled when the actor stops or restarts. "+
		"Use it only in the handlers of the %s actor it was made for.", n.timers, s.name, s.name))
	r.f.Type().Id(n.timers).Struct(jen.Qual(actorPath, "Timers"))
	r.f.Line()

	r.f.Add(doc("%s returns the typed timers of the %s actor whose handler has c.", n.timersOf, s.name))
	r.f.Func().Id(n.timersOf).Params(jen.Id("c").Op("*").Qual(actorPath, "Context")).Id(n.timers).
		Block(jen.Return(jen.Id(n.timers).Values(jen.Id("c").Dot("Timers").Call())))

	for _, m := range s.msgs {
		if m.asks() {
			continue
		}
		for _, k := range timerKinds {
			r.withLocals(m, func() { r.timer(m, k.suffix, k.start, k.when) })
		}
	}
}

// timer renders one timer method of m.
func (r *renderer) timer(m message, suffix, start, when string) {
	fails := "It fails with actor.ErrStopped once the actor is stopping."
	if start != "StartSingle" {
		fails = "It fails with actor.ErrStopped once the actor is stopping, and with an error if d is not positive."
	}
	key, d, t := r.l("key"), r.l("d"), r.l("t")
	r.f.Add(doc("%s%s delivers the message of [%s.%s] to the actor %s, under %s, replacing %s's timer. %s",
		m.name, suffix, r.spec.name, m.name, durationWord.ReplaceAllString(when, d), key, key,
		durationWord.ReplaceAllString(fails, d)))
	params := append([]jen.Code{jen.Id(key).Any(), jen.Id(d).Qual("time", "Duration")}, r.params(m)...)
	r.f.Func().Params(jen.Id(t).Id(r.n.timers)).Id(m.name + suffix).Params(params...).Error().Block(
		jen.Return(jen.Id(t).Dot("Timers").Dot(start).Call(jen.Id(key), jen.Id(d), r.msgValue(m))),
	)
}
