package lower

// associativity_patterns: ProveReduction, the question rfactor asks of an
// update, for updates whose values are not each f(args)[i] op e_i with one
// of the AssocOps: Halide's table of associative patterns
// (AssociativeOpsTable.cpp), matched against the update's values the way
// Halide's prove_associativity matches them, without its simplifier. The
// update's reads of its own point become placeholders x_i (f's old value
// i); each pattern is an expression of the x_i and of wildcards y_i (value
// i of the other partial result), which bind to the parts of the update
// that do not read f. Recognized:
//
//   - each value on its own: an AssocOp (ProveAssociative); the value
//     itself, f(args)[i] (Halide's self-assignment, which any partial
//     result leaves as it is); an unsigned saturating add written with a
//     select, select(x < max - y, x + y, max) and its variants (~y for
//     max - y), or in a wider unsigned type, cast(t, min(wide(x) +
//     wide(y), max)) (saturating_add, saturating_cast(widening_add)); a float
//     max or min that keeps a NaN, select(x > y || is_nan(x), x, y);
//   - a key value k reduced with min or max (or a select written as one)
//     and index values j that follow it: select(x_k < y_k, x_j, y_j) and
//     the other comparisons (argmin, argmax, with any number of index
//     values);
//   - two values multiplied as complex numbers:
//     (x0*y0 - x1*y1, x1*y0 + x0*y1).
//
// Comparisons are matched after a > b is read as b < a and a >= b as
// b <= a, and the operands of +, *, min, max, ==, !=, && and || and of
// the bitwise and, or and xor in either order.
//
// argmin and argmax are associative but not commutative: of two equal
// keys, the comparison picks the first or the last, so combining partial
// results in another order picks another index. Halide calls them
// commutative; we do not (Reduction.Commutative is false), so rfactor
// keeps the order of the RVars it factors (the pieces f keeps must be the
// outermost RVar loops) and RVar loops may not be reordered: the index
// found is the one the serial update finds. The identity of an argmin's
// partial result is the key type's largest value with index 0 (argmax:
// the smallest). Where ties take the new index it is an exact identity;
// where ties keep the old one, a part whose keys all equal that value
// keeps index 0, but such a part never changes the merge (its key ties or
// loses against f's), as its elements never win serially either. Like
// Halide's, the proofs read float comparisons as if no value were NaN.

import (
	"strconv"
	"strings"

	"github.com/gohalide/gohalide/ir"
)

// Reduction is an update recognized as associative: each value i of the
// update is Templates[i] with x_j replaced by f's old value j and y_j by
// Ys[j], and combining two partial results a and b is Templates with x_j
// replaced by a's value j and y_j by b's (Apply).
type Reduction struct {
	// Templates are the values as expressions of the placeholders X(j)
	// and Y(j).
	Templates []ir.Expr
	// Ys[j] is the update's value j as the second operand: what Y(j)
	// stands for in the update (nil where no template reads Y(j)). No Y
	// reads f.
	Ys []ir.Expr
	// Identity[j] is value j of a partial result that combines with any
	// other, b, to give b: the initial value of an rfactor intermediate.
	Identity []ir.Expr
	// Commutative reports whether partial results may also be combined in
	// another order (not so for argmin and argmax: see the file comment).
	Commutative bool
	// Kind names the operator, for messages: "+", "argmin", "complex *".
	Kind string
}

const (
	placeX = "assoc$x"
	placeY = "assoc$y"
)

// X and Y are the placeholders of templates for value i, of type t.
func X(i int, t ir.Type) *ir.Var { return &ir.Var{T: t, Name: placeX + strconv.Itoa(i)} }
func Y(i int, t ir.Type) *ir.Var { return &ir.Var{T: t, Name: placeY + strconv.Itoa(i)} }

