package ir

import (
	"fmt"
	"strings"

	"github.com/gohalide/gohalide/half"
)

// Expr is a scalar expression. Nodes are immutable plain structs; build them
// with the constructors below, which check operand types where it is cheap.
type Expr interface {
	Type() Type
	isExpr()
}

// IntImm is an integer or boolean constant. Unsigned values are stored in V
// by bit pattern truncated to the type's width.
type IntImm struct {
	T Type
	V int64
}

// FloatImm is a floating-point constant.
type FloatImm struct {
	T Type
	V float64
}

// Var is a reference to a named scalar: a loop variable, a let binding, a
// Param, or a buffer's min/extent/stride.
type Var struct {
	T    Type
	Name string
	// RDom is the reduction domain of a reduction variable as the user API
	// builds it; nil for other variables. Lowering does not use it.
	RDom *ReductionDomain
	// Param is the user-level object (a scalar Param or an input buffer)
	// whose value this variable names; nil for other variables.
	Param any
}

// Cast converts X to type T (truncating toward zero for float to int).
type Cast struct {
	T Type
	X Expr
}

// BinOp is the operator of a Binary node.
type BinOp uint8

// The binary operators. Div and Mod on integers are Euclidean, as in Halide:
// the remainder is never negative (x % 8 is in [0, 8), 7 % -3 is 1, -7 / 2
// is -4, 7 / -2 is -3), and division or modulo by zero yields zero; see
// EuclidDiv. On floats Div is IEEE division and Mod is a - b*floor(a/b).
const (
	Add BinOp = iota
	Sub
	Mul
	Div
	Mod
	Min
	Max
	EQ
	NE
	LT
	LE
	GT
	GE
	And
	Or
)

var binOpNames = [...]string{"+", "-", "*", "/", "%", "min", "max", "==", "!=", "<", "<=", ">", ">=", "&&", "||"}

func (op BinOp) String() string { return binOpNames[op] }

// IsComparison reports whether op yields a bool from two operands of another type.
func (op BinOp) IsComparison() bool { return op >= EQ && op <= GE }

// Swapped returns the comparison op2 with b op2 a equal to a op b (op itself
// for EQ, NE and the operators that are not comparisons).
func (op BinOp) Swapped() BinOp {
	if op.IsComparison() {
		return [...]BinOp{EQ: EQ, NE: NE, LT: GT, LE: GE, GT: LT, GE: LE}[op]
	}
	return op
}

// Negated returns the comparison that holds exactly where the comparison op
// does not, for ordered operands (not NaN).
func (op BinOp) Negated() BinOp {
	return [...]BinOp{EQ: NE, NE: EQ, LT: GE, LE: GT, GT: LE, GE: LT}[op]
}

// Holds reports whether a op b holds for the comparison op, given whether
// a < b and whether a == b (ordered operands: not NaN).
func (op BinOp) Holds(lt, eq bool) bool {
	switch op {
	case EQ:
		return eq
	case NE:
		return !eq
	case LT:
		return lt
	case LE:
		return lt || eq
	case GT:
		return !lt && !eq
	case GE:
		return !lt
	}
	return false
}

// Binary applies Op to A and B, which have the same type.
//
// Build one with Bin (or the shorthands AddE ... AndE): they record the
// result type, so that Type is O(1) on the deep min/max and sum chains that
// bounds inference builds. A Binary written as a literal has no record and
// computes its type from A, which walks A's left spine.
type Binary struct {
	Op   BinOp
	A, B Expr
	t    Type // the result type, set by bin; zero when the node was written as a literal
}

// Not is logical negation of a bool.
type Not struct{ X Expr }

// Select is Cond ? True : False, with both arms evaluated lazily.
type Select struct {
	Cond, True, False Expr
}

// CallKind says what a Call refers to.
type CallKind uint8

// The call kinds.
const (
	// CallFunc is a call to a Func (before storage flattening).
	CallFunc CallKind = iota
	// CallImage is a read of an input buffer (before storage flattening).
	CallImage
	// CallIntrinsic is a math function or a compiler marker.
	CallIntrinsic
)

