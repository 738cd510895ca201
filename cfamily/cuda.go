package cfamily

// CUDA C emission. CUDASource turns the kernels that GPU lowering extracts
// (ir.Kernel: a body every thread runs, thread and block indices as the
// variables ir.ThreadID / ir.BlockID) into one CUDA C translation unit that a
// person can read and that nvcc and NVRTC compile without any header.
//
// The generated code computes exactly what the CPU executor (package cpu)
// computes, operation by operation:
//
//   - Integer Div and Mod are Euclidean, as in Halide (ir.EuclidDiv: the
//     remainder is never negative, 7 / -2 is -3, 7 % -3 is 1), x/0 and x%0
//     are 0, and MIN/-1 wraps: small helper functions (gh_div_i32, ...) in
//     the preamble, which nvcc inlines and specializes for constant
//     divisors; by a positive power of two, a shift and a mask.
//   - 8- and 16-bit results are cast back to their type after every
//     operation (C promotes them to int), so they wrap as the CPU does;
//     uint32 and uint64 arithmetic is unsigned.
//   - Float arithmetic stays in its type (float literals carry an f suffix).
//     Multiplications are __fmul_rn / __dmul_rn, which nvcc never contracts
//     into an FMA with a following add: the CPU rounds every operation.
//     CUDAOptions.Contract turns that off for speed.
//   - Float min and max are Go's math.Min / math.Max (a -Inf / +Inf operand
//     wins, then NaN propagates, -0 < +0): gh_min_f32 and friends, not fminf.
//     Float Mod is a - b*floor(a/b) computed in double, as the CPU does.
//   - sqrt, floor, ceil and round (half to even: rintf) of a float32 are
//     computed in float (exactly the double result rounded); exp, log and
//     pow are computed in double and rounded, as the CPU does.
//   - Float to int casts truncate toward zero through __float2ll_rz /
//     __double2ll_rz, which saturate to the int64 range, and then wrap to
//     the target type: the CPU's rule. NaN becomes 0 (the 64-bit targets
//     test for it: the conversion alone gives MIN).
//
// The differences that remain are listed in the doc comment of CUDASource.
//
// Names: every IR name becomes a readable C identifier (dots and other
// characters become '_', "output.s1.r$x" → output_s1_r_x), made unique
// within the C scopes where it is visible and kept clear of C++ / CUDA
// keywords and of the gh_ prefix of the helpers.

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/gohalide/gohalide/ir"
)

// CUDAOptions changes how CUDASourceWith emits code.
type CUDAOptions struct {
	// Contract lets the CUDA compiler fuse a float multiply and a following
	// add into one FMA (it emits a * b instead of __fmul_rn(a, b)). Faster,
	// but results may then differ from the CPU executor in the last bit.
	Contract bool
}

// CUDAKernelInfo describes the shared memory of one emitted kernel.
type CUDAKernelInfo struct {
	// Name is the kernel's C identifier (its name in the module).
	Name string
	// Threads is the number of threads per block (the product of the
	// constant block dimensions), 0 when a dimension is not constant.
	Threads int64
	// StaticSharedBytes is the size of the static shared pool that holds
	// the static GPUShared allocations at their offsets (ir.Kernel.SharedBytes
	// as gpu_shared_reuse laid it out; Funcs whose lifetimes do not overlap
	// share bytes): what ptxas reports as "bytes smem", since the pool is
	// one __shared__ array.
	StaticSharedBytes int64
	// DynamicSharedBytes is the size in bytes of the dynamic shared memory
	// to pass at launch, an expression over the kernel's scalar arguments
	// (their IR names); nil when the kernel has none.
	DynamicSharedBytes ir.Expr
	// Shared lists the GPUShared allocations in their order in memory:
	// the static ones by offset in the pool, then the dynamic ones.
	Shared []CUDASharedArray
}

// CUDASharedArray is one GPUShared allocation of a kernel.
type CUDASharedArray struct {
	Name  string // the IR name
	CName string // the C identifier
	T     ir.Type
	// Elems is the element count of a static array and Offset (a
	// constant) its byte offset in the static pool; Size is the element
	// count of a dynamic one (an expression over scalar arguments) and
	// Offset its byte offset in the dynamic shared memory.
	Elems   int64
	Dynamic bool
	Size    ir.Expr
	Offset  ir.Expr
}

// CUDASource returns one CUDA C translation unit holding the kernels: a
// header comment, the helper functions they use, and one
// `extern "C" __global__` function per kernel, named as the kernel.
//
// Compile it for sm_70 or newer (nvcc -arch=sm_90, or NVRTC) with the
// default floating-point options: --use_fast_math, -ftz=true,
// -prec-div=false or -prec-sqrt=false change results.
//
// Differences from the CPU executor that remain:
//   - Signed int32 and int64 add, sub and mul use C's signed arithmetic.
//     The hardware wraps as the CPU does, but overflow is undefined in C and
//     the optimizer may assume it does not happen (as Halide does).
//   - exp, log and pow are CUDA's double-precision functions, not Go's
//     (both round to the type afterwards). Go's are the less accurate on
//     the cases we measured on an H100: math.Log on amd64 is wrong for
//     subnormal inputs (log(1e-310) gives -709.09, CUDA the correct
//     -713.80) and math.Pow can be off by tens of ulps. Float32 results
//     agree except where the two double results round differently.
//   - Atomic updates run in the order the GPU schedules them, the CPU's in
//     loop order: float sums (and other non-associative updates) can
//     differ in rounding.
//   - Signed int32 and int64 add, sub and mul use C's signed arithmetic.
//     The hardware wraps as the CPU does, but overflow is undefined in C and
//     the optimizer may assume it does not happen (as Halide does).
//   - Allocations are not zeroed (the CPU zeroes each one when it is
//     entered); lowered programs write storage before they read it.
//   - Loop bounds: the loop `for (x = m; x < m + e; x++)` computes m + e in
//     int32, the CPU in int64.
//   - An AssertStmt left in a kernel traps (__trap(), which aborts the
//     launch) instead of returning an error with the message.
//   - NaN payloads are not preserved by float min, max and mod.
//
// Atomic stores of 8- and 16-bit values are compare-and-swap loops on the
// aligned 32-bit word that holds them.
//
// IR it cannot emit (a Provide or Realize left in the body, a GPU loop, an
// unknown intrinsic, a variable that is not bound, a GPUShared allocation
// under a loop) is reported as an *ir.Error with code ir.ErrInternal.
func CUDASource(kernels ...*ir.Kernel) (string, error) {
	return CUDASourceWith(CUDAOptions{}, kernels...)
}

// CUDATarget is the options the CUDA target compiles with: float multiplies
// and adds may contract into FMAs, as CUDA code usually does.
var CUDATarget = CUDAOptions{Contract: true}

// CUDATargetSource returns the translation unit the CUDA target compiles
// for kernels (CUDASourceWith with CUDATarget): Lowered.CUDA prints it and
// the runtime hands the same text to NVRTC, so the source a person reads is
// the source that runs.
func CUDATargetSource(kernels ...*ir.Kernel) (string, error) {
	return CUDASourceWith(CUDATarget, kernels...)
}

// CUDASourceWith is CUDASource with options.
func CUDASourceWith(opts CUDAOptions, kernels ...*ir.Kernel) (src string, err error) {
	defer recoverCUDA(&err, "")
	m := &cudaModule{opts: opts, helpers: map[string]cudaHelper{}}
	var bodies []string
	names := map[string]bool{}
	for _, k := range kernels {
		if k == nil {
			return "", cudaErr("", "nil kernel")
		}
		text, name, err := m.kernel(k)
		if err != nil {
			return "", err
		}
		if names[name] {
			return "", cudaErr(k.Name, "two kernels are named %s", name)
		}
		names[name] = true
		bodies = append(bodies, text)
	}
	var b strings.Builder
	b.WriteString("// Generated by gohalide: CUDA C for the GPU kernels of one pipeline, one\n")
	b.WriteString("// kernel per Func nest. It computes what gohalide's CPU executor computes;\n")
	b.WriteString("// compile it without --use_fast_math or -ftz=true to keep that so.\n")
	if pre := m.preamble(); pre != "" {
		b.WriteString("\n")
		b.WriteString(pre)
	}
	for _, body := range bodies {
		b.WriteString("\n")
		b.WriteString(body)
	}
	return b.String(), nil
}

// CUDAInfo returns the shared-memory layout that CUDASource gives k.
func CUDAInfo(k *ir.Kernel) (info CUDAKernelInfo, err error) {
	defer recoverCUDA(&err, cudaKernelName(k))
	if k == nil {
		return info, cudaErr("", "nil kernel")
	}
	return cudaInfo(k)
}

func cudaKernelName(k *ir.Kernel) string {
	if k == nil {
		return ""
	}
	return k.Name
}

// cudaError carries an emission error through panics inside the emitter.
type cudaError struct{ err *ir.Error }

func cudaErr(kernel, format string, args ...any) *ir.Error {
	msg := fmt.Sprintf(format, args...)
	if kernel != "" {
		msg = "kernel " + kernel + ": " + msg
	}
	return &ir.Error{Code: ir.ErrInternal, Directive: "CUDA emission", Msg: msg}
}

func recoverCUDA(err *error, kernel string) {
	r := recover()
	if r == nil {
		return
	}
	if ce, ok := r.(cudaError); ok {
		*err = ce.err
		return
	}
	*err = cudaErr(kernel, "internal error: %v", r)
}

// ---------------------------------------------------------------------------
// Types, literals, identifiers.