// Apply returns the values of r combining xs (the first operand's values)
// with ys (the second's; an entry may be nil where no template reads it).
func (r Reduction) Apply(xs, ys []ir.Expr) []ir.Expr {
	m := map[string]ir.Expr{}
	for i := range r.Templates {
		m[placeX+strconv.Itoa(i)] = xs[i]
		if i < len(ys) && ys[i] != nil {
			m[placeY+strconv.Itoa(i)] = ys[i]
		}
	}
	out := make([]ir.Expr, len(r.Templates))
	for i, t := range r.Templates {
		out[i] = ir.Substitute(t, m)
	}
	return out
}

// ProveReduction reports whether value, the value of an update of the
// Func f (a Tuple Func's as an ir.MakeTuple) at args, is an associative
// reduction of f's values and returns it. types are f's value types.
func ProveReduction(f string, args []ir.Expr, value ir.Expr, types []ir.Type) (Reduction, bool) {
	vals := ir.TupleValues(value)
	if len(vals) == 0 || len(vals) != len(types) {
		return Reduction{}, false
	}
	n := len(vals)
	r := Reduction{Templates: make([]ir.Expr, n), Ys: make([]ir.Expr, n), Identity: make([]ir.Expr, n), Commutative: true}
	// Each value reduced on its own by an AssocOp.
	var kinds []string
	for i, v := range vals {
		a, ok := proveAssociative(f, args, v, i)
		if !ok {
			kinds = nil
			break
		}
		r.Templates[i] = a.Op.Make(X(i, types[i]), Y(i, types[i]))
		r.Ys[i], r.Identity[i] = a.Y, a.Op.Identity(types[i])
		kinds = append(kinds, a.Op.String())
	}
	if kinds != nil {
		r.Kind = strings.Join(kinds, ", ")
		return r, true
	}

	// The values with f's own reads replaced by placeholders.
	tmpl := make([]ir.Expr, n)
	deps := make([]map[int]bool, n)
	for i, v := range vals {
		t, ok := placeSelf(f, args, v, types)
		if !ok {
			return Reduction{}, false
		}
		tmpl[i] = canonical(t)
		deps[i] = map[int]bool{}
		ir.WalkExpr(tmpl[i], func(e ir.Expr) bool {
			if v, ok := e.(*ir.Var); ok && strings.HasPrefix(v.Name, placeX) {
				j, _ := strconv.Atoi(v.Name[len(placeX):])
				deps[i][j] = true
			}
			return true
		})
		if len(deps[i]) == 0 {
			return Reduction{}, false // the value replaces f's: not a reduction
		}
	}
	m := &patternMatch{bind: map[string]ir.Expr{}, types: types, isMax: map[int]bool{}}
	done := make([]bool, n)
	set := func(i int, pattern ir.Expr, id ir.Expr, kind string) {
		r.Templates[i], r.Identity[i], done[i] = pattern, id, true
		kinds = append(kinds, kind)
	}

	// Complex multiplication: two values of one type, each reading both.
	if n == 2 && types[0] == types[1] && len(deps[0]) == 2 && len(deps[1]) == 2 {
		t := types[0]
		x0, x1, y0, y1 := X(0, t), X(1, t), Y(0, t), Y(1, t)
		re := ir.SubE(ir.MulE(x0, y0), ir.MulE(x1, y1))
		im := ir.AddE(ir.MulE(x1, y0), ir.MulE(x0, y1))
		if m.try(re, tmpl[0]) && m.try(im, tmpl[1]) {
			set(0, re, ir.Const(t, 1), "complex *")
			set(1, im, ir.Const(t, 0), "")
		}
	}

	// Keys of argmin and argmax and the index values that follow them.
	for j := 0; j < n; j++ {
		if done[j] || len(deps[j]) != 2 || !deps[j][j] {
			continue
		}
		k := -1
		for d := range deps[j] {
			if d != j {
				k = d
			}
		}
		if len(deps[k]) != 1 || !deps[k][k] {
			return Reduction{}, false
		}
		if !done[k] && !m.key(k, tmpl[k], set) {
			return Reduction{}, false
		}
		if !m.index(k, j, tmpl[j], set) {
			return Reduction{}, false
		}
		r.Commutative = false
	}

	// The values left reduce on their own.
	for i := 0; i < n; i++ {
		if done[i] {
			continue
		}
		if len(deps[i]) != 1 || !deps[i][i] {
			return Reduction{}, false
		}
		if a, ok := proveAssociative(f, args, vals[i], i); ok {
			set(i, a.Op.Make(X(i, types[i]), Y(i, types[i])), a.Op.Identity(types[i]), a.Op.String())
			m.bind[placeY+strconv.Itoa(i)] = a.Y
			continue
		}
		if !m.single(i, tmpl[i], set) {
			return Reduction{}, false
		}
	}
	for i := range r.Ys {
		r.Ys[i] = m.bind[placeY+strconv.Itoa(i)]
	}
	var named []string
	for _, k := range kinds {
		if k != "" {
			named = append(named, k)
		}
	}
	r.Kind = strings.Join(named, ", ")
	return r, true
}