// Intrinsic names used in CallIntrinsic nodes.
const (
	IntrinsicAbs   = "abs"
	IntrinsicSqrt  = "sqrt"
	IntrinsicExp   = "exp"
	IntrinsicLog   = "log"
	IntrinsicPow   = "pow"
	IntrinsicFloor = "floor"
	IntrinsicCeil  = "ceil"
	IntrinsicRound = "round"
	// IntrinsicPromiseClamped(x, min, max) is clamp(x, min, max) that bounds
	// inference may treat as lying in [min, max]. Evaluated, it clamps.
	IntrinsicPromiseClamped = "promise_clamped"
	// IntrinsicUnsafePromiseClamped(x, min, max) is x; the user promises that
	// it lies in [min, max], and bounds inference trusts the promise.
	IntrinsicUnsafePromiseClamped = "unsafe_promise_clamped"
	// IntrinsicLikely(x) is x, marking the branch of a tail guard.
	IntrinsicLikely = "likely"
	// IntrinsicStrictFloat(x) is x, computed with every float operation
	// rounded on its own (Halide's strict_float): no executor contracts
	// a multiply and an add into an FMA there. The CPU executor never
	// does; the CUDA printer prints a kernel that holds one without
	// contraction (cfamily).
	IntrinsicStrictFloat = "strict_float"
	// IntrinsicMaxOver(v, min, extent, e) is the largest value of the
	// integer expression e for the variable v in [min, min + extent), or 0
	// when the range is empty. v (the first argument, a Var) is bound in e
	// only and has a name of its own. Lowering uses it for a size that is
	// known only at launch: the largest per-block footprint over the
	// blocks of a kernel. It is evaluated on the host (a loop), never in a
	// kernel.
	IntrinsicMaxOver = "max_over"
	// IntrinsicUndef() is Halide's undef: no value. It is legal only as
	// the whole value of a pure definition (the Func's values are left as
	// they are until its updates write them) and, in the front end, as an
	// update's whole value or an arm of its top-level selects (which become
	// the update's predicate); no executor evaluates it.
	IntrinsicUndef = "undef"
	// IntrinsicTuple(v0, v1, ...) is the value of a definition of a Tuple
	// Func (Function.Types): every value, computed before any is stored.
	// Its type is v0's. Only a Definition's Value and a Provide's Value
	// hold one; storage_flattening stores each value to its own buffer.
	IntrinsicTuple = "tuple"
)

// IsUndef reports whether e is the undef intrinsic.
func IsUndef(e Expr) bool {
	c, ok := e.(*Call)
	return ok && c.Kind == CallIntrinsic && c.Name == IntrinsicUndef
}

// intrinsicArgs is the number of arguments of each intrinsic but the
// trace stores (which take a value and its coordinates).
var intrinsicArgs = map[string]int{
	IntrinsicAbs: 1, IntrinsicSqrt: 1, IntrinsicExp: 1, IntrinsicLog: 1,
	IntrinsicPow: 2, IntrinsicFloor: 1, IntrinsicCeil: 1, IntrinsicRound: 1,
	IntrinsicPromiseClamped: 3, IntrinsicUnsafePromiseClamped: 3, IntrinsicLikely: 1, IntrinsicStrictFloat: 1,
	IntrinsicMaxOver: 4,
	IntrinsicBitAnd:  2, IntrinsicBitOr: 2, IntrinsicBitXor: 2, IntrinsicBitNot: 1,
	IntrinsicShiftLeft: 2, IntrinsicShiftRight: 2,
	IntrinsicSin: 1, IntrinsicCos: 1, IntrinsicTan: 1, IntrinsicAsin: 1, IntrinsicAcos: 1, IntrinsicAtan: 1,
	IntrinsicSinh: 1, IntrinsicCosh: 1, IntrinsicTanh: 1, IntrinsicAtan2: 2,
	IntrinsicAsinh: 1, IntrinsicAcosh: 1, IntrinsicAtanh: 1, IntrinsicTrunc: 1,
	IntrinsicIsNaN: 1, IntrinsicIsInf: 1, IntrinsicIsFinite: 1,
	IntrinsicPopcount: 1, IntrinsicCountLeadingZeros: 1, IntrinsicCountTrailingZeros: 1,
	IntrinsicReinterpret: 1,
	IntrinsicShuffleDown: 2,
}

// CheckLoweredCall returns why an executor cannot evaluate the call e of a
// lowered statement: a call to a Func or an image (not lowered), an unknown
// intrinsic, a wrong number of arguments; "" when it can. Trace stores are
// the caller's to recognize first.
func CheckLoweredCall(e *Call) string {
	switch e.Kind {
	case CallFunc:
		return "statement is not lowered: found call to Func " + e.Name
	case CallImage:
		return "statement is not lowered: found call to image " + e.Name
	case CallIntrinsic:
	default:
		return fmt.Sprintf("unsupported call kind %d of %s", e.Kind, e.Name)
	}
	n, ok := intrinsicArgs[e.Name]
	if !ok {
		return "unknown intrinsic " + e.Name
	}
	if len(e.Args) != n {
		return fmt.Sprintf("intrinsic %s takes %d arguments, got %d", e.Name, n, len(e.Args))
	}
	return ""
}

