package ir

import "math"

// Bounds: the constant interval of an expression, which the rules of
// Min, Max, comparisons, Div and Mod consult.

// boundsDepth limits how many non-linear levels boundsOf looks through, so
// that asking for bounds stays cheap.
const boundsDepth = 4

// ConstRange is a range of integer constants, [Lo, Hi]; an end is unknown
// (infinite) unless its Has flag is set. The simplifier's bounds of an
// expression are one, and so are package bounds' constant ranges.
type ConstRange struct {
	Lo, Hi       int64
	HasLo, HasHi bool
}

// interval is the simplifier's name for a ConstRange.
type interval = ConstRange

// ConstPoint is the range of the one value v.
func ConstPoint(v int64) ConstRange { return ConstRange{v, v, true, true} }

// IsPoint reports whether r holds exactly one value.
func (r ConstRange) IsPoint() bool { return r.HasLo && r.HasHi && r.Lo == r.Hi }

// Intersect keeps the tighter of each end of r and o.
func (r ConstRange) Intersect(o ConstRange) ConstRange {
	if o.HasLo && (!r.HasLo || o.Lo > r.Lo) {
		r.Lo, r.HasLo = o.Lo, true
	}
	if o.HasHi && (!r.HasHi || o.Hi < r.Hi) {
		r.Hi, r.HasHi = o.Hi, true
	}
	return r
}

func addChecked(a, b int64) (int64, bool) {
	s := a + b
	if (a > 0 && b > 0 && s < 0) || (a < 0 && b < 0 && s >= 0) {
		return 0, false
	}
	return s, true
}

func mulChecked(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	p := a * b
	if p/b != a || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
		return 0, false
	}
	return p, true
}

func (a interval) add(b interval) interval {
	var r interval
	if a.HasLo && b.HasLo {
		r.Lo, r.HasLo = addChecked(a.Lo, b.Lo)
	}
	if a.HasHi && b.HasHi {
		r.Hi, r.HasHi = addChecked(a.Hi, b.Hi)
	}
	return r
}

func (a interval) scale(k int64) interval {
	var r interval
	if a.HasLo {
		r.Lo, r.HasLo = mulChecked(a.Lo, k)
	}
	if a.HasHi {
		r.Hi, r.HasHi = mulChecked(a.Hi, k)
	}
	if k < 0 {
		r.Lo, r.Hi, r.HasLo, r.HasHi = r.Hi, r.Lo, r.HasHi, r.HasLo
	}
	return r
}

// bounds is the interval of the linear form, from the bounds of its atoms.
// A sum T ± min(A, B) is bounded as min(T ± A, T ± B), which sees the
// correlation between T and the operands: x + min(-1 - x, y) <= -1.
func (l *linear) bounds(depth int) interval {
	if l.inexact {
		return interval{}
	}
	if idx, k := l.soleMinMax(); idx >= 0 && depth > 0 {
		m := l.terms[idx].x.(*Binary)
		op := m.Op
		if k == -1 {
			op = flipMinMax(op)
		}
		la := l.clone(idx)
		la.addSimp(m.A, k)
		ba := la.bounds(depth - 1)
		la.release()
		lb := l.clone(idx)
		lb.addSimp(m.B, k)
		bb := lb.bounds(depth - 1)
		lb.release()
		return minMaxInterval(op, ba, bb)
	}
	if i, j, d, c := l.divPair(); i >= 0 && depth > 0 {
		// k*(A/c) - k*(B/c) with A - B = d, a constant: with
		// B = q*c + r (0 <= r < c), A/c - B/c = (r + d)/c, which is
		// in [floor(d/c), ceil(d/c)] (((m + 1)/2 - m/2 is 0 or 1).
		rest := l.clone(-1)
		k := rest.terms[i].k
		rest.terms[i].k, rest.terms[j].k = 0, 0
		rest.compact()
		pair := interval{EuclidDiv(d, c), -EuclidDiv(-d, c), true, true}.scale(k)
		r := rest.bounds(depth - 1).add(pair)
		rest.release()
		return r.Intersect(l.sumBounds(depth))
	}
	if i, m, n, c := l.correlatedDiv(); i >= 0 && depth > 0 {
		// k*(n/c) with k = m*c is m*(n - n%c), and n%c is in
		// [0, c-1]: the terms of n can then cancel with the others
		// (((e + 7)/8)*8 - e is in [0, 7]).
		rel := l.clone(i)
		rel.addSimp(n, m)
		r := rel.bounds(depth - 1).add(interval{0, c - 1, true, true}.scale(-m))
		rel.release()
		return r.Intersect(l.sumBounds(depth))
	}
	return l.sumBounds(depth)
}