// placeSelf returns v with each read of f at exactly args replaced by the
// placeholder X of its value; false if v reads f anywhere else.
func placeSelf(f string, args []ir.Expr, v ir.Expr, types []ir.Type) (ir.Expr, bool) {
	ok := true
	var sub func(e ir.Expr) ir.Expr
	sub = func(e ir.Expr) ir.Expr {
		if c, isCall := e.(*ir.Call); isCall && c.Kind == ir.CallFunc && c.Name == f {
			if c.Index >= 0 && c.Index < len(types) && isSelfCall(f, args, c.Index, c) {
				return X(c.Index, types[c.Index])
			}
			ok = false
			return e
		}
		return ir.MapExpr(e, sub)
	}
	out := sub(v)
	return out, ok
}

// canonical reads a > b as b < a, a >= b as b <= a, and select(!c, a, b)
// as select(c, b, a), throughout e.
func canonical(e ir.Expr) ir.Expr {
	var sub func(e ir.Expr) ir.Expr
	sub = func(e ir.Expr) ir.Expr {
		e = ir.MapExpr(e, sub)
		switch x := e.(type) {
		case *ir.Binary:
			switch x.Op {
			case ir.GT:
				return ir.Bin(ir.LT, x.B, x.A)
			case ir.GE:
				return ir.Bin(ir.LE, x.B, x.A)
			}
		case *ir.Select:
			if n, ok := x.Cond.(*ir.Not); ok {
				return &ir.Select{Cond: n.X, True: x.False, False: x.True}
			}
		}
		return e
	}
	return sub(e)
}

// patternMatch matches templates against patterns, binding the Y
// wildcards consistently across the values of one update.
type patternMatch struct {
	bind  map[string]ir.Expr
	types []ir.Type
	isMax map[int]bool // the direction of each argmin or argmax key
}

// try reports whether e matches pattern p with the bindings so far,
// keeping the new bindings only if it does.
func (m *patternMatch) try(p, e ir.Expr) bool {
	saved := make(map[string]ir.Expr, len(m.bind))
	for k, v := range m.bind {
		saved[k] = v
	}
	if m.match(p, e) {
		return true
	}
	m.bind = saved
	return false
}

var commutativeOps = map[ir.BinOp]bool{ir.Add: true, ir.Mul: true, ir.Min: true, ir.Max: true, ir.EQ: true, ir.NE: true, ir.And: true, ir.Or: true}