// cType is the C spelling of t. Standard C types only: NVRTC has no
// <stdint.h>.
func cType(t ir.Type) string {
	switch t {
	case ir.Bool:
		return "bool"
	case ir.Int8:
		return "signed char"
	case ir.Int16:
		return "short"
	case ir.Int32:
		return "int"
	case ir.Int64:
		return "long long"
	case ir.UInt8:
		return "unsigned char"
	case ir.UInt16:
		return "unsigned short"
	case ir.UInt32:
		return "unsigned int"
	case ir.UInt64:
		return "unsigned long long"
	case ir.Float32:
		return "float"
	case ir.Float64:
		return "double"
	}
	panic(cudaError{cudaErr("", "type %v has no CUDA equivalent", t)})
}

// cTypeSuffix names t in helper names (gh_div_i32).
func cTypeSuffix(t ir.Type) string {
	switch t.Code {
	case ir.IntCode:
		return fmt.Sprintf("i%d", t.Bits)
	case ir.UIntCode:
		return fmt.Sprintf("u%d", t.Bits)
	case ir.FloatCode:
		return fmt.Sprintf("f%d", t.Bits)
	}
	return "bool"
}

// narrow reports whether C promotes values of t to int in arithmetic.
func cNarrow(t ir.Type) bool { return t.IsBool() || t.IsIntOrUInt() && t.Bits < 32 }

// C operator precedences (higher binds tighter).
const (
	cPrecCond    = 3
	cPrecOr      = 4
	cPrecAnd     = 5
	cPrecBitAnd  = 8
	cPrecEq      = 9
	cPrecRel     = 10
	cPrecShift   = 11
	cPrecAdd     = 12
	cPrecMul     = 13
	cPrecUnary   = 15
	cPrecPostfix = 16
)

func cParen(s string, prec, need int) string {
	if prec < need {
		return "(" + s + ")"
	}
	return s
}

// cIntLiteral spells the integer constant v of type t; narrow types are
// spelled as int literals (C promotes them anyway).
func cIntLiteral(t ir.Type, v int64) (string, int) {
	v = t.Wrap(v)
	switch {
	case t.IsBool():
		if v != 0 {
			return "true", cPrecPostfix
		}
		return "false", cPrecPostfix
	case t == ir.Int64:
		if v == math.MinInt64 {
			return "(-9223372036854775807ll - 1)", cPrecPostfix
		}
		return cLit(strconv.FormatInt(v, 10) + "ll")
	case t == ir.UInt64:
		return strconv.FormatUint(uint64(v), 10) + "ull", cPrecPostfix
	case t == ir.UInt32:
		return strconv.FormatInt(v, 10) + "u", cPrecPostfix
	case t == ir.Int32 && v == math.MinInt32:
		return "(-2147483647 - 1)", cPrecPostfix
	}
	return cLit(strconv.FormatInt(v, 10))
}

// cLit gives a literal its precedence: a leading minus makes it unary.
func cLit(s string) (string, int) {
	if strings.HasPrefix(s, "-") {
		return s, cPrecUnary
	}
	return s, cPrecPostfix
}

func cFloatLiteral(t ir.Type, v float64) (string, int) {
	if t.Bits == 32 {
		switch {
		case math.IsNaN(v):
			return "__int_as_float(0x7fc00000)", cPrecPostfix
		case math.IsInf(v, 1):
			return "__int_as_float(0x7f800000)", cPrecPostfix
		case math.IsInf(v, -1):
			return "__int_as_float(0xff800000)", cPrecPostfix
		}
		s := strconv.FormatFloat(float64(float32(v)), 'g', -1, 32)
		if !strings.ContainsAny(s, ".eE") {
			s += ".0"
		}
		return cLit(s + "f")
	}
	switch {
	case math.IsNaN(v):
		return "__longlong_as_double(0x7ff8000000000000ll)", cPrecPostfix
	case math.IsInf(v, 1):
		return "__longlong_as_double(0x7ff0000000000000ll)", cPrecPostfix
	case math.IsInf(v, -1):
		return "__longlong_as_double(0xfff0000000000000ull)", cPrecPostfix
	}
	s := strconv.FormatFloat(v, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eE") {
		s += ".0"
	}
	return cLit(s)
}

// cReserved are names a generated identifier must not take: C++ keywords,
// CUDA built-in variables, and the functions the generated code calls.
var cReserved = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`
		alignas alignof and and_eq asm auto bitand bitor bool break case catch char
		char8_t char16_t char32_t class compl concept const consteval constexpr
		constinit const_cast continue co_await co_return co_yield decltype default
		delete do double dynamic_cast else enum explicit export extern false float
		for friend goto if inline int long mutable namespace new noexcept not
		not_eq nullptr operator or or_eq private protected public register
		reinterpret_cast requires restrict return short signed sizeof static
		static_assert static_cast struct switch template this thread_local throw
		true try typedef typeid typename union unsigned using virtual void volatile
		wchar_t while xor xor_eq main NULL EOF assert errno
		threadIdx blockIdx blockDim gridDim warpSize
		min max abs llabs fabs fabsf sqrt sqrtf exp expf log logf pow powf floor
		floorf ceil ceilf rint rintf round roundf isnan isinf signbit printf
		atomicAdd atomicSub atomicMin atomicMax atomicCAS atomicExch
		dynamic_shared`) {
		m[w] = true
	}
	return m
}()

// cIdent turns an IR name into a C identifier: runs of characters that may
// not appear in one become a single '_'.
func cIdent(name string) string {
	var b strings.Builder
	under := false
	for _, r := range name {
		ok := r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
		if !ok || r == '_' {
			if !under {
				b.WriteByte('_')
			}
			under = true
			continue
		}
		under = false
		b.WriteRune(r)
	}
	s := b.String()
	switch {
	case s == "" || s == "_":
		s = "v"
	case s[0] == '_':
		s = "v" + s
	case s[0] >= '0' && s[0] <= '9' || strings.HasPrefix(s, "gh_"):
		s = "v_" + s
	}
	if cReserved[s] {
		s += "_"
	}
	return s
}

// ---------------------------------------------------------------------------
// The module: helpers shared by the kernels.

type cudaHelper struct {
	rank int // helpers of lower rank come first (dependencies)
	src  string
}

type cudaModule struct {
	opts    CUDAOptions
	helpers map[string]cudaHelper
}

func (m *cudaModule) preamble() string {
	names := make([]string, 0, len(m.helpers))
	for n := range m.helpers {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		a, b := m.helpers[names[i]], m.helpers[names[j]]
		if a.rank != b.rank {
			return a.rank < b.rank
		}
		return names[i] < names[j]
	})
	var b strings.Builder
	for i, n := range names {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(m.helpers[n].src)
	}
	return b.String()
}

const cudaHelperPrefix = "static __device__ __forceinline__ "

// use records that the code calls helper name, generating it (and what it
// calls) the first time.
func (m *cudaModule) use(name string) string {
	if _, ok := m.helpers[name]; ok {
		return name
	}
	rank, src := m.helperSource(name)
	m.helpers[name] = cudaHelper{rank, src}
	return name
}

// cudaHelperTypes maps helper suffixes back to types.
var cudaHelperTypes = map[string]ir.Type{
	"i8": ir.Int8, "i16": ir.Int16, "i32": ir.Int32, "i64": ir.Int64,
	"u8": ir.UInt8, "u16": ir.UInt16, "u32": ir.UInt32, "u64": ir.UInt64,
	"f32": ir.Float32, "f64": ir.Float64, "bool": ir.Bool,
}

