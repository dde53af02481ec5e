package loop_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/troupe-go/troupe/loop"
)

// step settles input i: with err if non-nil, else with v.
type step struct {
	i   int
	v   int
	err error
}

var errC = errors.New("c")

// pendingInputs returns n pending promises on l and their resolvers.
func pendingInputs(l *loop.Loop, n int) ([]*loop.Promise[int], []*loop.Resolver[int]) {
	ps := make([]*loop.Promise[int], n)
	rs := make([]*loop.Resolver[int], n)
	for i := range n {
		ps[i], rs[i] = loop.NewPromise[int](l)
	}
	return ps, rs
}

// settleSteps settles inputs one macrotask at a time, so the combinator
// sees them settle in the order given.
func settleSteps(t *testing.T, l *loop.Loop, rs []*loop.Resolver[int], steps []step) {
	t.Helper()
	for _, s := range steps {
		do(t, l, func() {
			if s.err != nil {
				rs[s.i].Reject(s.err)
			} else {
				rs[s.i].Resolve(s.v)
			}
		})
	}
}

// inputLoop returns the loop the inputs live on: l itself, or another one.
func inputLoop(t *testing.T, l *loop.Loop, other bool) *loop.Loop {
	if other {
		return startLoop(t)
	}
	return l
}

// All fulfils with the values in input order, whatever order they settled
// in, and rejects with the first rejection to happen.
func TestAll(t *testing.T) {
	tests := []struct {
		name    string
		n       int
		steps   []step
		other   bool // inputs on another loop
		want    []int
		wantErr error
	}{
		{name: "none", n: 0, want: []int{}},
		{name: "in order", n: 3, steps: []step{{0, 1, nil}, {1, 2, nil}, {2, 3, nil}}, want: []int{1, 2, 3}},
		{name: "reverse order", n: 3, steps: []step{{2, 3, nil}, {1, 2, nil}, {0, 1, nil}}, want: []int{1, 2, 3}},
		{name: "other loop", n: 3, other: true, steps: []step{{1, 2, nil}, {2, 3, nil}, {0, 1, nil}}, want: []int{1, 2, 3}},
		{name: "first rejection wins", n: 3, steps: []step{{0, 1, nil}, {2, 0, errB}, {1, 0, errA}}, wantErr: errB},
		{name: "rejects before all settle", n: 3, steps: []step{{1, 0, errA}}, wantErr: errA},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := startLoop(t)
			il := inputLoop(t, l, tt.other)
			ps, rs := pendingInputs(il, tt.n)
			all := loop.All(l, ps...)
			if all.Loop() != l {
				t.Error("combined promise not on l")
			}
			settleSteps(t, il, rs, tt.steps)
			got, err := settleOf(t, all)
			if err != tt.wantErr || (tt.wantErr == nil && (got == nil || !slices.Equal(got, tt.want))) {
				t.Fatalf("got (%#v, %v), want (%#v, %v)", got, err, tt.want, tt.wantErr)
			}
		})
	}
}

// Race settles as the first input to settle.
func TestRace(t *testing.T) {
	tests := []struct {
		name    string
		n       int
		steps   []step
		other   bool
		wantV   int
		wantErr error
	}{
		{name: "first fulfils", n: 3, steps: []step{{1, 2, nil}, {0, 0, errA}, {2, 3, nil}}, wantV: 2},
		{name: "first rejects", n: 3, steps: []step{{2, 0, errB}, {0, 1, nil}}, wantErr: errB},
		{name: "other loop", n: 2, other: true, steps: []step{{1, 7, nil}, {0, 1, nil}}, wantV: 7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := startLoop(t)
			il := inputLoop(t, l, tt.other)
			ps, rs := pendingInputs(il, tt.n)
			race := loop.Race(l, ps...)
			settleSteps(t, il, rs, tt.steps)
			v, err := settleOf(t, race)
			if v != tt.wantV || err != tt.wantErr {
				t.Fatalf("got (%v, %v), want (%v, %v)", v, err, tt.wantV, tt.wantErr)
			}
		})
	}
	t.Run("already settled", func(t *testing.T) {
		l := startLoop(t)
		race := loop.Race(l, loop.Resolved(l, 1), loop.Rejected[int](l, errA))
		if v, err := settleOf(t, race); v != 1 || err != nil {
			t.Fatalf("got (%v, %v), want the first input's 1", v, err)
		}
	})
	t.Run("none stays pending", func(t *testing.T) {
		l := startLoop(t)
		race := loop.Race[int](l)
		for range 3 {
			do(t, l, func() {})
		}
		if _, _, ok := race.Settled(); ok {
			t.Fatal("Race of no inputs settled")
		}
	})
}