func (m *patternMatch) match(p, e ir.Expr) bool {
	switch p := p.(type) {
	case *ir.Var:
		if strings.HasPrefix(p.Name, placeY) {
			if b, ok := m.bind[p.Name]; ok {
				return ir.Equal(b, e)
			}
			if e.Type() != p.T || ir.UsesAny(e, func(n string) bool { return strings.HasPrefix(n, placeX) }) {
				return false
			}
			m.bind[p.Name] = e
			return true
		}
		v, ok := e.(*ir.Var)
		return ok && v.Name == p.Name
	case *ir.Binary:
		b, ok := e.(*ir.Binary)
		if !ok || b.Op != p.Op {
			return false
		}
		if m.try2(p.A, p.B, b.A, b.B) {
			return true
		}
		return commutativeOps[p.Op] && m.try2(p.A, p.B, b.B, b.A)
	case *ir.Select:
		s, ok := e.(*ir.Select)
		return ok && m.match(p.Cond, s.Cond) && m.match(p.True, s.True) && m.match(p.False, s.False)
	case *ir.Not:
		n, ok := e.(*ir.Not)
		return ok && m.match(p.X, n.X)
	case *ir.Cast:
		c, ok := e.(*ir.Cast)
		return ok && c.T == p.T && m.match(p.X, c.X)
	case *ir.Call:
		c, ok := e.(*ir.Call)
		if !ok || c.Kind != p.Kind || c.Name != p.Name || len(c.Args) != len(p.Args) {
			return false
		}
		if len(p.Args) == 2 {
			if m.try2(p.Args[0], p.Args[1], c.Args[0], c.Args[1]) {
				return true
			}
			return (p.Name == ir.IntrinsicBitAnd || p.Name == ir.IntrinsicBitOr || p.Name == ir.IntrinsicBitXor) &&
				m.try2(p.Args[0], p.Args[1], c.Args[1], c.Args[0])
		}
		for i := range p.Args {
			if !m.match(p.Args[i], c.Args[i]) {
				return false
			}
		}
		return true
	}
	return ir.Equal(p, e)
}

// try2 matches two pattern operands against two expressions, atomically.
func (m *patternMatch) try2(pa, pb, a, b ir.Expr) bool {
	saved := make(map[string]ir.Expr, len(m.bind))
	for k, v := range m.bind {
		saved[k] = v
	}
	if m.match(pa, a) && m.match(pb, b) {
		return true
	}
	m.bind = saved
	return false
}

// keyPatterns are the forms of an argmin's (min) or argmax's (max) key:
// min or max, or a select that picks the smaller or the larger.
func keyPatterns(x, y ir.Expr, isMax bool) []ir.Expr {
	lt, le := ir.LTE, ir.LEE
	if isMax {
		return []ir.Expr{ir.MaxE(x, y),
			&ir.Select{Cond: lt(x, y), True: y, False: x}, &ir.Select{Cond: le(x, y), True: y, False: x},
			&ir.Select{Cond: lt(y, x), True: x, False: y}, &ir.Select{Cond: le(y, x), True: x, False: y}}
	}
	return []ir.Expr{ir.MinE(x, y),
		&ir.Select{Cond: lt(x, y), True: x, False: y}, &ir.Select{Cond: le(x, y), True: x, False: y},
		&ir.Select{Cond: lt(y, x), True: y, False: x}, &ir.Select{Cond: le(y, x), True: y, False: x}}
}

// key matches value k as an argmin's or argmax's key, recording which in
// m.isMax so that its index values follow the same direction.
func (m *patternMatch) key(k int, e ir.Expr, set func(int, ir.Expr, ir.Expr, string)) bool {
	t := m.types[k]
	x, y := X(k, t), Y(k, t)
	for _, isMax := range []bool{false, true} {
		for _, p := range keyPatterns(x, y, isMax) {
			if m.try(p, e) {
				op, kind := AssocMin, "argmin"
				if isMax {
					op, kind = AssocMax, "argmax"
				}
				set(k, p, op.Identity(t), kind)
				m.isMax[k] = isMax
				return true
			}
		}
	}
	return false
}