func (m *cudaModule) helperSource(name string) (int, string) {
	parts := strings.Split(strings.TrimPrefix(name, "gh_"), "_")
	t, ok := cudaHelperTypes[parts[len(parts)-1]]
	if !ok {
		panic(fmt.Sprintf("unknown helper %s", name))
	}
	c := cType(t)
	switch parts[0] {
	case "div":
		if t.IsInt() {
			return 0, fmt.Sprintf(`// Euclidean division, as in Halide: the remainder a - q*b is in [0, |b|), so
// the quotient rounds down for b > 0 and up for b < 0 (7 / -2 is -3);
// x / 0 is 0 and MIN / -1 wraps to MIN.
%[1]s%[2]s %[3]s(%[2]s a, %[2]s b) {
    if (b == 0) {
        return 0;
    }
    if (b == -1) {
        return (%[2]s)(0ull - (unsigned long long)a);
    }
    %[2]s q = a / b;
    if (a %% b < 0) {
        q += b > 0 ? -1 : 1;
    }
    return q;
}
`, cudaHelperPrefix, c, name)
		}
		return 0, fmt.Sprintf(`// Unsigned division; x / 0 is 0.
%[1]s%[2]s %[3]s(%[2]s a, %[2]s b) {
    return b == 0 ? 0 : a / b;
}
`, cudaHelperPrefix, c, name)
	case "mod":
		switch {
		case t.IsInt():
			return 0, fmt.Sprintf(`// Euclidean modulo, as in Halide: in [0, |b|) for either sign of b
// (7 %% -3 is 1, -7 %% 2 is 1); x %% 0 is 0.
%[1]s%[2]s %[3]s(%[2]s a, %[2]s b) {
    if (b == 0 || b == -1) {
        return 0;
    }
    %[2]s r = a %% b;
    if (r < 0) {
        r = b > 0 ? r + b : r - b;
    }
    return r;
}
`, cudaHelperPrefix, c, name)
		case t.IsFloat():
			mul, sub := "__dmul_rn", "__dsub_rn"
			return 0, fmt.Sprintf(`// Float modulo a - b * floor(a / b), computed in double and rounded once at
// the end, as the CPU executor computes it.
%[1]s%[2]s %[3]s(%[2]s a, %[2]s b) {
    const double p = a;
    const double q = b;
    return (%[2]s)%[5]s(p, %[4]s(q, floor(p / q)));
}
`, cudaHelperPrefix, c, name, mul, sub)
		}
		return 0, fmt.Sprintf(`// Unsigned modulo; x %% 0 is 0.
%[1]s%[2]s %[3]s(%[2]s a, %[2]s b) {
    return b == 0 ? 0 : a %% b;
}
`, cudaHelperPrefix, c, name)
	case "min", "max":
		lt, inf, word, pick := "<", "-Inf", "Min", "signbit(a) ? a : b"
		if parts[0] == "max" {
			lt, inf, word, pick = ">", "+Inf", "Max", "signbit(a) ? b : a"
		}
		zero := "0.0"
		if t.Bits == 32 {
			zero = "0.0f"
		}
		return 0, fmt.Sprintf(`// Go's math.%[4]s: %[5]s wins over NaN, NaN propagates, and -0 < +0.
%[1]s%[2]s %[3]s(%[2]s a, %[2]s b) {
    if (isinf(a) && a %[6]s %[7]s) {
        return a;
    }
    if (isinf(b) && b %[6]s %[7]s) {
        return b;
    }
    if (isnan(a) || isnan(b)) {
        return a + b;
    }
    if (a == b) {
        return %[8]s;
    }
    return a %[6]s b ? a : b;
}
`, cudaHelperPrefix, c, name, word, inf, lt, zero, pick)
	case "abs":
		return 0, fmt.Sprintf(`// |a| in int64; abs(MIN) wraps to MIN.
%[1]slong long %[2]s(long long a) {
    return a < 0 ? (long long)(0ull - (unsigned long long)a) : a;
}
`, cudaHelperPrefix, name)
	case "toi8", "toi16", "toi32", "toi64", "tou8", "tou16", "tou32", "tou64":
		return 0, cudaFloatToIntHelper(name, cudaHelperTypes[strings.TrimPrefix(parts[0], "to")], t)
	case "cas":
		return 1, cudaCASHelper(name, t)
	case "atomic":
		return 2, m.atomicHelper(name, parts[1], t)
	}
	panic(fmt.Sprintf("unknown helper %s", name))
}

// cudaFloatToIntHelper writes gh_to<to>_<from>: ir.FloatToInt's
// conversion (truncate toward zero, saturate at the ends of to, NaN to 0),
// spelled with comparisons so that it does not depend on what the hardware
// conversion does with NaN and out-of-range values.
func cudaFloatToIntHelper(name string, to, from ir.Type) string {
	c, ct := cType(from), cType(to)
	lo, hi := fmt.Sprint(to.Min()), fmt.Sprint(to.Max())
	switch {
	case to == ir.Int64:
		lo, hi = "-9223372036854775807ll - 1", "9223372036854775807ll"
	case to == ir.UInt64:
		hi = "18446744073709551615ull"
	case to.Bits == 32:
		lo, hi = lo+"ll", hi+"ll"
	}
	// The ends as floats: 2^(bits-1) and 2^bits are exact; a value at or
	// beyond them saturates. The lower end -2^(bits-1) is exact too.
	top := fmt.Sprintf("%d.0", uint64(1)<<(to.Bits-1))
	if to.IsUInt() {
		top = fmt.Sprintf("%d.0", uint64(1)<<to.Bits)
		if to.Bits == 64 {
			top = "18446744073709551616.0"
		}
	}
	bottom := "-" + fmt.Sprintf("%d.0", uint64(1)<<(to.Bits-1))
	if to.IsUInt() {
		bottom = "0.0"
	}
	if from.Bits == 32 {
		top, bottom = top+"f", bottom+"f"
	}
	conv := "(long long)"
	if to == ir.UInt64 {
		conv = "(unsigned long long)"
	}
	return fmt.Sprintf(`// Float to %[4]s as every target converts: truncate toward zero, saturate
// at the ends of the type, NaN to 0 (ir.FloatToInt).
%[1]s%[2]s %[3]s(%[5]s a) {
    if (isnan(a)) {
        return 0;
    }
    if (a <= %[6]s) {
        return (%[2]s)(%[8]s);
    }
    if (a >= %[7]s) {
        return (%[2]s)(%[9]s);
    }
    return (%[2]s)%[10]s(a);
}
`, cudaHelperPrefix, ct, name, to, c, bottom, top, lo, hi, conv)
}

// cudaCASHelper writes gh_cas_T(T *p, T *expected, T desired): a
// compare-and-swap on the bits of *p, which stores desired and returns
// true when *p holds *expected, and otherwise loads *p into *expected and
// returns false.
func cudaCASHelper(name string, t ir.Type) string {
	c := cType(t)
	head := fmt.Sprintf(`// Compare-and-swap on the bits of *p: if *p is *expected, store desired and
// return true; otherwise load *p into *expected and return false.
%sbool %s(%s *p, %s *expected, %s desired) {
`, cudaHelperPrefix, name, c, c, c)
	var body string
	switch {
	case t == ir.Int32 || t == ir.UInt32 || t == ir.UInt64:
		body = fmt.Sprintf(`    const %[1]s seen = atomicCAS(p, *expected, desired);
    const bool ok = seen == *expected;
    *expected = seen;
    return ok;
`, c)
	case t == ir.Int64:
		body = `    const unsigned long long want = (unsigned long long)*expected;
    const unsigned long long seen = atomicCAS((unsigned long long *)p, want, (unsigned long long)desired);
    *expected = (long long)seen;
    return seen == want;
`
	case t == ir.Float32:
		body = `    const int want = __float_as_int(*expected);
    const int seen = atomicCAS((int *)p, want, __float_as_int(desired));
    *expected = __int_as_float(seen);
    return seen == want;
`
	case t == ir.Float64:
		body = `    const unsigned long long want = (unsigned long long)__double_as_longlong(*expected);
    const unsigned long long seen = atomicCAS((unsigned long long *)p, want, (unsigned long long)__double_as_longlong(desired));
    *expected = __longlong_as_double((long long)seen);
    return seen == want;
`
	default:
		// 8 and 16 bits: through the aligned 32-bit word that holds *p.
		bits := "unsigned char"
		mask := "0xffu"
		if t.Bits == 16 {
			bits, mask = "unsigned short", "0xffffu"
		}
		body = fmt.Sprintf(`    unsigned int *word = (unsigned int *)((unsigned long long)p & ~3ull);
    const unsigned int shift = ((unsigned int)(unsigned long long)p & 3u) * 8u;
    const unsigned int mask = %[2]s << shift;
    const unsigned int want = (unsigned int)(%[3]s)*expected << shift;
    const unsigned int put = (unsigned int)(%[3]s)desired << shift;
    unsigned int old = *word;
    while ((old & mask) == want) {
        const unsigned int seen = atomicCAS(word, old, (old & ~mask) | put);
        if (seen == old) {
            return true;
        }
        old = seen;
    }
    *expected = (%[1]s)((old & mask) >> shift);
    return false;
`, c, mask, bits)
	}
	return head + body + "}\n"
}

// atomicHelper writes gh_atomic_OP_T(T *p, T x), which replaces *p by
// *p OP x atomically with a compare-and-swap loop.
func (m *cudaModule) atomicHelper(name, opName string, t ir.Type) string {
	var op ir.BinOp = 255
	for o := ir.Add; o <= ir.Or; o++ {
		if cudaOpWord[o] == opName {
			op = o
		}
	}
	if op == 255 {
		panic(fmt.Sprintf("unknown atomic helper %s", name))
	}
	e := newCUDAKernelEmitter(m, "")
	e.vars["old"] = []cVar{{"old", t}}
	e.vars["x"] = []cVar{{"x", t}}
	val, _ := e.expr(&ir.Binary{Op: op, A: &ir.Var{T: t, Name: "old"}, B: &ir.Var{T: t, Name: "x"}})
	c := cType(t)
	cas := m.use("gh_cas_" + cTypeSuffix(t))
	what := ir.ExprString(&ir.Binary{Op: op, A: &ir.Var{T: t, Name: "*p"}, B: &ir.Var{T: t, Name: "x"}})
	return fmt.Sprintf(`// *p = %[5]s, atomically.
%[1]svoid %[2]s(%[3]s *p, %[3]s x) {
    %[3]s old = *p;
    while (!%[4]s(p, &old, %[6]s)) {
        // another thread changed *p first: old is its value, try again
    }
}
`, cudaHelperPrefix, name, c, cas, what, val)
}

var cudaOpWord = map[ir.BinOp]string{
	ir.Add: "add", ir.Sub: "sub", ir.Mul: "mul", ir.Div: "div", ir.Mod: "mod",
	ir.Min: "min", ir.Max: "max", ir.And: "and", ir.Or: "or",
}

// ---------------------------------------------------------------------------
// Shared memory layout.

type cudaSharedAlloc struct {
	CUDASharedArray
	extents []ir.Expr
}

