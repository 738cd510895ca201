package ir

// Bitwise operators and shifts: the intrinsics, their one definition (the
// functions below, which constant folding and the CPU executor call and
// the CUDA helpers and the fuzzer's evaluator reproduce), and their
// builders.
//
// Semantics, as in Halide where Halide defines them:
//   - bitwise_and/or/xor/not work on the two's-complement bits of an
//     integer type; the result has the operands' type.
//   - shift_left(a, b) and shift_right(a, b) have the type of a (b has the
//     same type). A negative b (signed types) shifts the other way by -b,
//     as Halide does for a signed shift amount.
//   - Halide leaves shifting by the width of the type or more undefined
//     (LLVM's poison); here it is defined, as Go defines it: a left shift
//     by n >= bits gives 0, a right shift gives 0 (unsigned or
//     non-negative a) or -1 (negative a). Right shifts of signed values
//     are arithmetic (sign-extending). So a << n is a*2^n wrapped to the
//     type and a >> n is floor(a / 2^n), for every n.

// The bitwise intrinsics.
const (
	IntrinsicBitAnd     = "bitwise_and"
	IntrinsicBitOr      = "bitwise_or"
	IntrinsicBitXor     = "bitwise_xor"
	IntrinsicBitNot     = "bitwise_not"
	IntrinsicShiftLeft  = "shift_left"
	IntrinsicShiftRight = "shift_right"
)

// IsBitwise reports whether name is one of the bitwise intrinsics
// (IntrinsicBitAnd ... IntrinsicShiftRight).
func IsBitwise(name string) bool {
	switch name {
	case IntrinsicBitAnd, IntrinsicBitOr, IntrinsicBitXor, IntrinsicBitNot, IntrinsicShiftLeft, IntrinsicShiftRight:
		return true
	}
	return false
}

// Bitwise builds the bitwise intrinsic name applied to args, which have
// the same integer type (one argument for IntrinsicBitNot, two otherwise).
func Bitwise(name string, args ...Expr) *Call {
	return &Call{T: args[0].Type(), Kind: CallIntrinsic, Name: name, Args: args}
}

// EvalBitwise computes the bitwise intrinsic name of integer type t on
// values carried as int64 (t's value; for uint64 its bit pattern), and
// returns the result the same way. b is ignored for IntrinsicBitNot.
func EvalBitwise(name string, t Type, a, b int64) int64 { return BitwiseOp(name)(t, a, b) }

// BitwiseOp returns EvalBitwise for the intrinsic name, for a caller that
// chooses the operation once and applies it many times.
func BitwiseOp(name string) func(t Type, a, b int64) int64 {
	switch name {
	case IntrinsicBitAnd:
		return func(t Type, a, b int64) int64 { return t.Wrap(a & b) }
	case IntrinsicBitOr:
		return func(t Type, a, b int64) int64 { return t.Wrap(a | b) }
	case IntrinsicBitXor:
		return func(t Type, a, b int64) int64 { return t.Wrap(a ^ b) }
	case IntrinsicBitNot:
		return func(t Type, a, _ int64) int64 { return t.Wrap(^a) }
	case IntrinsicShiftLeft:
		return func(t Type, a, b int64) int64 { return Shift(t, a, b, true) }
	case IntrinsicShiftRight:
		return func(t Type, a, b int64) int64 { return Shift(t, a, b, false) }
	}
	panic("ir.BitwiseOp: not a bitwise intrinsic: " + name)
}

// Shift is a << b (left) or a >> b of integer type t, values carried as in
// EvalBitwise: a negative b (of a signed t) shifts the other way, and a
// shift by t.Bits or more gives 0, or -1 for a right shift of a negative a.
func Shift(t Type, a, b int64, left bool) int64 {
	var n uint64 // the amount; >= 64 means "all the bits"
	switch {
	case t.IsInt() && b < 0:
		left = !left
		n = uint64(-(b + 1)) + 1 // -b without overflow at MinInt64
	default:
		n = uint64(b) // unsigned b is its bit pattern
	}
	if n >= uint64(t.Bits) {
		n = 64 // Go: a shift by >= 64 empties an int64 (or sign-fills it)
	}
	if left {
		return t.Wrap(a << n)
	}
	if t.IsUInt() {
		return t.Wrap(int64(uint64(a) >> n))
	}
	return t.Wrap(a >> n) // a is sign-extended: arithmetic shift
}