// Any fulfils with the first fulfilment, or, when every input rejects,
// rejects with an *AggregateError holding the errors in input order.
func TestAny(t *testing.T) {
	tests := []struct {
		name     string
		n        int
		steps    []step
		other    bool
		wantV    int
		wantErrs []error // non-nil: want an AggregateError with these
	}{
		{name: "none", n: 0, wantErrs: []error{}},
		{name: "first fulfilment after rejections", n: 3, steps: []step{{0, 0, errA}, {2, 3, nil}, {1, 2, nil}}, wantV: 3},
		{name: "all reject", n: 3, steps: []step{{2, 0, errC}, {0, 0, errA}, {1, 0, errB}}, wantErrs: []error{errA, errB, errC}},
		{name: "other loop", n: 2, other: true, steps: []step{{1, 0, errB}, {0, 0, errA}}, wantErrs: []error{errA, errB}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := startLoop(t)
			il := inputLoop(t, l, tt.other)
			ps, rs := pendingInputs(il, tt.n)
			anyP := loop.Any(l, ps...)
			settleSteps(t, il, rs, tt.steps)
			v, err := settleOf(t, anyP)
			if tt.wantErrs == nil {
				if v != tt.wantV || err != nil {
					t.Fatalf("got (%v, %v), want %v", v, err, tt.wantV)
				}
				return
			}
			var agg *loop.AggregateError
			if !errors.As(err, &agg) {
				t.Fatalf("got (%v, %v), want an *AggregateError", v, err)
			}
			if !slices.Equal(agg.Errors, tt.wantErrs) {
				t.Fatalf("errors %v, want %v", agg.Errors, tt.wantErrs)
			}
			for _, e := range tt.wantErrs {
				if !errors.Is(err, e) {
					t.Errorf("errors.Is(agg, %v) = false", e)
				}
			}
		})
	}
}

// AllSettled reports every input's outcome, in input order.
func TestAllSettled(t *testing.T) {
	tests := []struct {
		name  string
		n     int
		steps []step
		other bool
		want  []loop.Settlement[int]
	}{
		{name: "none", n: 0, want: []loop.Settlement[int]{}},
		{
			name: "mixed", n: 3, steps: []step{{2, 3, nil}, {0, 0, errA}, {1, 2, nil}},
			want: []loop.Settlement[int]{{Err: errA}, {Value: 2}, {Value: 3}},
		},
		{
			name: "all reject", n: 2, steps: []step{{1, 0, errB}, {0, 0, errA}},
			want: []loop.Settlement[int]{{Err: errA}, {Err: errB}},
		},
		{
			name: "other loop", n: 2, other: true, steps: []step{{1, 0, errB}, {0, 1, nil}},
			want: []loop.Settlement[int]{{Value: 1}, {Err: errB}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := startLoop(t)
			il := inputLoop(t, l, tt.other)
			ps, rs := pendingInputs(il, tt.n)
			all := loop.AllSettled(l, ps...)
			settleSteps(t, il, rs, tt.steps)
			got, err := settleOf(t, all)
			if err != nil || got == nil || !slices.Equal(got, tt.want) {
				t.Fatalf("got (%v, %v), want %v", got, err, tt.want)
			}
		})
	}
}

// A combinator on a loop that closes before its inputs settle is rejected
// with ErrLoopClosed.
func TestCombinatorsRejectedOnClose(t *testing.T) {
	l := startLoop(t)
	other := startLoop(t)
	ps, _ := pendingInputs(other, 2)
	all, race, anyP, settled := loop.All(l, ps...), loop.Race(l, ps...), loop.Any(l, ps...), loop.AllSettled(l, ps...)
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	for name, err := range map[string]error{
		"All":        errOf(all),
		"Race":       errOf(race),
		"Any":        errOf(anyP),
		"AllSettled": errOf(settled),
	} {
		if !errors.Is(err, loop.ErrLoopClosed) {
			t.Errorf("%s: got %v, want ErrLoopClosed", name, err)
		}
	}
}

// errOf returns the error of a settled promise, or an error saying it is
// still pending.
func errOf[T any](p *loop.Promise[T]) error {
	if _, err, ok := p.Settled(); ok {
		return err
	}
	return errors.New("still pending")
}