func cudaInfo(k *ir.Kernel) (CUDAKernelInfo, error) {
	info := CUDAKernelInfo{Name: cIdent(k.Name), Threads: 1}
	if k.Block == [3]ir.Expr{} {
		info.Threads = 0
	}
	for _, d := range k.Block {
		if d == nil || info.Threads == 0 {
			continue
		}
		n, ok := ir.AsInt(ir.Simplify(d))
		if !ok {
			info.Threads = 0
			break
		}
		info.Threads *= n
	}
	var static, dynamic []cudaSharedAlloc
	var walk func(s ir.Stmt, lets map[string]ir.Expr, under string)
	walk = func(s ir.Stmt, lets map[string]ir.Expr, under string) {
		switch s := s.(type) {
		case nil:
		case *ir.Block:
			for _, x := range s.Stmts {
				walk(x, lets, under)
			}
		case *ir.LetStmt:
			inner := make(map[string]ir.Expr, len(lets)+1)
			for n, v := range lets {
				inner[n] = v
			}
			inner[s.Name] = ir.Substitute(s.Value, lets)
			walk(s.Body, inner, under)
		case *ir.ProducerConsumer:
			walk(s.Body, lets, under)
		case *ir.For:
			walk(s.Body, lets, "loop "+s.Name)
		case *ir.IfThenElse:
			walk(s.Then, lets, "an if")
			walk(s.Else, lets, "an if")
		case *ir.Allocate:
			if s.Memory == ir.GPUShared {
				if under != "" {
					panic(cudaError{cudaErr(k.Name, "GPUShared allocation %s is inside %s; shared allocations must come first in the kernel body", s.Name, under)})
				}
				a := cudaSharedAlloc{CUDASharedArray: CUDASharedArray{Name: s.Name, T: s.T, Elems: 1}}
				var size ir.Expr
				for _, x := range s.Extents {
					x = ir.Simplify(ir.Substitute(x, lets))
					a.extents = append(a.extents, x)
					if x.Type() != ir.Int32 {
						x = &ir.Cast{T: ir.Int32, X: x}
					}
					if size == nil {
						size = x
					} else {
						size = ir.MulE(size, x)
					}
				}
				if size == nil {
					size = ir.Int(1)
				}
				size = ir.Simplify(size)
				if n, ok := ir.AsInt(size); ok {
					a.Elems = n
					static = append(static, a)
				} else {
					bad := ""
					ir.WalkExpr(size, func(e ir.Expr) bool {
						if v, ok := e.(*ir.Var); ok && bad == "" && !cudaIsScalarArg(k, v.Name) {
							bad = v.Name
						}
						return bad == ""
					})
					if bad != "" {
						panic(cudaError{cudaErr(k.Name, "the size of GPUShared allocation %s depends on %s, which is not a scalar argument of the kernel", s.Name, bad)})
					}
					a.Elems, a.Dynamic, a.Size = 0, true, size
					dynamic = append(dynamic, a)
				}
			}
			walk(s.Body, lets, under)
		}
	}
	walk(k.Body, nil, "")
	// Dynamic arrays by decreasing element size: no padding between them
	// (sizes are powers of two), so their offsets are plain sums.
	bySize := func(l []cudaSharedAlloc) {
		sort.SliceStable(l, func(i, j int) bool { return l[i].T.Bytes() > l[j].T.Bytes() })
	}
	bySize(dynamic)
	// The static pool, as lowering laid it out.
	statics := make([]ir.StaticShared, len(static))
	for i, a := range static {
		statics[i] = ir.StaticShared{Name: a.Name, T: a.T, Elems: a.Elems}
	}
	offsets, total, err := ir.SharedLayout(k, statics)
	if err != nil {
		panic(cudaError{cudaErr(k.Name, "%v", err)})
	}
	for i := range static {
		static[i].Offset = ir.Int(offsets[i])
	}
	sort.SliceStable(static, func(i, j int) bool {
		oi, _ := ir.AsInt(static[i].Offset)
		oj, _ := ir.AsInt(static[j].Offset)
		return oi < oj
	})
	info.StaticSharedBytes = total
	for _, a := range static {
		info.Shared = append(info.Shared, a.CUDASharedArray)
	}
	var off ir.Expr = ir.Int(0)
	for _, a := range dynamic {
		a.Offset = off
		off = ir.Simplify(ir.AddE(off, ir.MulE(a.Size, ir.Int(int64(a.T.Bytes())))))
		info.Shared = append(info.Shared, a.CUDASharedArray)
	}
	if len(dynamic) > 0 {
		info.DynamicSharedBytes = off
	}
	return info, nil
}

func cudaIsScalarArg(k *ir.Kernel, name string) bool {
	for _, a := range k.Args {
		if !a.IsBuffer && a.Name == name {
			return true
		}
	}
	return false
}

// ---------------------------------------------------------------------------
// The kernel emitter.

type cVar struct {
	name string
	t    ir.Type
}

type cBuf struct {
	name    string
	t       ir.Type
	written bool // stores are allowed
}

type cLine struct {
	indent int
	text   string
}

type cudaKernelEmitter struct {
	m      *cudaModule
	kernel string
	lines  []cLine
	indent int
	// scopes holds the C names declared in each open C block.
	scopes []map[string]bool
	// vars and bufs map IR names to their C bindings (innermost last).
	vars map[string][]cVar
	bufs map[string][]cBuf
	// cond > 0 while emitting an expression that C evaluates only
	// conditionally (a Select arm, the right operand of && or ||): a Let
	// there becomes a lambda instead of a hoisted local.
	cond int
	tmp  int
}

func newCUDAKernelEmitter(m *cudaModule, kernel string) *cudaKernelEmitter {
	return &cudaKernelEmitter{
		m: m, kernel: kernel,
		scopes: []map[string]bool{{}},
		vars:   map[string][]cVar{},
		bufs:   map[string][]cBuf{},
	}
}

func (e *cudaKernelEmitter) fail(format string, args ...any) {
	panic(cudaError{cudaErr(e.kernel, format, args...)})
}

func (e *cudaKernelEmitter) line(format string, args ...any) {
	e.lines = append(e.lines, cLine{e.indent, fmt.Sprintf(format, args...)})
}

func (e *cudaKernelEmitter) comment(text string) {
	for _, l := range strings.Split(text, "\n") {
		e.line("// %s", strings.TrimRight(l, " \t"))
	}
}

func (e *cudaKernelEmitter) visible(name string) bool {
	for _, s := range e.scopes {
		if s[name] {
			return true
		}
	}
	return false
}

// fresh picks a C identifier for IR name that no visible declaration has.
func (e *cudaKernelEmitter) fresh(name string) string {
	base := cIdent(name)
	c := base
	for i := 1; e.visible(c); i++ {
		c = fmt.Sprintf("%s_%d", base, i)
	}
	return c
}

// declare picks the C identifier for a new binding of IR name in the
// current C block.
func (e *cudaKernelEmitter) declare(name string) string {
	c := e.fresh(name)
	e.scopes[len(e.scopes)-1][c] = true
	return c
}

func (e *cudaKernelEmitter) push() { e.scopes = append(e.scopes, map[string]bool{}); e.indent++ }
func (e *cudaKernelEmitter) pop()  { e.scopes = e.scopes[:len(e.scopes)-1]; e.indent-- }
func (e *cudaKernelEmitter) open(format string, args ...any) {
	e.line(format, args...)
	e.push()
}
func (e *cudaKernelEmitter) close() { e.pop(); e.line("}") }

func (e *cudaKernelEmitter) bindVar(irName, cName string, t ir.Type) func() {
	e.vars[irName] = append(e.vars[irName], cVar{cName, t})
	return func() { e.vars[irName] = e.vars[irName][:len(e.vars[irName])-1] }
}

func (e *cudaKernelEmitter) bindBuf(irName string, b cBuf) func() {
	e.bufs[irName] = append(e.bufs[irName], b)
	return func() { e.bufs[irName] = e.bufs[irName][:len(e.bufs[irName])-1] }
}

func (e *cudaKernelEmitter) lookupBuf(name, what string) cBuf {
	l := e.bufs[name]
	if len(l) == 0 {
		e.fail("%s buffer %s, which is neither an argument nor an allocation of the kernel", what, name)
	}
	return l[len(l)-1]
}