// divPair finds two terms k*(A/c) and -k*(B/c) of l, for a constant c > 0,
// whose numerators differ by a constant d = A - B. It returns their indices
// (or -1), d and c.
func (l *linear) divPair() (int, int, int64, int64) {
	for i, ti := range l.terms {
		a, ok := ti.x.(*Binary)
		if !ok || a.Op != Div || ti.k == 0 {
			continue
		}
		c, ok := constInt(a.B)
		if !ok || c <= 0 {
			continue
		}
		for j := i + 1; j < len(l.terms); j++ {
			tj := l.terms[j]
			b, ok := tj.x.(*Binary)
			if !ok || b.Op != Div || tj.k != -ti.k {
				continue
			}
			if c2, ok := constInt(b.B); !ok || c2 != c {
				continue
			}
			dl := diff(a.A, b.A)
			d, constant := dl.c, len(dl.terms) == 0 && !dl.inexact
			dl.release()
			if constant {
				return i, j, d, c
			}
		}
	}
	return -1, -1, 0, 0
}

// DiffBounds returns constant bounds of the exact difference a - b of two
// simplified expressions of a signed 32- or 64-bit type, every variable
// unbounded. a and b are values of the type (assumed not to overflow, as
// Simplify does), but a - b is not an expression of the program and may
// not fit the type: the difference is taken on their linear forms, and a
// constant that leaves the type (an inexact form) gives no bounds, where
// simplifying a - b would fold it with wrap-around.
//
// Besides the simplifier's bounds of the form, a pair of terms
// k*min(a1, a2) - k*min(b1, b2) (or of maxes) is bounded by the
// differences of the operands, paired: min(a1, a2) - min(b1, b2) lies in
// [min(a1 - b1, a2 - b2), max(a1 - b1, a2 - b2)] (min and max move by at
// most what their operands move), so min(t + 24, m) - min(t, m) is in
// [0, 24] whatever t and m are.
func DiffBounds(a, b Expr) ConstRange {
	if a == nil || b == nil || !algebraic(a.Type()) || a.Type() != b.Type() {
		return ConstRange{}
	}
	d := diff(a, b)
	r := d.diffBounds(boundsDepth)
	d.release()
	return r
}

// ExactDiff returns a - b simplified, for two simplified expressions of
// a signed 32- or 64-bit type, and whether it is exact: no constant or
// coefficient of the linear form of a - b leaves the type. a - b is not an
// expression of the program, so where it is not exact (ok false) its
// simplified form holds a wrapped constant, not the difference.
func ExactDiff(a, b Expr) (Expr, bool) {
	if a == nil || b == nil || !algebraic(a.Type()) || a.Type() != b.Type() {
		return nil, false
	}
	d := diff(a, b)
	inexact := d.inexact
	d.release()
	if inexact {
		return nil, false
	}
	return simp(bin(Sub, a, b)), true
}

// diffBounds is bounds, tightened by the bounds of the pairs of min (or
// max) terms of opposite coefficients (see DiffBounds).
func (l *linear) diffBounds(depth int) interval {
	if l.inexact {
		return interval{}
	}
	r := l.bounds(boundsDepth)
	if depth <= 0 {
		return r
	}
	for i, ti := range l.terms {
		mi, ok := ti.x.(*Binary)
		if !ok || (mi.Op != Min && mi.Op != Max) {
			continue
		}
		for j := i + 1; j < len(l.terms); j++ {
			tj := l.terms[j]
			mj, ok := tj.x.(*Binary)
			if !ok || mj.Op != mi.Op || tj.k != -ti.k || ti.k == math.MinInt64 {
				continue
			}
			pair := minMaxDiff(mi, mj, depth-1)
			if !pair.HasLo && !pair.HasHi {
				continue
			}
			rest := l.clone(-1)
			rest.terms[i].k, rest.terms[j].k = 0, 0
			rest.compact()
			rr := rest.diffBounds(depth - 1).add(pair.scale(ti.k))
			rest.release()
			return r.Intersect(rr)
		}
	}
	return r
}