// MaxOver builds IntrinsicMaxOver: the largest value of e for v in
// [min, min + extent).
func MaxOver(v *Var, min, extent, e Expr) Expr {
	return &Call{T: e.Type(), Kind: CallIntrinsic, Name: IntrinsicMaxOver, Args: []Expr{v, min, extent, e}}
}

// TraceStore builds the intrinsic call that reports a store of value to
// Func f at coords to the trace hook (Func.TraceStores): an Evaluate of it
// follows each Store to f. It has an effect, so it is never simplified
// away; its value is 0. The Func's name is part of the intrinsic's name
// (IntrinsicTraceStore + f), so that no pass takes it for a read of f.
func TraceStore(f string, value Expr, coords []Expr) *Call {
	return &Call{T: Int32, Kind: CallIntrinsic, Name: IntrinsicTraceStore + f, Args: append([]Expr{value}, coords...)}
}

// IntrinsicTraceStore is the prefix of the name of a TraceStore call.
const IntrinsicTraceStore = "trace_store:"

// IsTraceStore reports whether e is a TraceStore call, and of which Func.
func IsTraceStore(e Expr) (f string, c *Call, ok bool) {
	c, ok = e.(*Call)
	if !ok || c.Kind != CallIntrinsic || !strings.HasPrefix(c.Name, IntrinsicTraceStore) || len(c.Args) == 0 {
		return "", nil, false
	}
	return strings.TrimPrefix(c.Name, IntrinsicTraceStore), c, true
}

// IsMaxOver reports whether e is an IntrinsicMaxOver call (well formed).
func IsMaxOver(e Expr) (*Call, bool) {
	c, ok := e.(*Call)
	if !ok || c.Kind != CallIntrinsic || c.Name != IntrinsicMaxOver || len(c.Args) != 4 {
		return nil, false
	}
	if _, ok := c.Args[0].(*Var); !ok {
		return nil, false
	}
	return c, true
}

// Call is a call to a Func, a read of an input image, or an intrinsic.
type Call struct {
	T    Type
	Kind CallKind
	Name string
	Args []Expr
	// Index is the value a CallFunc of a Tuple Func reads (Func f with
	// Values f(x)[Index]); 0 for a Func of one value.
	Index int
	// Ref is the user-level object behind a CallImage (an input buffer or
	// image parameter); lowering does not use it.
	Ref any
}

// Load reads element Index of the flat buffer Buf.
type Load struct {
	T     Type
	Buf   string
	Index Expr
}

// Let binds Name to Value within Body.
type Let struct {
	Name        string
	Value, Body Expr
}

func (e *IntImm) Type() Type   { return e.T }
func (e *FloatImm) Type() Type { return e.T }
func (e *Var) Type() Type      { return e.T }
func (e *Cast) Type() Type     { return e.T }
func (e *Binary) Type() Type {
	if e.t.Bits != 0 {
		return e.t
	}
	return binaryType(e.Op, e.A)
}

// binaryType is the type of a op b: bool for a comparison, else a's type.
func binaryType(op BinOp, a Expr) Type {
	if op.IsComparison() {
		return Bool
	}
	if a == nil {
		return Type{} // not a valid node; Type asks again
	}
	return a.Type()
}

// bin builds a Binary node with its type recorded.
func bin(op BinOp, a, b Expr) *Binary { return &Binary{Op: op, A: a, B: b, t: binaryType(op, a)} }
func (e *Not) Type() Type             { return Bool }
func (e *Select) Type() Type          { return e.True.Type() }
func (e *Call) Type() Type            { return e.T }
func (e *Load) Type() Type            { return e.T }
func (e *Let) Type() Type             { return e.Body.Type() }

func (*IntImm) isExpr()   {}
func (*FloatImm) isExpr() {}
func (*Var) isExpr()      {}
func (*Cast) isExpr()     {}
func (*Binary) isExpr()   {}
func (*Not) isExpr()      {}
func (*Select) isExpr()   {}
func (*Call) isExpr()     {}
func (*Load) isExpr()     {}
func (*Let) isExpr()      {}

// Int returns an int32 constant.
func Int(v int64) Expr { return &IntImm{Int32, v} }

// Const returns a constant of type t with value v (wrapped for integers).
func Const(t Type, v float64) Expr {
	if t.IsFloat() {
		return &FloatImm{t, RoundFloat(t, v)}
	}
	return &IntImm{t, t.Wrap(int64(v))}
}

// IntConst returns an integer constant of type t.
func IntConst(t Type, v int64) Expr {
	if t.IsFloat() {
		return Const(t, float64(v))
	}
	return &IntImm{t, t.Wrap(v)}
}

// True and False are the boolean constants.
var (
	True  Expr = &IntImm{Bool, 1}
	False Expr = &IntImm{Bool, 0}
)