// kernel emits one kernel and returns its text and C name.
func (m *cudaModule) kernel(k *ir.Kernel) (text, name string, err error) {
	defer recoverCUDA(&err, k.Name)
	info, err := cudaInfo(k)
	if err != nil {
		return "", "", err
	}
	e := newCUDAKernelEmitter(m, k.Name)
	name = info.Name

	// Arguments.
	stored := map[string]bool{}
	ir.WalkStmt(k.Body, func(s ir.Stmt) bool {
		if st, ok := s.(*ir.Store); ok {
			stored[st.Buf] = true
		}
		return true
	}, nil)
	var params []string
	seen := map[string]bool{}
	for _, a := range k.Args {
		if seen[a.Name] {
			e.fail("two arguments are named %s", a.Name)
		}
		seen[a.Name] = true
		if a.Name == ir.ThreadID[0] || a.Name == ir.ThreadID[1] || a.Name == ir.ThreadID[2] ||
			a.Name == ir.BlockID[0] || a.Name == ir.BlockID[1] || a.Name == ir.BlockID[2] {
			e.fail("argument %s has the name of a thread or block index", a.Name)
		}
		c := e.declare(a.Name)
		ct := cType(a.T)
		if a.IsBuffer {
			if stored[a.Name] && !a.Written {
				e.fail("the kernel stores to buffer argument %s, which is not marked Written", a.Name)
			}
			if a.Written {
				params = append(params, fmt.Sprintf("%s *__restrict__ %s", ct, c))
			} else {
				params = append(params, fmt.Sprintf("const %s *__restrict__ %s", ct, c))
			}
			e.bindBuf(a.Name, cBuf{c, a.T, a.Written})
		} else {
			params = append(params, fmt.Sprintf("const %s %s", ct, c))
			e.bindVar(a.Name, c, a.T)
		}
	}

	// The body: thread and block indices, shared memory, statements.
	e.push()
	used := map[string]bool{}
	ir.WalkStmt(k.Body, func(ir.Stmt) bool { return true }, func(x ir.Expr) bool {
		if v, ok := x.(*ir.Var); ok {
			used[v.Name] = true
		}
		return true
	})
	for _, ids := range []struct {
		ir   [3]string
		cuda string
	}{{ir.ThreadID, "threadIdx"}, {ir.BlockID, "blockIdx"}} {
		for d, dim := range []string{"x", "y", "z"} {
			if used[ids.ir[d]] {
				c := e.declare(ids.ir[d])
				e.line("const int %s = %s.%s;", c, ids.cuda, dim)
				e.bindVar(ids.ir[d], c, ir.Int32)
			}
		}
	}
	e.sharedDecls(info)
	e.stmt(k.Body)
	e.pop()

	var b strings.Builder
	fmt.Fprintf(&b, "// Kernel %s: block %s", k.Name, cudaBlockText(k.Block))
	if info.Threads > 0 {
		fmt.Fprintf(&b, " (%d threads)", info.Threads)
	}
	if info.StaticSharedBytes > 0 {
		fmt.Fprintf(&b, ", %d bytes of static shared memory", info.StaticSharedBytes)
	}
	if info.DynamicSharedBytes != nil {
		fmt.Fprintf(&b, ", %s bytes of dynamic shared memory", ir.ExprString(info.DynamicSharedBytes))
	}
	b.WriteString(".\n")
	b.WriteString(`extern "C" __global__ void `)
	if info.Threads > 0 {
		fmt.Fprintf(&b, "__launch_bounds__(%d) ", info.Threads)
	}
	b.WriteString(name)
	if len(params) == 0 {
		b.WriteString("() {\n")
	} else {
		b.WriteString("(\n")
		for i, p := range params {
			b.WriteString("    " + p)
			if i < len(params)-1 {
				b.WriteString(",\n")
			}
		}
		b.WriteString(") {\n")
	}
	for _, l := range e.lines {
		b.WriteString(strings.Repeat("    ", l.indent))
		b.WriteString(l.text)
		b.WriteString("\n")
	}
	b.WriteString("}\n")
	return b.String(), name, nil
}

func cudaBlockText(block [3]ir.Expr) string {
	parts := make([]string, 3)
	for i, d := range block {
		if d == nil {
			parts[i] = "1"
		} else {
			parts[i] = ir.ExprString(d)
		}
	}
	return strings.Join(parts, " x ")
}

// sharedDecls declares the kernel's GPUShared allocations at the top of
// its body, in the order of info.Shared.
func (e *cudaKernelEmitter) sharedDecls(info CUDAKernelInfo) {
	if len(info.Shared) == 0 {
		return
	}
	e.line("// Shared memory: one copy per block.")
	pool, dyn := "", ""
	for _, a := range info.Shared {
		if !a.Dynamic && pool == "" && info.StaticSharedBytes > 0 {
			pool = e.declare("shared_pool")
			if cudaSharesBytes(info.Shared) {
				e.line("// One pool of %d bytes for the static arrays. Arrays whose lifetimes do", info.StaticSharedBytes)
				e.line("// not overlap (a barrier lies between them) share bytes.")
			} else {
				e.line("// One pool of %d bytes for the static arrays.", info.StaticSharedBytes)
			}
			e.line("__shared__ __align__(16) unsigned char %s[%d];", pool, info.StaticSharedBytes)
		}
		c := e.declare(a.Name)
		e.bindBuf(a.Name, cBuf{c, a.T, true})
		ct := cType(a.T)
		if !a.Dynamic {
			off, _ := ir.AsInt(a.Offset)
			bytes := a.Elems * int64(a.T.Bytes())
			e.line("// %s: %d %v at bytes [%d, %d) of the pool", c, a.Elems, a.T, off, off+bytes)
			switch {
			case pool == "":
				e.line("%s *const %s = nullptr;", ct, c)
			case off == 0:
				e.line("%s *const %s = (%s *)%s;", ct, c, ct, pool)
			default:
				e.line("%s *const %s = (%s *)(%s + %d);", ct, c, ct, pool, off)
			}
			continue
		}
		if dyn == "" {
			// A reserved name: no IR name maps to it.
			dyn = "dynamic_shared"
			e.scopes[0][dyn] = true
			e.line("extern __shared__ __align__(16) unsigned char %s[];", dyn)
		}
		size, _ := e.expr(a.Size)
		e.line("// %s: %s elements", c, size)
		if ir.IsConstValue(a.Offset, 0) {
			e.line("%s *%s = (%s *)%s;", ct, c, ct, dyn)
		} else {
			off, p := e.expr(a.Offset)
			e.line("%s *%s = (%s *)(%s + %s);", ct, c, ct, dyn, cParen(off, p, cPrecAdd+1))
		}
	}
}

// cudaSharesBytes reports whether two static arrays overlap in the pool.
func cudaSharesBytes(shared []CUDASharedArray) bool {
	end := int64(0) // the end of the arrays so far, in order of offset
	for _, a := range shared {
		if a.Dynamic {
			continue
		}
		off, _ := ir.AsInt(a.Offset)
		bytes := a.Elems * int64(a.T.Bytes())
		if bytes == 0 {
			continue
		}
		if off < end {
			return true
		}
		end = max(end, off+bytes)
	}
	return false
}

// ---------------------------------------------------------------------------
// Statements.

func (e *cudaKernelEmitter) stmt(s ir.Stmt) {
	switch s := s.(type) {
	case nil:
	case *ir.Block:
		for _, x := range s.Stmts {
			e.stmt(x)
		}
	case *ir.LetStmt:
		if !ir.StmtUses(s.Body, s.Name) {
			e.stmt(s.Body)
			return
		}
		v := e.top(s.Value)
		c := e.declare(s.Name)
		e.line("const %s %s = %s;", cType(s.Value.Type()), c, v)
		restore := e.bindVar(s.Name, c, s.Value.Type())
		e.stmt(s.Body)
		restore()
	case *ir.Comment:
		e.comment(s.Text)
	case *ir.LoadVector:
		e.loadVector(s)
	case *ir.StoreVector:
		e.storeVector(s)
	case *ir.Barrier:
		if s.Reason != "" {
			e.comment(s.Reason)
		}
		e.line("__syncthreads();")
	case *ir.ProducerConsumer:
		if s.Producer {
			e.line("// produce %s", s.Func)
		} else {
			e.line("// consume %s", s.Func)
		}
		e.stmt(s.Body)
	case *ir.For:
		e.loop(s)
	case *ir.IfThenElse:
		e.ifThenElse(s)
	case *ir.Allocate:
		e.allocate(s)
	case *ir.Store:
		e.store(s)
	case *ir.Evaluate:
		if s.X == nil || ir.IsConst(s.X) {
			return
		}
		if fn, _, ok := ir.IsTraceStore(s.X); ok {
			e.comment("a store to " + fn + " is traced on the CPU and the emulator only")
			return
		}
		x, p := e.expr(s.X)
		e.line("(void)%s;", cParen(x, p, cPrecUnary))
	case *ir.AssertStmt:
		c, p := e.expr(s.Cond)
		e.comment("assert: " + s.Message)
		e.open("if (!%s) {", cParen(c, p, cPrecUnary))
		e.line("__trap();")
		e.close()
	case *ir.Provide:
		e.fail("statement is not lowered: found Provide to %s", s.Func)
	case *ir.Realize:
		e.fail("statement is not lowered: found Realize of %s", s.Func)
	case *ir.Launch:
		e.fail("found a kernel launch inside a kernel")
	default:
		e.fail("cannot emit statement %T", s)
	}
}

// cVectorType is the CUDA vector type of n lanes of t ("" when there is
// none): float2, float4, int2, int4, uint2, uint4, double2.
func cVectorType(t ir.Type, n int) string {
	var base string
	switch t {
	case ir.Float32:
		base = "float"
	case ir.Int32:
		base = "int"
	case ir.UInt32:
		base = "uint"
	case ir.Float64:
		base = "double"
	default:
		return ""
	}
	if !ir.VectorLanesOK(t, n) {
		return ""
	}
	return base + strconv.Itoa(n)
}

// storeVector emits the stores an ir.StoreVector marks as one vector store
// (lowering proved, or a branch around it tested, that the first index is
// a multiple of the lane count): the lanes' values into one vector, then
// one store. A mark whose stores do not fit is emitted store by store.
func (e *cudaKernelEmitter) storeVector(s *ir.StoreVector) {
	stores, ok := s.VectorStores()
	if !ok {
		e.stmt(s.Body)
		return
	}
	vt := cVectorType(stores[0].Value.Type(), len(stores))
	b := e.lookupBuf(stores[0].Buf, "store to")
	if vt == "" || !b.written || b.t != stores[0].Value.Type() {
		e.stmt(s.Body)
		return
	}
	vals := make([]string, len(stores))
	for i, st := range stores {
		vals[i] = e.top(st.Value)
	}
	v := e.declare(stores[0].Buf + ".vec")
	e.line("const %s %s = {%s};", vt, v, strings.Join(vals, ", "))
	e.line("*(%s *)&%s[%s] = %s;", vt, b.name, e.top(stores[0].Index), v)
}

