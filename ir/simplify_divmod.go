package ir

// Div and Mod.

// mkDiv divides simplified operands.
func mkDiv(a, b Expr) Expr {
	return mkDivMod(Div, a, b, func(t Type, c int64) (Expr, bool) {
		switch {
		case c == 0:
			return IntConst(t, 0), true // x/0 is 0
		case c == 1:
			return a, true
		case c > 0 && algebraic(t):
			return divLinear(a, c), true
		case c < -1 && algebraic(t):
			// Euclidean division by a negative constant rounds up, so
			// the rewrites of divLinear do not hold; a numerator known
			// to lie within one multiple of c still divides to a
			// constant (the quotient is monotone).
			if bd := boundsOf(a, boundsDepth); bd.HasLo && bd.HasHi && EuclidDiv(bd.Lo, c) == EuclidDiv(bd.Hi, c) {
				return IntConst(t, EuclidDiv(bd.Lo, c)), true
			}
		}
		return nil, false
	})
}

// mkDivMod builds a op b (Div or Mod) of simplified operands: folded when
// both are constants, else byConst's answer for an integer divisor
// constant c of a's type t when it has one, else the plain node.
func mkDivMod(op BinOp, a, b Expr, byConst func(t Type, c int64) (Expr, bool)) Expr {
	if r, ok := foldBinary(op, a, b); ok {
		return r
	}
	t := a.Type()
	if c, ok := constInt(b); ok && t.IsIntOrUInt() {
		if r, ok := byConst(t, c); ok {
			return r
		}
	}
	return bin(op, a, b)
}

// divLinear simplifies a/c for c > 0, where Euclidean division is floor
// division (a negative divisor rounds up instead, and none of these rules
// apply to it; mkDiv leaves it alone). The numerator's form
// is split into c*Q + R, where Q holds the terms whose coefficients c
// divides, and the constant is split so that R's constant is in [0, c):
// floor((c*Q + R)/c) = Q + floor(R/c). A common factor g of R and c is
// cancelled too: floor(g*R'/(g*c')) = floor(R'/c').
func divLinear(a Expr, c int64) Expr {
	return withLinear(Div, a, c, func(t Type, l, r *linear) Expr {
		q := newLinear(t)
		defer q.release()
		for _, tm := range l.terms {
			if tm.k%c == 0 {
				q.addAtom(tm.x, tm.k/c)
			} else {
				r.addAtom(tm.x, tm.k)
			}
		}
		q.c = EuclidDiv(l.c, c)
		if len(r.terms) == 0 {
			return q.expr()
		}
		return divRemainder(q, r, c)
	})
}

// withLinear is the start of divLinear and modLinear, a op c for a
// constant c > 0: it takes a apart into its linear form l, and calls body
// with l and an empty linear form r, the remainder, of a's type t whose
// constant is already l's constant modulo c; both are released when body
// returns. When taking a apart wrapped a constant (x - (-2^63)), l is not
// a's value, and withLinear returns a op c as it is.
func withLinear(op BinOp, a Expr, c int64, body func(t Type, l, r *linear) Expr) Expr {
	t := a.Type()
	l := linearOf(a)
	defer l.release()
	if l.inexact {
		return bin(op, a, IntConst(t, c))
	}
	r := newLinear(t)
	defer r.release()
	r.c = EuclidMod(l.c, c)
	return body(t, l, r)
}

// divRemainder is q + r/c, divLinear's answer once the terms c divides are
// in q: a common factor of r and c is cancelled.
func divRemainder(q, r *linear, c int64) Expr {
	g := GCD(c, r.c)
	for _, tm := range r.terms {
		g = GCD(g, tm.k)
	}
	if g > 1 {
		for i := range r.terms {
			r.terms[i].k /= g
		}
		r.c /= g
		c /= g
	}
	q.addSimp(divAtom(r.expr(), c), 1)
	return q.expr()
}

