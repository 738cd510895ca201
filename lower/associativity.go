package lower

// associativity: whether an update's value is f(args) op e for an
// associative and commutative op and an e that does not read f, the
// question both rfactor (halide/rfactor.go) and the RVar order rule
// (rvar_order.go, reassociable) ask. It is Halide's prove_associativity
// (Associativity.cpp) for single-valued Funcs, without its solver (its
// table of other patterns, argmin and the rest, is in
// associativity_patterns.go): the
// operands of a tree of one op are gathered (so f + a + b, a + f and
// max(a, max(f, b)) are all f op e), and a subtraction counts as the
// addition of the negated operand (f - e is f + (0 - e), which Halide
// does not prove).

import (
	"math"

	"github.com/gohalide/gohalide/ir"
)

// AssocOp is an associative and commutative operator an update may
// reduce with.
type AssocOp uint8

// The operators ProveAssociative recognizes.
const (
	AssocAdd    AssocOp = iota + 1 // a + b (and a - b, as a + (0 - b))
	AssocMul                       // a * b
	AssocMin                       // min(a, b)
	AssocMax                       // max(a, b)
	AssocAnd                       // a && b, on bools
	AssocOr                        // a || b, on bools
	AssocXor                       // a != b, on bools (BitXor of bools)
	AssocBitAnd                    // BitAnd of integers
	AssocBitOr                     // BitOr of integers
	AssocBitXor                    // BitXor of integers
)

var assocNames = [...]string{"", "+", "*", "min", "max", "&&", "||", "xor", "BitAnd", "BitOr", "BitXor"}

func (op AssocOp) String() string {
	if int(op) < len(assocNames) {
		return assocNames[op]
	}
	return "AssocOp(?)"
}

// Associative is an update value recognized as f(args) op Y.
type Associative struct {
	Op AssocOp
	// Y is what the update combines with f's value; it does not read f.
	Y ir.Expr
}

// assocBinary is the binary operator of each AssocOp that is one;
// assocIntrinsic the bitwise intrinsic of each other.
var (
	assocBinary    = map[AssocOp]ir.BinOp{AssocAdd: ir.Add, AssocMul: ir.Mul, AssocMin: ir.Min, AssocMax: ir.Max, AssocAnd: ir.And, AssocOr: ir.Or, AssocXor: ir.NE}
	assocIntrinsic = map[AssocOp]string{AssocBitAnd: ir.IntrinsicBitAnd, AssocBitOr: ir.IntrinsicBitOr, AssocBitXor: ir.IntrinsicBitXor}
)

// Make returns a op b.
func (op AssocOp) Make(a, b ir.Expr) ir.Expr {
	if bin, ok := assocBinary[op]; ok {
		return ir.Bin(bin, a, b)
	}
	if name, ok := assocIntrinsic[op]; ok {
		return ir.Bitwise(name, a, b)
	}
	return ir.Bitwise(ir.IntrinsicBitXor, a, b)
}

// Identity returns the identity of op for values of type t: 0 for +, 1
// for *, t's largest value (+inf for floats) for min, its smallest (-inf)
// for max, true for &&, false for || and xor, all ones for BitAnd, and 0
// for BitOr and BitXor.
func (op AssocOp) Identity(t ir.Type) ir.Expr {
	switch op {
	case AssocAdd, AssocBitOr, AssocBitXor:
		return ir.IntConst(t, 0)
	case AssocMul:
		return ir.IntConst(t, 1)
	case AssocMin:
		switch {
		case t.IsFloat():
			return ir.Const(t, math.Inf(1))
		case t.IsUInt() && t.Bits == 64:
			return ir.IntConst(t, -1)
		}
		return ir.IntConst(t, t.Max())
	case AssocMax:
		if t.IsFloat() {
			return ir.Const(t, math.Inf(-1))
		}
		return ir.IntConst(t, t.Min())
	case AssocAnd:
		return ir.True
	case AssocOr, AssocXor:
		return ir.False
	}
	return ir.IntConst(t, -1) // AssocBitAnd: every bit set
}

// assocOpOf returns the operator at the top of e, if it is one.
func assocOpOf(e ir.Expr) (AssocOp, bool) {
	switch e := e.(type) {
	case *ir.Binary:
		if e.Op == ir.Sub {
			return AssocAdd, true // a - b is a + (0 - b)
		}
		for op, bin := range assocBinary {
			if bin == e.Op {
				return op, op != AssocXor || e.A.Type().IsBool()
			}
		}
	case *ir.Call:
		if e.Kind != ir.CallIntrinsic || len(e.Args) != 2 {
			return 0, false
		}
		for op, name := range assocIntrinsic {
			if name == e.Name {
				return op, true
			}
		}
	}
	return 0, false
}

// term is one operand of a tree of one operator; neg marks an operand
// subtracted in a tree of + and -.
type term struct {
	e   ir.Expr
	neg bool
}

// gather appends the operands of the tree of op at e to ts.
func gather(op AssocOp, e ir.Expr, neg bool, ts []term) []term {
	if o, ok := assocOpOf(e); ok && o == op {
		switch e := e.(type) {
		case *ir.Binary:
			ts = gather(op, e.A, neg, ts)
			return gather(op, e.B, neg != (e.Op == ir.Sub), ts)
		case *ir.Call:
			ts = gather(op, e.Args[0], neg, ts)
			return gather(op, e.Args[1], neg, ts)
		}
	}
	return append(ts, term{e, neg})
}

// ProveAssociative reports whether value, the value of an update of the
// Func f at args, is f(args) op Y for an associative and commutative op
// and a Y that does not read f, and returns op and Y. f must appear once
// among the operands of the op's tree, at exactly the update's args, and
// not subtracted.
func ProveAssociative(f string, args []ir.Expr, value ir.Expr) (Associative, bool) {
	return proveAssociative(f, args, value, 0)
}

// proveAssociative is ProveAssociative with f(args) the value index of f.
func proveAssociative(f string, args []ir.Expr, value ir.Expr, index int) (Associative, bool) {
	op, ok := assocOpOf(value)
	if !ok {
		return Associative{}, false
	}
	self := -1
	ts := gather(op, value, false, nil)
	for i, t := range ts {
		if isSelfCall(f, args, index, t.e) && !t.neg && self < 0 {
			self = i
			continue
		}
		if readsFunc(t.e, f) {
			return Associative{}, false
		}
	}
	if self < 0 {
		return Associative{}, false
	}
	var y ir.Expr
	for i, t := range ts {
		switch {
		case i == self:
		case y == nil && t.neg:
			y = ir.Bin(ir.Sub, ir.IntConst(t.e.Type(), 0), t.e)
		case y == nil:
			y = t.e
		case t.neg:
			y = ir.Bin(ir.Sub, y, t.e)
		default:
			y = op.Make(y, t.e)
		}
	}
	return Associative{Op: op, Y: y}, true
}

// isSelfCall reports whether e is a call to value index of f at exactly
// args.
func isSelfCall(f string, args []ir.Expr, index int, e ir.Expr) bool {
	c, ok := e.(*ir.Call)
	if !ok || c.Kind != ir.CallFunc || c.Name != f || c.Index != index || len(c.Args) != len(args) {
		return false
	}
	for i := range c.Args {
		if !ir.Equal(c.Args[i], args[i]) {
			return false
		}
	}
	return true
}