// NewVar returns a reference to the int32 variable name.
func NewVar(name string) *Var { return &Var{T: Int32, Name: name} }

// Bin builds a Binary node.
func Bin(op BinOp, a, b Expr) Expr { return bin(op, a, b) }

// AddE, SubE, MulE, DivE, ModE, MinE, MaxE are shorthands for Bin.
func AddE(a, b Expr) Expr { return bin(Add, a, b) }
func SubE(a, b Expr) Expr { return bin(Sub, a, b) }
func MulE(a, b Expr) Expr { return bin(Mul, a, b) }
func DivE(a, b Expr) Expr { return bin(Div, a, b) }
func ModE(a, b Expr) Expr { return bin(Mod, a, b) }
func MinE(a, b Expr) Expr { return bin(Min, a, b) }
func MaxE(a, b Expr) Expr { return bin(Max, a, b) }
func LTE(a, b Expr) Expr  { return bin(LT, a, b) }
func LEE(a, b Expr) Expr  { return bin(LE, a, b) }
func AndE(a, b Expr) Expr { return bin(And, a, b) }

// AsInt returns the value of an integer constant.
func AsInt(e Expr) (int64, bool) {
	if c, ok := e.(*IntImm); ok {
		return c.V, true
	}
	return 0, false
}

// IsConst reports whether e is a constant.
func IsConst(e Expr) bool {
	switch e.(type) {
	case *IntImm, *FloatImm:
		return true
	}
	return false
}

// IsConstValue reports whether e is a constant equal to v.
func IsConstValue(e Expr, v int64) bool {
	switch c := e.(type) {
	case *IntImm:
		return c.V == v
	case *FloatImm:
		return c.V == float64(v)
	}
	return false
}

// Integer is the set of integer types EuclidDiv and EuclidMod work in.
type Integer interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// EuclidDiv is integer division as Halide defines it (its div_imp), the one
// definition that constant folding, bounds, the CPU executor, the GPU
// emulator and the CUDA helpers follow. For b != 0 the quotient q and the
// remainder r = a - q*b satisfy 0 <= r < |b| (Euclidean division): it rounds
// down for a positive divisor and up for a negative one (-7/2 is -4, 7/-2 is
// -3, -7/-2 is 4). a/0 is 0. The most negative value divided by -1 wraps to
// itself, and unsigned types divide as unsigned.
func EuclidDiv[T Integer](a, b T) T {
	if b == 0 {
		return 0
	}
	q, r := a/b, a%b // Go truncates; MIN/-1 is MIN with r = 0
	if r < 0 {       // never for unsigned T
		if b > 0 {
			q--
		} else {
			q++
		}
	}
	return q
}

// EuclidMod is the remainder matching EuclidDiv, a - b*EuclidDiv(a, b): for
// b != 0 it lies in [0, |b|) whatever the signs (-7 % 2 is 1, 7 % -3 is 1,
// -7 % -2 is 1); a%0 is 0.
func EuclidMod[T Integer](a, b T) T {
	if b == 0 {
		return 0
	}
	r := a % b
	if r < 0 {
		if b > 0 {
			r += b
		} else {
			r -= b // |b| - |r|, in (0, |b|): no overflow, even for b = MIN
		}
	}
	return r
}

// ScalarConsts returns the constants of the scalar values a Realize binds
// (Params, buffer shapes), by name: every integer type (a uint64 as its
// bit pattern, as IntImm stores it), float32, float64, the 16-bit floats
// and bool (True, False: a Specialize condition's Param, read by a size
// known only at launch). Values of other Go types are left out.
func ScalarConsts(scalars map[string]any) map[string]Expr {
	m := make(map[string]Expr, len(scalars))
	for name, v := range scalars {
		switch x := v.(type) {
		case int8:
			m[name] = IntConst(Int8, int64(x))
		case int16:
			m[name] = IntConst(Int16, int64(x))
		case int32:
			m[name] = Int(int64(x))
		case int64:
			m[name] = IntConst(Int64, x)
		case uint8:
			m[name] = IntConst(UInt8, int64(x))
		case uint16:
			m[name] = IntConst(UInt16, int64(x))
		case uint32:
			m[name] = IntConst(UInt32, int64(x))
		case uint64:
			m[name] = IntConst(UInt64, int64(x))
		case float32:
			m[name] = &FloatImm{T: Float32, V: float64(x)}
		case float64:
			m[name] = &FloatImm{T: Float64, V: x}
		case half.Float16:
			m[name] = &FloatImm{T: Float16, V: x.ToFloat64()}
		case half.BFloat16:
			m[name] = &FloatImm{T: BFloat16, V: x.ToFloat64()}
		case bool:
			m[name] = False
			if x {
				m[name] = True
			}
		}
	}
	return m
}
