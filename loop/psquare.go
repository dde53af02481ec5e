package loop

import "slices"

// psquare estimates one quantile of a stream in constant memory with the
// P-square algorithm (Jain and Chlamtac, 1985): five markers whose heights
// are adjusted by piecewise-parabolic interpolation as observations arrive.
type psquare struct {
	p     float64
	n     int
	q     [5]float64 // marker heights
	pos   [5]float64 // actual marker positions
	want  [5]float64 // desired positions
	delta [5]float64 // desired position increments
}

func (e *psquare) init(p float64) {
	e.p = p
	e.delta = [5]float64{0, p / 2, p, (1 + p) / 2, 1}
}

func (e *psquare) add(x float64) {
	if e.n < 5 {
		e.q[e.n] = x
		e.n++
		if e.n == 5 {
			slices.Sort(e.q[:])
			for i := range 5 {
				e.pos[i] = float64(i + 1)
			}
			p := e.p
			e.want = [5]float64{1, 1 + 2*p, 1 + 4*p, 3 + 2*p, 5}
		}
		return
	}
	e.n++
	k := e.cell(x)
	for i := k + 1; i < 5; i++ {
		e.pos[i]++
	}
	for i := range 5 {
		e.want[i] += e.delta[i]
	}
	for i := 1; i < 4; i++ {
		e.adjust(i)
	}
}

// cell finds the marker interval holding x, widening the extremes.
func (e *psquare) cell(x float64) int {
	switch {
	case x < e.q[0]:
		e.q[0] = x
		return 0
	case x >= e.q[4]:
		e.q[4] = x
		return 3
	}
	for i := 1; i < 5; i++ {
		if x < e.q[i] {
			return i - 1
		}
	}
	return 3
}

func (e *psquare) adjust(i int) {
	d := e.want[i] - e.pos[i]
	if !(d >= 1 && e.pos[i+1]-e.pos[i] > 1) && !(d <= -1 && e.pos[i-1]-e.pos[i] < -1) {
		return
	}
	s := 1.0
	if d < 0 {
		s = -1
	}
	q := e.parabolic(i, s)
	if !(e.q[i-1] < q && q < e.q[i+1]) {
		q = e.linear(i, s)
	}
	e.q[i] = q
	e.pos[i] += s
}

func (e *psquare) parabolic(i int, s float64) float64 {
	n, q := &e.pos, &e.q
	return q[i] + s/(n[i+1]-n[i-1])*
		((n[i]-n[i-1]+s)*(q[i+1]-q[i])/(n[i+1]-n[i])+
			(n[i+1]-n[i]-s)*(q[i]-q[i-1])/(n[i]-n[i-1]))
}

func (e *psquare) linear(i int, s float64) float64 {
	j := i + int(s)
	return e.q[i] + s*(e.q[j]-e.q[i])/(e.pos[j]-e.pos[i])
}

// value returns the current estimate (exact while fewer than five samples).
func (e *psquare) value() float64 {
	if e.n == 0 {
		return 0
	}
	if e.n < 5 {
		s := slices.Clone(e.q[:e.n])
		slices.Sort(s)
		return s[min(int(e.p*float64(e.n)), e.n-1)]
	}
	return e.q[2]
}
