package cfamily

import "github.com/gohalide/gohalide/ir"

// Dialect is what differs between the C-family languages the printer
// writes. The printer (printer.go) owns everything they share: the C
// types, literals and identifiers (ctypes.go), the helper functions that
// give Go's semantics to division, modulo, min and max and float-to-int
// conversion (helpers.go), and the statements and expressions of a
// kernel body. A dialect spells the rest. CUDA (cuda.go) is the one
// dialect today; a C dialect for a CPU backend would implement the same
// methods (static inline helpers, restrict pointers, no barriers, GCC
// statement expressions, __atomic builtins or none).
type Dialect interface {
	// Name names the dialect in messages ("CUDA").
	Name() string
	// HelperPrefix is written before the return type of each helper
	// function ("static __device__ __forceinline__ ").
	HelperPrefix() string
	// Reserved reports whether a generated identifier must not be name,
	// besides the C++ keywords and C library functions every dialect
	// avoids (built-in variables such as threadIdx, intrinsics).
	Reserved(name string) bool
	// FloatBits spells the float of type t whose IEEE bits are bits (NaN,
	// the infinities and the signed zeros are spelled this way).
	FloatBits(t ir.Type, bits uint64) string
	// RoundedOp names a function that computes op (Mul, or Sub for
	// float64) on floats of type t rounded once, which the compiler never
	// contracts into an FMA; "" when the dialect's plain operator is never
	// contracted.
	RoundedOp(op ir.BinOp, t ir.Type) string
	// Barrier is the statement of an ir.Barrier ("" when the dialect has
	// none: a barrier is then an emission error).
	Barrier() string
	// Trap is the statement that aborts the program where an assertion
	// fails.
	Trap() string
	// Unroll is the line written before a loop to unroll ("" for none).
	Unroll() string
	// VectorType is the type of n lanes of t that one load or store moves
	// ("" when there is none: the lanes are loaded and stored one by one).
	VectorType(t ir.Type, n int) string
	// LetExpr spells an expression of C type ct that runs stmts (each a
	// complete declaration) and then yields result. The printer uses it
	// where C evaluates an expression only sometimes (a select arm, the
	// right operand of && or ||), so the statements cannot be hoisted.
	LetExpr(ct string, stmts []string, result string) string
	// Atomic returns the statement that replaces *ptr by *ptr op x
	// atomically with a native operation of the dialect, where ptr and x
	// are C expressions (x of precedence xPrec) of type t; ok is false when
	// there is none, and the printer calls a helper that loops on
	// CASHelper's compare-and-swap instead.
	Atomic(op ir.BinOp, t ir.Type, ptr, x string, xPrec int) (stmt string, ok bool)
	// CASHelper returns the source of the helper name,
	// bool name(T *p, T *expected, T desired) for T of type t: if *p holds
	// *expected, store desired and return true; otherwise load *p into
	// *expected and return false.
	CASHelper(name string, t ir.Type) string
	// ReadOnlyLoad spells a load of element index of buf, a buffer of
	// type t the code never writes, in an expression C evaluates only
	// sometimes (a select arm): in CUDA through __ldg, which the compiler
	// does not merge with the other arm's load. Other loads are plain
	// buf[index].
	ReadOnlyLoad(t ir.Type, buf, index string) string
	// BitCount spells the number of one bits (clz false) or of leading
	// zero bits (clz true) of x, a C expression of type unsigned int, or
	// unsigned long long when wide; the result is an int.
	BitCount(clz, wide bool, x string) string
	// Reinterpret spells the bits of x, a C expression of type from, read
	// as type to: one of them a float type, the other an integer type of
	// the same width (ir.CanReinterpret).
	Reinterpret(from, to ir.Type, x string) string
	// ShuffleDown spells a warp shuffle (ir.IntrinsicShuffleDown) of x, a
	// C expression of C type ct, from the lane delta lanes up, with every
	// lane of the warp taking part; "" when the dialect has none (a
	// shuffle is then an emission error).
	ShuffleDown(ct, x string, delta int64) string
	// Prefetch spells the statement that asks the cache hierarchy to
	// fetch the line holding the address addr (a C expression of type
	// const void *), and gives the line's size in bytes; "" when the
	// dialect has none (a prefetch, a hint, is then left out).
	Prefetch(addr string) (stmt string, lineBytes int)
}