// minMaxDiff bounds the exact m1 - m2 of two mins (or two maxes) by the
// differences of their operands, in either pairing.
func minMaxDiff(m1, m2 *Binary, depth int) interval {
	var out interval
	for _, p := range [2][2][2]Expr{{{m1.A, m2.A}, {m1.B, m2.B}}, {{m1.A, m2.B}, {m1.B, m2.A}}} {
		d1 := diff(p[0][0], p[0][1])
		r1 := d1.diffBounds(depth)
		d1.release()
		d2 := diff(p[1][0], p[1][1])
		r2 := d2.diffBounds(depth)
		d2.release()
		var r interval
		if r1.HasLo && r2.HasLo {
			r.Lo, r.HasLo = min(r1.Lo, r2.Lo), true
		}
		if r1.HasHi && r2.HasHi {
			r.Hi, r.HasHi = max(r1.Hi, r2.Hi), true
		}
		out = out.Intersect(r)
	}
	return out
}

// ConstantBounds returns constant bounds of the integer expression e of a
// signed 32- or 64-bit type, every variable unbounded, assuming no
// overflow (as Simplify does). Unlike an interval walk it sees correlated
// terms of the linear form: x + min(-1 - x, y) <= -1, ((e + 7)/8)*8 - e in
// [0, 7], (m + 1)/2 - m/2 in [0, 1].
func ConstantBounds(e Expr) (lo, hi int64, hasLo, hasHi bool) {
	if e == nil || !algebraic(e.Type()) {
		return 0, 0, false, false
	}
	se := simp(e)
	l := linearOf(se)
	r := l.bounds(8)
	l.release()
	return r.Lo, r.Hi, r.HasLo, r.HasHi
}

// correlatedDiv finds a term k*(n/c) of l, for a constant c > 0 dividing k,
// whose numerator n shares an atom with the other terms. It returns the
// term's index (or -1), k/c, n and c.
func (l *linear) correlatedDiv() (int, int64, Expr, int64) {
	for i, tm := range l.terms {
		d, ok := tm.x.(*Binary)
		if !ok || d.Op != Div {
			continue
		}
		c, ok := constInt(d.B)
		if !ok || c <= 0 || tm.k%c != 0 {
			continue
		}
		ln := linearOf(d.A)
		shared := false
		for _, tn := range ln.terms {
			for j, to := range l.terms {
				if j != i && to.k != 0 && sameExpr(tn.x, to.x) {
					shared = true
				}
			}
		}
		ln.release()
		if shared {
			return i, tm.k / c, d.A, c
		}
	}
	return -1, 0, nil, 0
}

// sumBounds adds up the bounds of the terms.
func (l *linear) sumBounds(depth int) interval {
	r := ConstPoint(l.c)
	for _, tm := range l.terms {
		if tm.k == 0 {
			continue
		}
		r = r.add(boundsOf(tm.x, depth).scale(tm.k))
		if !r.HasLo && !r.HasHi {
			break
		}
	}
	return r
}

// minMaxInterval is the interval of min(a, b) (or max) for a in ia and b in
// ib: the min is below either upper bound alone, and above both lower ones.
func minMaxInterval(op BinOp, ia, ib interval) interval {
	if op == Max {
		// max(a, b) = -min(-a, -b)
		ia, ib = ia.scale(-1), ib.scale(-1)
	}
	var r interval
	if ia.HasLo && ib.HasLo {
		r.Lo, r.HasLo = min(ia.Lo, ib.Lo), true
	}
	switch {
	case ia.HasHi && ib.HasHi:
		r.Hi, r.HasHi = min(ia.Hi, ib.Hi), true
	case ia.HasHi:
		r.Hi, r.HasHi = ia.Hi, true
	case ib.HasHi:
		r.Hi, r.HasHi = ib.Hi, true
	}
	if op == Max {
		r = r.scale(-1)
	}
	return r
}