// index matches value j as an index that follows key k: it takes the
// other operand's value j where the other's key wins (is smaller for
// argmin, larger for argmax; on a tie, as the comparison says).
func (m *patternMatch) index(k, j int, e ir.Expr, set func(int, ir.Expr, ir.Expr, string)) bool {
	isMax := m.isMax[k]
	tk, tj := m.types[k], m.types[j]
	xk, yk, xj, yj := X(k, tk), Y(k, tk), X(j, tj), Y(j, tj)
	// For argmin, x keeps its index where x_k < y_k (or <=); for argmax
	// where y_k < x_k (or <=).
	a, b := xk, yk
	if isMax {
		a, b = yk, xk
	}
	for _, p := range []ir.Expr{
		&ir.Select{Cond: ir.LTE(a, b), True: xj, False: yj}, &ir.Select{Cond: ir.LEE(a, b), True: xj, False: yj},
		&ir.Select{Cond: ir.LTE(b, a), True: yj, False: xj}, &ir.Select{Cond: ir.LEE(b, a), True: yj, False: xj},
	} {
		if m.try(p, e) {
			set(j, p, ir.Const(tj, 0), "")
			return true
		}
	}
	return false
}

// single matches value i, which reads only its own old value, against the
// patterns of one value that are not AssocOps.
func (m *patternMatch) single(i int, e ir.Expr, set func(int, ir.Expr, ir.Expr, string)) bool {
	t := m.types[i]
	x, y := X(i, t), Y(i, t)
	if v, ok := e.(*ir.Var); ok && v.Name == x.Name {
		set(i, x, ir.Const(t, 0), "self")
		return true
	}
	if t.IsUInt() {
		top := ir.IntConst(t, -1) // every bit set: the largest value
		if t.Bits < 64 {
			top = ir.IntConst(t, int64(1)<<t.Bits-1)
		}
		sum := ir.AddE(x, y)
		var pats []ir.Expr
		// The room left above x: max - y, or ~y (the same for unsigned).
		for _, room := range []ir.Expr{ir.SubE(top, y), &ir.Call{T: t, Kind: ir.CallIntrinsic, Name: ir.IntrinsicBitNot, Args: []ir.Expr{y}}} {
			pats = append(pats,
				&ir.Select{Cond: ir.LTE(x, room), True: sum, False: top},
				&ir.Select{Cond: ir.LEE(x, room), True: sum, False: top},
				&ir.Select{Cond: ir.LTE(room, x), True: top, False: sum},
				&ir.Select{Cond: ir.LEE(room, x), True: top, False: sum})
		}
		// The add in a wider unsigned type, clamped to max and cast back
		// (saturating_add, saturating_cast(widening_add(x, y))).
		for w := 2 * t.Bits; w <= 64; w *= 2 {
			wt := ir.Type{Code: t.Code, Bits: w}
			wsum := ir.AddE(&ir.Cast{T: wt, X: x}, &ir.Cast{T: wt, X: y})
			pats = append(pats, &ir.Cast{T: t, X: ir.MinE(wsum, ir.IntConst(wt, int64(1)<<t.Bits-1))})
		}
		for _, p := range pats {
			if m.try(p, e) {
				set(i, p, ir.IntConst(t, 0), "saturating +")
				return true
			}
		}
	}
	if t.IsFloat() {
		nan := &ir.Call{T: ir.Bool, Kind: ir.CallIntrinsic, Name: ir.IntrinsicIsNaN, Args: []ir.Expr{x}}
		for _, isMax := range []bool{true, false} {
			a, b := y, x // max: y < x keeps x
			op, kind := AssocMax, "max keeping NaN"
			if !isMax {
				a, b, op, kind = x, y, AssocMin, "min keeping NaN"
			}
			for _, cmp := range []ir.BinOp{ir.LT, ir.LE} {
				c := ir.Bin(cmp, a, b)
				for _, cond := range []ir.Expr{ir.Bin(ir.Or, c, nan), ir.Bitwise(ir.IntrinsicBitOr, c, nan)} {
					p := &ir.Select{Cond: cond, True: x, False: y}
					if m.try(p, e) {
						set(i, p, op.Identity(t), kind)
						return true
					}
				}
			}
		}
	}
	return false
}
