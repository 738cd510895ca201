package bounds

import "github.com/gohalide/gohalide/ir"

// Monotonic is how an expression changes as a variable grows.
type Monotonic int

// The answers of IsMonotonic.
const (
	Unknown    Monotonic = iota
	Constant             // does not depend on the variable
	Increasing           // never decreases as the variable grows
	Decreasing           // never increases as the variable grows
)

// IsMonotonic says how the integer expression e changes as the variable v
// grows, from its structure (as Halide's is_monotonic): sums, differences,
// products and quotients by constants, mins, maxes, clamps and selects
// whose condition does not depend on v. Arithmetic is taken not to wrap,
// as elsewhere in the analysis of int32 indices. Unknown where it cannot
// tell.
func IsMonotonic(e ir.Expr, v string) Monotonic {
	if !ir.Uses(e, v) {
		return Constant
	}
	switch x := e.(type) {
	case *ir.Var:
		if x.Name == v {
			return Increasing
		}
		return Constant
	case *ir.Binary:
		a, b := IsMonotonic(x.A, v), IsMonotonic(x.B, v)
		switch x.Op {
		case ir.Add, ir.Min, ir.Max:
			return combine(a, b)
		case ir.Sub:
			return combine(a, flip(b))
		case ir.Mul:
			if s, ok := constSign(x.B); ok && b == Constant {
				return scale(a, s)
			}
			if s, ok := constSign(x.A); ok && a == Constant {
				return scale(b, s)
			}
		case ir.Div:
			// Euclidean division by a positive constant rounds down: it
			// keeps the order; by a negative one it reverses it.
			if s, ok := constSign(x.B); ok && b == Constant && s != 0 {
				return scale(a, s)
			}
		}
	case *ir.Select:
		if IsMonotonic(x.Cond, v) == Constant {
			return combine(IsMonotonic(x.True, v), IsMonotonic(x.False, v))
		}
	case *ir.Call:
		switch x.Name {
		case ir.IntrinsicLikely, ir.IntrinsicStrictFloat:
			if len(x.Args) == 1 {
				return IsMonotonic(x.Args[0], v)
			}
		case ir.IntrinsicPromiseClamped, ir.IntrinsicUnsafePromiseClamped:
			// clamp(x, lo, hi) with constant ends keeps x's order.
			if len(x.Args) == 3 && IsMonotonic(x.Args[1], v) == Constant && IsMonotonic(x.Args[2], v) == Constant {
				return IsMonotonic(x.Args[0], v)
			}
		}
	case *ir.Cast:
		// A widening integer cast keeps the order.
		if x.T.IsInt() && x.X.Type().IsInt() && x.T.Bits >= x.X.Type().Bits {
			return IsMonotonic(x.X, v)
		}
	}
	return Unknown
}

// combine is the direction of a sum (or min, max) of terms going a and b.
func combine(a, b Monotonic) Monotonic {
	switch {
	case a == Unknown || b == Unknown:
		return Unknown
	case a == Constant:
		return b
	case b == Constant || a == b:
		return a
	}
	return Unknown
}

func flip(m Monotonic) Monotonic {
	switch m {
	case Increasing:
		return Decreasing
	case Decreasing:
		return Increasing
	}
	return m
}

func scale(m Monotonic, sign int) Monotonic {
	switch {
	case sign == 0:
		return Constant
	case sign < 0:
		return flip(m)
	}
	return m
}