// loadVector emits the lets an ir.LoadVector marks as one vector load
// (lowering proved the first index a multiple of the lane count and the
// array aligned; the emulator checks the index), then their scope. Lets
// that do not fit the mark are emitted one by one.
func (e *cudaKernelEmitter) loadVector(s *ir.LoadVector) {
	names, loads, rest, ok := s.VectorLanes()
	vt := ""
	if ok {
		vt = cVectorType(loads[0].T, len(loads))
		for i, l := range loads {
			if d, isConst := ir.AsInt(ir.Simplify(ir.SubE(l.Index, loads[0].Index))); !isConst || d != int64(i) {
				vt = ""
			}
		}
	}
	if vt == "" {
		e.stmt(s.Body)
		return
	}
	b := e.lookupBuf(loads[0].Buf, "load from")
	v := e.declare(names[0] + ".vec")
	e.line("const %s %s = *(const %s *)&%s[%s];", vt, v, vt, b.name, e.top(loads[0].Index))
	var restores []func()
	for i, n := range names {
		c := e.declare(n)
		e.line("const %s %s = %s.%c;", cType(loads[i].T), c, v, "xyzw"[i])
		restores = append(restores, e.bindVar(n, c, loads[i].T))
	}
	e.stmt(rest)
	for i := len(restores) - 1; i >= 0; i-- {
		restores[i]()
	}
}

// cIsAtom reports whether e prints as a name or a literal.
func cIsAtom(e ir.Expr) bool {
	switch e.(type) {
	case *ir.IntImm, *ir.Var:
		return true
	}
	return false
}

func (e *cudaKernelEmitter) loop(s *ir.For) {
	switch s.Kind {
	case ir.GPUBlock, ir.GPUThread:
		e.fail("loop %s has kind %v: GPU loops are the kernel's launch dimensions and cannot appear in its body", s.Name, s.Kind)
	}
	if s.Min.Type() != ir.Int32 || s.Extent.Type() != ir.Int32 {
		e.fail("loop %s has bounds of types %v and %v, want int32", s.Name, s.Min.Type(), s.Extent.Type())
	}
	var mn, cond string
	lo, loConst := ir.AsInt(s.Min)
	ext, extConst := ir.AsInt(s.Extent)
	switch {
	case loConst && extConst:
		mn = strconv.FormatInt(lo, 10)
		cond = strconv.FormatInt(lo+ext, 10)
	default:
		mn = e.top(s.Min)
		if !cIsAtom(s.Min) {
			c := e.declare(s.Name + ".min")
			e.line("const int %s = %s;", c, mn)
			mn = c
		}
		x := e.top(s.Extent)
		if !cIsAtom(s.Extent) {
			c := e.declare(s.Name + ".extent")
			e.line("const int %s = %s;", c, x)
			x = c
		}
		if loConst && lo == 0 {
			cond = x
		} else {
			cond = mn + " + " + x
		}
	}
	switch s.Kind {
	case ir.Unrolled, ir.Vectorized:
		e.line("#pragma unroll")
	}
	c := e.fresh(s.Name)
	e.open("for (int %s = %s; %s < %s; %s++) {", c, mn, c, cond, c)
	e.scopes[len(e.scopes)-1][c] = true
	restore := e.bindVar(s.Name, c, ir.Int32)
	e.stmt(s.Body)
	restore()
	e.close()
}

func (e *cudaKernelEmitter) ifThenElse(s *ir.IfThenElse) {
	c := e.top(s.Cond)
	e.open("if (%s) {", c)
	e.stmt(s.Then)
	for s.Else != nil {
		el, ok := s.Else.(*ir.IfThenElse)
		if ok && !cHasLet(el.Cond) {
			c := e.top(el.Cond)
			e.pop()
			e.line("} else if (%s) {", c)
			e.push()
			e.stmt(el.Then)
			s = el
			continue
		}
		e.pop()
		e.line("} else {")
		e.push()
		e.stmt(s.Else)
		break
	}
	e.close()
}

func cHasLet(x ir.Expr) bool {
	found := false
	ir.WalkExpr(x, func(x ir.Expr) bool {
		if _, ok := x.(*ir.Let); ok {
			found = true
		}
		return !found
	})
	return found
}

func (e *cudaKernelEmitter) allocate(s *ir.Allocate) {
	if s.Memory == ir.GPUShared {
		// Declared at the top of the body by sharedDecls.
		e.stmt(s.Body)
		return
	}
	n := int64(1)
	for _, x := range s.Extents {
		v, ok := ir.AsInt(ir.Simplify(x))
		if !ok {
			e.fail("allocation %s in %v memory has the non-constant extent %s; per-thread allocations need constant sizes", s.Name, s.Memory, ir.ExprString(x))
		}
		n *= v
	}
	if n <= 0 {
		e.fail("allocation %s has %d elements", s.Name, n)
	}
	c := e.declare(s.Name)
	e.line("%s %s[%d];", cType(s.T), c, n)
	restore := e.bindBuf(s.Name, cBuf{c, s.T, true})
	e.stmt(s.Body)
	restore()
}

func (e *cudaKernelEmitter) store(s *ir.Store) {
	if s.Index == nil || s.Value == nil {
		e.fail("store to %s has a nil index or value", s.Buf)
	}
	b := e.lookupBuf(s.Buf, "store to")
	if !b.written {
		e.fail("store to read-only buffer %s", s.Buf)
	}
	if s.Value.Type() != b.t {
		e.fail("store of a %v value to buffer %s of %v", s.Value.Type(), s.Buf, b.t)
	}
	if s.Atomic && atomicUsesSelf(s.Value, s.Buf, s.Index) {
		e.atomicStore(s, b)
		return
	}
	idx := e.top(s.Index)
	v := e.top(s.Value)
	e.line("%s[%s] = %s;", b.name, idx, v)
}

// atomicSelf reports whether x is a load of element index of buf.
func atomicSelf(x ir.Expr, buf string, index ir.Expr) bool {
	l, ok := x.(*ir.Load)
	return ok && l.Buf == buf && ir.Equal(l.Index, index)
}

func atomicUsesSelf(x ir.Expr, buf string, index ir.Expr) bool {
	found := false
	ir.WalkExpr(x, func(x ir.Expr) bool {
		if atomicSelf(x, buf, index) {
			found = true
		}
		return !found
	})
	return found
}

func cudaCommutative(op ir.BinOp) bool {
	switch op {
	case ir.Add, ir.Mul, ir.Min, ir.Max, ir.And, ir.Or:
		return true
	}
	return false
}

// atomicStore emits an atomic read-modify-write of buf[index]: a CUDA
// atomic where one computes the value, a helper with a compare-and-swap
// loop for other operators, and an inline compare-and-swap loop for any
// other expression of the old value.
func (e *cudaKernelEmitter) atomicStore(s *ir.Store, b cBuf) {
	t := b.t
	if bin, ok := s.Value.(*ir.Binary); ok && cudaOpWord[bin.Op] != "" {
		var x ir.Expr
		switch {
		case atomicSelf(bin.A, s.Buf, s.Index) && !atomicUsesSelf(bin.B, s.Buf, s.Index):
			x = bin.B
		case cudaCommutative(bin.Op) && atomicSelf(bin.B, s.Buf, s.Index) && !atomicUsesSelf(bin.A, s.Buf, s.Index):
			x = bin.A
		}
		if x != nil {
			idx := e.top(s.Index)
			xs, xp := e.expr(x)
			ptr := fmt.Sprintf("&%s[%s]", b.name, idx)
			native := func(fn string) {
				e.line("%s(%s, %s);", fn, ptr, xs)
			}
			switch {
			case bin.Op == ir.Add && (t == ir.Int32 || t == ir.UInt32 || t == ir.UInt64 || t.IsFloat()):
				native("atomicAdd")
			case bin.Op == ir.Add && t == ir.Int64:
				e.line("atomicAdd((unsigned long long *)%s, (unsigned long long)%s);", ptr, cParen(xs, xp, cPrecUnary))
			case bin.Op == ir.Sub && (t == ir.Int32 || t == ir.UInt32):
				native("atomicSub")
			case bin.Op == ir.Sub && t.IsFloat():
				// a - x is a + (-x) exactly in IEEE arithmetic.
				e.line("atomicAdd(%s, -%s);", ptr, cParen(xs, xp, cPrecUnary))
			case (bin.Op == ir.Min || bin.Op == ir.Max) && (t == ir.Int32 || t == ir.UInt32 || t == ir.Int64 || t == ir.UInt64):
				if bin.Op == ir.Min {
					native("atomicMin")
				} else {
					native("atomicMax")
				}
			default:
				native(e.m.use(fmt.Sprintf("gh_atomic_%s_%s", cudaOpWord[bin.Op], cTypeSuffix(t))))
			}
			return
		}
	}
	// Any other function of the old value: an inline compare-and-swap loop.
	idx := e.top(s.Index)
	ct := cType(t)
	e.comment(fmt.Sprintf("atomic update of %s[%s]", b.name, idx))
	e.open("{")
	ptr := e.declare(s.Buf + ".ptr")
	old := e.declare(s.Buf + ".old")
	nw := e.declare(s.Buf + ".new")
	e.line("%s *%s = &%s[%s];", ct, ptr, b.name, idx)
	e.line("%s %s = *%s;", ct, old, ptr)
	e.line("%s %s;", ct, nw)
	e.open("do {")
	e.tmp++
	oldName := fmt.Sprintf("#old%d", e.tmp)
	restore := e.bindVar(oldName, old, t)
	var repl func(ir.Expr) ir.Expr
	repl = func(x ir.Expr) ir.Expr {
		if atomicSelf(x, s.Buf, s.Index) {
			return &ir.Var{T: t, Name: oldName}
		}
		return ir.MapExpr(x, repl)
	}
	v := e.top(repl(s.Value))
	restore()
	e.line("%s = %s;", nw, v)
	e.pop()
	e.line("} while (!%s(%s, &%s, %s));", e.m.use("gh_cas_"+cTypeSuffix(t)), ptr, old, nw)
	e.close()
}