// boundsOf returns an interval holding every value of the simplified
// expression e of an algebraic type (assuming no overflow), looking through
// at most depth non-linear nodes. Unknown ends are left unset.
func boundsOf(e Expr, depth int) interval {
	if depth <= 0 {
		return interval{}
	}
	switch e := e.(type) {
	case *IntImm:
		return ConstPoint(e.V)
	case *Binary:
		switch e.Op {
		case Add:
			return boundsOf(e.A, depth).add(boundsOf(e.B, depth))
		case Sub:
			return boundsOf(e.A, depth).add(boundsOf(e.B, depth).scale(-1))
		case Mul:
			if c, ok := constInt(e.B); ok {
				return boundsOf(e.A, depth).scale(c)
			}
			if c, ok := constInt(e.A); ok {
				return boundsOf(e.B, depth).scale(c)
			}
		case Div:
			if c, ok := constInt(e.B); ok && c > 0 {
				a := boundsOf(e.A, depth-1)
				a.Lo, a.Hi = EuclidDiv(a.Lo, c), EuclidDiv(a.Hi, c)
				return a
			}
			if c, ok := constInt(e.B); ok && c < -1 {
				// Non-increasing in the numerator (-1 is left out:
				// MIN / -1 wraps).
				a := boundsOf(e.A, depth-1)
				return interval{EuclidDiv(a.Hi, c), EuclidDiv(a.Lo, c), a.HasHi, a.HasLo}
			}
		case Mod:
			if c, ok := constInt(e.B); ok && c > 0 {
				return interval{0, c - 1, true, true}
			}
			if c, ok := constInt(e.B); ok && c < 0 {
				// Euclidean: in [0, |c|) for either sign (-(c+1) is
				// |c| - 1 without overflow).
				return interval{0, -(c + 1), true, true}
			}
		case Min, Max:
			return minMaxInterval(e.Op, boundsOf(e.A, depth-1), boundsOf(e.B, depth-1))
		}
	case *Select:
		a, b := boundsOf(e.True, depth-1), boundsOf(e.False, depth-1)
		return interval{min(a.Lo, b.Lo), max(a.Hi, b.Hi), a.HasLo && b.HasLo, a.HasHi && b.HasHi}
	case *Cast:
		s := e.X.Type()
		var r interval
		if s.IsIntOrUInt() || s.IsBool() {
			if s.Bits < e.T.Bits || (s.IsInt() && s.Bits <= e.T.Bits) {
				r = interval{s.Min(), s.Max(), true, true}
			}
			if algebraic(s) && s.Bits <= e.T.Bits {
				r = r.Intersect(boundsOf(e.X, depth-1))
			}
		}
		return r
	case *Call:
		if e.Kind != CallIntrinsic {
			break
		}
		switch e.Name {
		case IntrinsicLikely, IntrinsicStrictFloat:
			if len(e.Args) == 1 {
				return boundsOf(e.Args[0], depth-1)
			}
		case IntrinsicPromiseClamped:
			// min(max(x, lo), hi), also when lo > hi.
			if len(e.Args) == 3 && e.Args[1].Type() == e.T && e.Args[2].Type() == e.T {
				x := boundsOf(e.Args[0], depth-1)
				lo, hi := boundsOf(e.Args[1], depth-1), boundsOf(e.Args[2], depth-1)
				return minMaxInterval(Min, minMaxInterval(Max, x, lo), hi)
			}
		case IntrinsicUnsafePromiseClamped:
			if len(e.Args) == 3 {
				lo, ok1 := constInt(e.Args[1])
				hi, ok2 := constInt(e.Args[2])
				if ok1 && ok2 && lo <= hi && e.Args[1].Type() == e.T && e.Args[2].Type() == e.T {
					return interval{lo, hi, true, true}
				}
			}
		}
	case *Let:
		return boundsOf(e.Body, depth-1)
	}
	return interval{}
}