// divAtom is num/c for c > 1 once the linear parts are taken out.
func divAtom(num Expr, c int64) Expr {
	t := num.Type()
	if v, ok := constInt(num); ok {
		return IntConst(t, EuclidDiv(v, c))
	}
	// A numerator known to lie within one multiple of c divides to a
	// constant: (x % 8)/8 is 0.
	if bd := boundsOf(num, boundsDepth); bd.HasLo && bd.HasHi && EuclidDiv(bd.Lo, c) == EuclidDiv(bd.Hi, c) {
		return IntConst(t, EuclidDiv(bd.Lo, c))
	}
	// (x/c1)/c2 is x/(c1*c2) for positive divisors.
	if d, ok := num.(*Binary); ok && d.Op == Div {
		if c1, ok := constInt(d.B); ok && c1 > 0 {
			if p, ok := mulChecked(c1, c); ok && p <= t.Max() {
				return divLinear(d.A, p) // d.A is smaller: this ends
			}
		}
	}
	// (x/c1 + k)/c2 is (x + k*c1)/(c1*c2) for positive divisors and a
	// constant k: floor(x/c1) + k = floor((x + k*c1)/c1) (in the
	// algebraic types, which do not overflow, as everywhere here). Nested
	// upsamples ((y + 1)/2 + 1)/2 become (y + 3)/4, which a window's
	// other end, (y + 1)/4 - 1, cancels against.
	if s, ok := num.(*Binary); ok && s.Op == Add {
		if k, ok := constInt(s.B); ok {
			if d, ok := s.A.(*Binary); ok && d.Op == Div {
				if c1, ok := constInt(d.B); ok && c1 > 0 {
					p, ok1 := mulChecked(c1, c)
					kc, ok2 := mulChecked(k, c1)
					if ok1 && ok2 && p <= t.Max() && kc >= t.Min() && kc <= t.Max() {
						return divLinear(bin(Add, d.A, IntConst(t, kc)), p) // d.A is smaller: this ends
					}
				}
			}
		}
	}
	return bin(Div, num, IntConst(t, c))
}

// mkMod takes the Euclidean modulo of simplified operands.
func mkMod(a, b Expr) Expr {
	return mkDivMod(Mod, a, b, func(t Type, c int64) (Expr, bool) {
		switch {
		case c == 0 || c == 1:
			return IntConst(t, 0), true // x%0 is 0, x%1 is 0
		case c > 0 && algebraic(t):
			return modLinear(a, c), true
		}
		return nil, false
	})
}

// modLinear simplifies a % c for c > 0: terms whose coefficients c divides
// vanish, larger coefficients are reduced (x*9 % 8 is x % 8), the constant
// is reduced into [0, c); a remainder already known to lie in [0, c) is the
// answer (so (x % 8) % 8 is x % 8), and (x % (c*k)) % c is x % c.
func modLinear(a Expr, c int64) Expr {
	return withLinear(Mod, a, c, func(t Type, l, r *linear) Expr {
		for _, tm := range l.terms {
			k := tm.k
			if k >= c || k <= -c {
				k %= c
			}
			r.addAtom(tm.x, k)
		}
		if len(r.terms) == 0 {
			return IntConst(t, r.c)
		}
		num := r.expr()
		if bd := boundsOf(num, boundsDepth); bd.HasLo && bd.HasHi && bd.Lo >= 0 && bd.Hi < c {
			return num
		}
		if m, ok := num.(*Binary); ok && m.Op == Mod {
			if c1, ok := constInt(m.B); ok && c1 > 0 && c1%c == 0 {
				return modLinear(m.A, c)
			}
		}
		return bin(Mod, num, IntConst(t, c))
	})
}

// GCD is the greatest common divisor of |a| and |b| (GCD(0, b) = |b|).
func GCD(a, b int64) int64 {
	if a < 0 {
		a = -a
	}
	if b < 0 {
		b = -b
	}
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