// ---------------------------------------------------------------------------
// Expressions.

// top emits x where any expression may stand (an initializer, an index, a
// condition).
func (e *cudaKernelEmitter) top(x ir.Expr) string {
	s, _ := e.expr(x)
	return s
}

// operand emits x as an operand needing precedence at least need.
func (e *cudaKernelEmitter) operand(x ir.Expr, need int) string {
	s, p := e.expr(x)
	return cParen(s, p, need)
}

// conditional emits x as C evaluates only sometimes.
func (e *cudaKernelEmitter) conditional(x ir.Expr, need int) string {
	e.cond++
	defer func() { e.cond-- }()
	return e.operand(x, need)
}

func (e *cudaKernelEmitter) expr(x ir.Expr) (string, int) {
	switch x := x.(type) {
	case nil:
		e.fail("nil expression")
	case *ir.IntImm:
		if x.T.IsFloat() {
			e.fail("integer constant %d has type %v", x.V, x.T)
		}
		return cIntLiteral(x.T, x.V)
	case *ir.FloatImm:
		if !x.T.IsFloat() {
			e.fail("float constant %v has type %v", x.V, x.T)
		}
		return cFloatLiteral(x.T, x.V)
	case *ir.Var:
		l := e.vars[x.Name]
		if len(l) == 0 {
			e.fail("variable %s is not bound: it is not an argument, a loop variable, a let or a thread or block index", x.Name)
		}
		b := l[len(l)-1]
		if b.t != x.T {
			return e.cast(b.name, cPrecPostfix, b.t, x.T)
		}
		return b.name, cPrecPostfix
	case *ir.Cast:
		s, p := e.expr(x.X)
		return e.cast(s, p, x.X.Type(), x.T)
	case *ir.Binary:
		return e.binary(x)
	case *ir.Not:
		return "!" + e.operand(x.X, cPrecUnary), cPrecUnary
	case *ir.Select:
		if x.True.Type() != x.False.Type() {
			e.fail("select arms have types %v and %v", x.True.Type(), x.False.Type())
		}
		c := e.operand(x.Cond, cPrecCond+1)
		a := e.conditional(x.True, cPrecCond+1)
		b := e.conditional(x.False, cPrecCond)
		return c + " ? " + a + " : " + b, cPrecCond
	case *ir.Call:
		return e.call(x)
	case *ir.Load:
		b := e.lookupBuf(x.Buf, "load of")
		if b.t != x.T {
			e.fail("load of %v from buffer %s of %v", x.T, x.Buf, b.t)
		}
		return b.name + "[" + e.top(x.Index) + "]", cPrecPostfix
	case *ir.Let:
		if e.cond > 0 {
			return e.letLambda(x), cPrecPostfix
		}
		if !ir.Uses(x.Body, x.Name) {
			return e.expr(x.Body)
		}
		v := e.top(x.Value)
		c := e.declare(x.Name)
		e.line("const %s %s = %s;", cType(x.Value.Type()), c, v)
		restore := e.bindVar(x.Name, c, x.Value.Type())
		defer restore()
		return e.expr(x.Body)
	}
	e.fail("cannot emit expression %T", x)
	return "", 0
}

// letLambda emits a Let that C must evaluate conditionally as an
// immediately invoked lambda, whose statements are the hoisted lets.
func (e *cudaKernelEmitter) letLambda(x *ir.Let) string {
	saved, savedCond, savedIndent := e.lines, e.cond, e.indent
	e.lines, e.cond = nil, 0
	e.push()
	body := e.top(x)
	inner := e.lines
	e.pop()
	e.lines, e.cond, e.indent = saved, savedCond, savedIndent
	var b strings.Builder
	fmt.Fprintf(&b, "[&]() -> %s { ", cType(x.Type()))
	for _, l := range inner {
		b.WriteString(l.text + " ")
	}
	fmt.Fprintf(&b, "return %s; }()", body)
	return b.String()
}

// cast converts the C expression s (precedence p) of type from to type to,
// with the CPU executor's rules.
func (e *cudaKernelEmitter) cast(s string, p int, from, to ir.Type) (string, int) {
	if from == to {
		return s, p
	}
	ct := cType(to)
	if from.IsFloat() && to.IsIntOrUInt() {
		return e.m.use("gh_to"+cTypeSuffix(to)+"_"+cTypeSuffix(from)) + "(" + s + ")", cPrecPostfix
	}
	return "(" + ct + ")" + cParen(s, p, cPrecUnary), cPrecUnary
}

func (e *cudaKernelEmitter) binary(x *ir.Binary) (string, int) {
	t := x.A.Type()
	if x.B.Type() != t {
		e.fail("operands of %v have types %v and %v: %s", x.Op, t, x.B.Type(), ir.ExprString(x))
	}
	op := x.Op
	switch {
	case op == ir.And || op == ir.Or:
		if t.IsFloat() {
			e.fail("operands of %v have type %v", op, t)
		}
		prec, sym := cPrecAnd, " && "
		if op == ir.Or {
			prec, sym = cPrecOr, " || "
		}
		// && inside || gets parentheses, for the reader.
		a := e.operand(x.A, cPrecAnd+1)
		b := e.conditional(x.B, cPrecAnd+1)
		return a + sym + b, prec
	case op.IsComparison():
		prec := cPrecRel
		if op == ir.EQ || op == ir.NE {
			prec = cPrecEq
		}
		return e.operand(x.A, prec+1) + " " + op.String() + " " + e.operand(x.B, prec+1), prec
	case t.IsFloat():
		sfx := cTypeSuffix(t)
		switch op {
		case ir.Add, ir.Sub:
			return e.additive(x, t)
		case ir.Mul:
			if e.m.opts.Contract {
				return e.operand(x.A, cPrecMul) + " * " + e.operand(x.B, cPrecMul+1), cPrecMul
			}
			fn := "__fmul_rn"
			if t.Bits == 64 {
				fn = "__dmul_rn"
			}
			return fn + "(" + e.top(x.A) + ", " + e.top(x.B) + ")", cPrecPostfix
		case ir.Div:
			b := e.operand(x.B, cPrecMul+1)
			if k, ok := x.B.(*ir.FloatImm); ok && k.V == 0 {
				// The same zero, which the compiler does not warn about.
				b = cZeroBits(k)
			}
			return e.operand(x.A, cPrecMul) + " / " + b, cPrecMul
		case ir.Mod, ir.Min, ir.Max:
			return e.m.use("gh_"+cudaOpWord[op]+"_"+sfx) + "(" + e.top(x.A) + ", " + e.top(x.B) + ")", cPrecPostfix
		}
	default: // integers and bools
		ct := cType(t)
		switch op {
		case ir.Add, ir.Sub, ir.Mul:
			if !cNarrow(t) {
				if op == ir.Mul {
					return e.operand(x.A, cPrecMul) + " * " + e.operand(x.B, cPrecMul+1), cPrecMul
				}
				return e.additive(x, t)
			}
			// C computes in int: cast back to wrap as the CPU does.
			var a string
			switch op {
			case ir.Add, ir.Sub:
				s, _ := e.additive(x, t)
				return "(" + ct + ")(" + s + ")", cPrecUnary
			case ir.Mul:
				if t == ir.UInt16 {
					// 65535 * 65535 overflows int: multiply unsigned.
					a = "(unsigned int)" + e.operand(x.A, cPrecUnary)
				} else {
					a = e.operand(x.A, cPrecMul)
				}
			}
			return "(" + ct + ")(" + a + " * " + e.operand(x.B, cPrecMul+1) + ")", cPrecUnary
		case ir.Div, ir.Mod:
			if k, ok := ir.AsInt(x.B); ok && k != 0 && t.IsUInt() {
				sym := " / "
				if op == ir.Mod {
					sym = " % "
				}
				return e.operand(x.A, cPrecMul) + sym + e.operand(x.B, cPrecMul+1), cPrecMul
			}
			// By a positive power of two 2^n, Euclidean division rounds
			// down: an arithmetic shift, and the modulo in [0, 2^n) a
			// mask, for either sign of a (two's complement). Not for
			// a negative divisor (the quotient rounds up). No helper,
			// no branches, which keeps the index arithmetic of the
			// cooperative loads cheap enough for nvcc to recompute
			// rather than keep live (or spill).
			if k, ok := ir.AsInt(x.B); ok && k > 0 && k&(k-1) == 0 && (t == ir.Int32 || t == ir.Int64) {
				if op == ir.Div {
					return e.operand(x.A, cPrecMul+1) + " >> " + strconv.Itoa(bits.TrailingZeros64(uint64(k))), cPrecShift
				}
				return e.operand(x.A, cPrecMul+1) + " & " + strconv.FormatInt(k-1, 10), cPrecBitAnd
			}
			ht := t
			switch {
			case t.IsBool():
				ht = ir.UInt32
			case cNarrow(t) && t.IsInt():
				ht = ir.Int32
			case cNarrow(t):
				ht = ir.UInt32
			}
			call := e.m.use("gh_"+cudaOpWord[op]+"_"+cTypeSuffix(ht)) + "(" + e.top(x.A) + ", " + e.top(x.B) + ")"
			if ht != t {
				return "(" + ct + ")" + call, cPrecUnary
			}
			return call, cPrecPostfix
		case ir.Min, ir.Max:
			return cudaOpWord[op] + "(" + e.top(x.A) + ", " + e.top(x.B) + ")", cPrecPostfix
		}
	}
	e.fail("cannot emit operator %v on %v", op, t)
	return "", 0
}

// additive emits Add and Sub of signed integers and floats, writing
// a + -k as a - k (the same value in these types; narrow types are cast
// back by the caller).
func (e *cudaKernelEmitter) additive(x *ir.Binary, t ir.Type) (string, int) {
	op := x.Op
	b := x.B
	switch k := b.(type) {
	case *ir.IntImm:
		if t.IsInt() && k.V < 0 && k.V != t.Min() {
			b = &ir.IntImm{T: k.T, V: -k.V}
			op = ir.Add + ir.Sub - op
		}
	case *ir.FloatImm:
		if k.V < 0 || k.V == 0 && math.Signbit(k.V) {
			b = &ir.FloatImm{T: k.T, V: -k.V}
			op = ir.Add + ir.Sub - op
		}
	}
	return e.operand(x.A, cPrecAdd) + " " + op.String() + " " + e.operand(b, cPrecAdd+1), cPrecAdd
}

// cZeroBits spells a float zero through its bits.
func cZeroBits(k *ir.FloatImm) string {
	neg := math.Signbit(k.V)
	switch {
	case k.T.Bits == 32 && neg:
		return "__int_as_float(0x80000000)"
	case k.T.Bits == 32:
		return "__int_as_float(0)"
	case neg:
		return "__longlong_as_double(0x8000000000000000ull)"
	}
	return "__longlong_as_double(0ll)"
}

func (e *cudaKernelEmitter) call(x *ir.Call) (string, int) {
	switch x.Kind {
	case ir.CallFunc:
		e.fail("expression is not lowered: found call to Func %s", x.Name)
	case ir.CallImage:
		e.fail("expression is not lowered: found call to image %s", x.Name)
	case ir.CallIntrinsic:
	default:
		e.fail("unknown call kind %d of %s", x.Kind, x.Name)
	}
	nargs := map[string]int{
		ir.IntrinsicAbs: 1, ir.IntrinsicSqrt: 1, ir.IntrinsicExp: 1, ir.IntrinsicLog: 1,
		ir.IntrinsicPow: 2, ir.IntrinsicFloor: 1, ir.IntrinsicCeil: 1, ir.IntrinsicRound: 1,
		ir.IntrinsicPromiseClamped: 3, ir.IntrinsicUnsafePromiseClamped: 3, ir.IntrinsicLikely: 1,
	}
	n, ok := nargs[x.Name]
	if !ok {
		e.fail("unknown intrinsic %s", x.Name)
	}
	if len(x.Args) != n {
		e.fail("intrinsic %s takes %d arguments, got %d", x.Name, n, len(x.Args))
	}
	a0 := x.Args[0]
	switch x.Name {
	case ir.IntrinsicLikely, ir.IntrinsicUnsafePromiseClamped:
		s, p := e.expr(a0)
		return e.cast(s, p, a0.Type(), x.T)
	case ir.IntrinsicPromiseClamped:
		s, p := e.expr(ir.MinE(ir.MaxE(a0, x.Args[1]), x.Args[2]))
		return e.cast(s, p, a0.Type(), x.T)
	case ir.IntrinsicAbs:
		at := a0.Type()
		switch {
		case at.IsFloat():
			fn := "fabsf"
			if at.Bits == 64 {
				fn = "fabs"
			}
			return e.cast(fn+"("+e.top(a0)+")", cPrecPostfix, at, x.T)
		case at.IsInt():
			return e.cast(e.m.use("gh_abs_i64")+"("+e.top(a0)+")", cPrecPostfix, ir.Int64, x.T)
		}
		s, p := e.expr(a0)
		return e.cast(s, p, at, x.T)
	}
	// Float math. The CPU computes in float64 and rounds to the type; for a
	// float32 sqrt, floor, ceil and round the float functions give the same
	// result.
	same := true
	for _, a := range x.Args {
		same = same && a.Type() == x.T
	}
	if same && x.T == ir.Float32 {
		fn := map[string]string{ir.IntrinsicSqrt: "sqrtf", ir.IntrinsicFloor: "floorf", ir.IntrinsicCeil: "ceilf", ir.IntrinsicRound: "rintf"}[x.Name]
		if fn != "" {
			return fn + "(" + e.top(a0) + ")", cPrecPostfix
		}
	}
	fn := map[string]string{
		ir.IntrinsicSqrt: "sqrt", ir.IntrinsicExp: "exp", ir.IntrinsicLog: "log", ir.IntrinsicPow: "pow",
		ir.IntrinsicFloor: "floor", ir.IntrinsicCeil: "ceil", ir.IntrinsicRound: "rint",
	}[x.Name]
	args := make([]string, len(x.Args))
	for i, a := range x.Args {
		s, p := e.expr(a)
		if a.Type() != ir.Float64 {
			s, _ = e.cast(s, p, a.Type(), ir.Float64)
		}
		args[i] = s
	}
	return e.cast(fn+"("+strings.Join(args, ", ")+")", cPrecPostfix, ir.Float64, x.T)
}

// ---------------------------------------------------------------------------
// Checking with nvcc.

// PtxasInfo is what ptxas -v reports for one kernel.
type PtxasInfo struct {
	Registers   int   `json:"registers"`
	SharedBytes int64 `json:"shared_bytes"` // static shared memory ("bytes smem")
	ConstBytes  int64 `json:"const_bytes"`  // "bytes cmem[0]": the kernel's parameters
	StackFrame  int64 `json:"stack_bytes"`
	SpillStores int64 `json:"spill_store_bytes"`
	SpillLoads  int64 `json:"spill_load_bytes"`
}

// NVCCPath returns the nvcc to use: the one on PATH, else the one of
// Debian's nvidia-cuda-toolkit, else /usr/local/cuda's.
func NVCCPath() (string, bool) {
	if p, err := exec.LookPath("nvcc"); err == nil {
		return p, true
	}
	for _, p := range []string{"/usr/lib/nvidia-cuda-toolkit/bin/nvcc", "/usr/local/cuda/bin/nvcc"} {
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, true
		}
	}
	return "", false
}

// ErrNoNVCC is returned by CheckWithNVCC when no nvcc is installed.
var ErrNoNVCC = errors.New("nvcc not found (install the CUDA toolkit with scripts/install-cuda-toolkit.sh)")

var (
	ptxasEntry = regexp.MustCompile(`Compiling entry function '([^']+)'`)
	ptxasProps = regexp.MustCompile(`Function properties for (\S+)`)
	ptxasStack = regexp.MustCompile(`(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads`)
	ptxasUsed  = regexp.MustCompile(`Used (\d+) registers`)
	ptxasSmem  = regexp.MustCompile(`(\d+) bytes smem`)
	ptxasCmem  = regexp.MustCompile(`(\d+) bytes cmem\[0\]`)
)

// CheckWithNVCC compiles a translation unit with `nvcc -arch=sm_90 -cubin
// -Xptxas -v` and returns what ptxas reports for each kernel. A compile
// error, or any warning, is an error that quotes nvcc's output. Note that
// ptxas counts only the shared memory the code can reach: an array that is
// never accessed, or only at constant indices, may count for less.
func CheckWithNVCC(src string) (map[string]PtxasInfo, error) {
	nvcc, ok := NVCCPath()
	if !ok {
		return nil, ErrNoNVCC
	}
	dir, err := os.MkdirTemp("", "gohalide-nvcc-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	cu := filepath.Join(dir, "kernels.cu")
	if err := os.WriteFile(cu, []byte(src), 0o644); err != nil {
		return nil, err
	}
	cmd := exec.Command(nvcc, "-arch=sm_90", "-cubin", "-Xptxas", "-v", "-o", filepath.Join(dir, "kernels.cubin"), cu)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	text := string(out)
	if err != nil {
		return nil, fmt.Errorf("nvcc failed: %v\n%s", err, text)
	}
	if strings.Contains(strings.ToLower(text), "warning") {
		return nil, fmt.Errorf("nvcc warned:\n%s", text)
	}
	return parsePtxas(text), nil
}

// parsePtxas reads ptxas -v output: a "Compiling entry function" line, then
// "Function properties" with the stack line, then "Used N registers".
func parsePtxas(text string) map[string]PtxasInfo {
	res := map[string]PtxasInfo{}
	cur := ""
	for _, l := range strings.Split(text, "\n") {
		if m := ptxasEntry.FindStringSubmatch(l); m != nil {
			cur = m[1]
			res[cur] = PtxasInfo{}
			continue
		}
		if m := ptxasProps.FindStringSubmatch(l); m != nil {
			cur = m[1]
			if _, ok := res[cur]; !ok {
				res[cur] = PtxasInfo{}
			}
			continue
		}
		if cur == "" {
			continue
		}
		info := res[cur]
		if m := ptxasStack.FindStringSubmatch(l); m != nil {
			info.StackFrame, _ = strconv.ParseInt(m[1], 10, 64)
			info.SpillStores, _ = strconv.ParseInt(m[2], 10, 64)
			info.SpillLoads, _ = strconv.ParseInt(m[3], 10, 64)
		}
		if m := ptxasUsed.FindStringSubmatch(l); m != nil {
			info.Registers, _ = strconv.Atoi(m[1])
			if m := ptxasSmem.FindStringSubmatch(l); m != nil {
				info.SharedBytes, _ = strconv.ParseInt(m[1], 10, 64)
			}
			if m := ptxasCmem.FindStringSubmatch(l); m != nil {
				info.ConstBytes, _ = strconv.ParseInt(m[1], 10, 64)
			}
		}
		res[cur] = info
	}
	return res
}
