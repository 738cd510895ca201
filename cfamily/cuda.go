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
//   - Float division is correctly rounded (no fast math). A float32
//     division by a constant of a converted 8- or 16-bit integer (a
//     pixel / 65535.0f) is a multiply by the reciprocal and one FMA
//     correction (gh_divc_f32), used only where every value the integer
//     can take was checked to give the division's bits (divconst.go).
//   - Float min and max are Go's math.Min / math.Max (a -Inf / +Inf operand
//     wins, then NaN propagates, -0 < +0): gh_min_f32 and friends, not fminf.
//     Float Mod is a - b*floor(a/b) computed in double, as the CPU does.
//   - sqrt, floor, ceil and round (half to even: rintf) of a float32 are
//     computed in float (exactly the double result rounded); exp, log and
//     pow are computed in double and rounded, as the CPU does.
//   - Float16 and BFloat16 values are unsigned short in memory and float
//     in expressions: gh_load_f16 converts bits to float (exact),
//     gh_round_f16 rounds every result back (ties to even), gh_store_f16
//     converts a float to bits (bf16 likewise). The helpers are package
//     half's bit algorithms, bit for bit; since every 16-bit result is
//     rounded, contraction into FMAs cannot change one.
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
	"fmt"
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
// aligned 32-bit word that holds them; a 16-bit float's new value is
// computed in float from its old bits and rounded once, as a plain store
// of the same expression is.
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
	defer recoverEmit(&err, "")
	m := &module{d: CUDA, contract: opts.Contract, helpers: map[string]helper{}}
	var bodies []string
	names := map[string]bool{}
	for _, k := range kernels {
		if k == nil {
			return "", emitErr("", "nil kernel")
		}
		text, name, err := m.kernel(k)
		if err != nil {
			return "", err
		}
		if names[name] {
			return "", emitErr(k.Name, "two kernels are named %s", name)
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
	defer recoverEmit(&err, cudaKernelName(k))
	if k == nil {
		return info, emitErr("", "nil kernel")
	}
	return cudaInfo(k)
}

func cudaKernelName(k *ir.Kernel) string {
	if k == nil {
		return ""
	}
	return k.Name
}

// emitError carries an emission error through panics inside the emitter.
type emitError struct{ err *ir.Error }

func emitErr(kernel, format string, args ...any) *ir.Error {
	msg := fmt.Sprintf(format, args...)
	if kernel != "" {
		msg = "kernel " + kernel + ": " + msg
	}
	return &ir.Error{Code: ir.ErrInternal, Directive: "CUDA emission", Msg: msg}
}

func recoverEmit(err *error, kernel string) {
	r := recover()
	if r == nil {
		return
	}
	if ce, ok := r.(emitError); ok {
		*err = ce.err
		return
	}
	*err = emitErr(kernel, "internal error: %v", r)
}

// ---------------------------------------------------------------------------
// Shared memory: where the kernel's GPUShared arrays go.

func cudaInfo(k *ir.Kernel) (CUDAKernelInfo, error) {
	// The contract (ir.Kernel.Verify), then the record's facts: the
	// emitter recomputes none of them.
	if err := k.Verify(); err != nil {
		panic(emitError{emitErr(k.Name, "%v", err)})
	}
	k = k.Recorded()
	info := CUDAKernelInfo{Name: cIdent(CUDA, k.Name), Threads: k.Threads()}
	if k.Block == [3]ir.Expr{} {
		info.Threads = 0
	}
	var static, dynamic []CUDASharedArray
	for _, a := range k.Allocs {
		if a.Memory != ir.GPUShared || a.PerBlock {
			continue
		}
		if a.Dynamic {
			dynamic = append(dynamic, CUDASharedArray{Name: a.Func, T: a.T, Dynamic: true, Size: a.Size, Offset: a.DynOffset})
		} else {
			static = append(static, CUDASharedArray{Name: a.Func, T: a.T, Elems: a.Elems, Offset: ir.Int(a.Offset)})
		}
	}
	// In memory order: the static arrays by offset in the pool, the
	// dynamic ones in the order ir.LayoutDynamic placed them.
	sort.SliceStable(static, func(i, j int) bool {
		oi, _ := ir.AsInt(static[i].Offset)
		oj, _ := ir.AsInt(static[j].Offset)
		return oi < oj
	})
	sort.SliceStable(dynamic, func(i, j int) bool { return dynamic[i].T.Bytes() > dynamic[j].T.Bytes() })
	info.Shared = append(static, dynamic...)
	info.StaticSharedBytes = k.SharedBytes
	info.DynamicSharedBytes = k.DynamicSharedBytes
	return info, nil
}

// kernel emits one kernel and returns its text and C name.
func (m *module) kernel(k *ir.Kernel) (text, name string, err error) {
	defer recoverEmit(&err, k.Name)
	info, err := cudaInfo(k)
	if err != nil {
		return "", "", err
	}
	e := newPrinter(m, k.Name)
	e.strict = hasStrictFloat(k.Body)
	name = info.Name

	// Arguments.
	_, stored := ir.Accesses(k.Body)
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
			// A 16-bit float argument is passed as a float (cValueType).
			params = append(params, fmt.Sprintf("const %s %s", cValueType(a.T), c))
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
	if k.Case != nil {
		// One case of a specialization: the host chooses the case.
		fmt.Fprintf(&b, "// Launched when %s (a case of a specialization).\n", ir.ExprString(k.Case))
	}
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
func (e *printer) sharedDecls(info CUDAKernelInfo) {
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
			e.line("__shared__ __align__(%d) unsigned char %s[%d];", ir.SharedPoolAlign, pool, info.StaticSharedBytes)
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
			e.line("extern __shared__ __align__(%d) unsigned char %s[];", ir.SharedPoolAlign, dyn)
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
// The CUDA dialect.

// CUDA is the CUDA C++ dialect: what NVRTC and nvcc compile.
var CUDA Dialect = cudaDialect{}

type cudaDialect struct{}

func (cudaDialect) Name() string { return "CUDA" }

func (cudaDialect) HelperPrefix() string { return "static __device__ __forceinline__ " }

// cudaReserved are CUDA's built-in variables and the atomics the generated
// code calls, and the name of the dynamic shared memory array.
var cudaReserved = map[string]bool{
	"threadIdx": true, "blockIdx": true, "blockDim": true, "gridDim": true, "warpSize": true,
	"atomicAdd": true, "atomicSub": true, "atomicMin": true, "atomicMax": true, "atomicCAS": true, "atomicExch": true,
	"dynamic_shared": true,
}

func (cudaDialect) Reserved(name string) bool { return cudaReserved[name] }

// FloatBits reinterprets an integer constant: __int_as_float for float32,
// __longlong_as_double for float64 (an unsigned literal when the sign bit
// is set).
func (cudaDialect) FloatBits(t ir.Type, bits uint64) string {
	if t.Bits == 32 {
		if bits == 0 {
			return "__int_as_float(0)"
		}
		return fmt.Sprintf("__int_as_float(0x%08x)", uint32(bits))
	}
	switch {
	case bits == 0:
		return "__longlong_as_double(0ll)"
	case bits>>63 != 0:
		return fmt.Sprintf("__longlong_as_double(0x%016xull)", bits)
	}
	return fmt.Sprintf("__longlong_as_double(0x%016xll)", bits)
}

// RoundedOp: __fmul_rn, __dmul_rn and __dsub_rn, which nvcc never
// contracts into an FMA.
func (cudaDialect) RoundedOp(op ir.BinOp, t ir.Type) string {
	switch {
	case op == ir.Mul && t == ir.Float32:
		return "__fmul_rn"
	case op == ir.Mul && t == ir.Float64:
		return "__dmul_rn"
	case op == ir.Sub && t == ir.Float64:
		return "__dsub_rn"
	}
	return ""
}

func (cudaDialect) Barrier() string { return "__syncthreads();" }

func (cudaDialect) Trap() string { return "__trap();" }

// Prefetch: PTX's prefetch.global.L2 of the 128-byte line holding addr
// (a hint; the line goes to L2, which every SM shares).
func (cudaDialect) Prefetch(addr string) (string, int) {
	return fmt.Sprintf("asm volatile(\"prefetch.global.L2 [%%0];\" :: \"l\"(%s));", addr), 128
}

func (cudaDialect) Unroll() string { return "#pragma unroll" }

// VectorType is the CUDA vector type of n lanes of t ("" when there is
// none): float2, float4, int2, int4, uint2, uint4, double2.
func (cudaDialect) VectorType(t ir.Type, n int) string {
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

// LetExpr is an immediately invoked C++ lambda that captures by reference.
func (cudaDialect) LetExpr(ct string, stmts []string, result string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[&]() -> %s { ", ct)
	for _, st := range stmts {
		b.WriteString(st + " ")
	}
	fmt.Fprintf(&b, "return %s; }()", result)
	return b.String()
}

// Atomic uses CUDA's atomicAdd, atomicSub, atomicMin and atomicMax where
// they exist for t (an int64 add through the unsigned 64-bit one, which
// wraps the same; a float subtraction as the addition of the negation,
// exact in IEEE arithmetic).
func (cudaDialect) Atomic(op ir.BinOp, t ir.Type, ptr, x string, xPrec int) (string, bool) {
	native := func(fn string) (string, bool) { return fmt.Sprintf("%s(%s, %s);", fn, ptr, x), true }
	switch {
	case op == ir.Add && (t == ir.Int32 || t == ir.UInt32 || t == ir.UInt64 || t.IsFloat()):
		return native("atomicAdd")
	case op == ir.Add && t == ir.Int64:
		return fmt.Sprintf("atomicAdd((unsigned long long *)%s, (unsigned long long)%s);", ptr, cParen(x, xPrec, cPrecUnary)), true
	case op == ir.Sub && (t == ir.Int32 || t == ir.UInt32):
		return native("atomicSub")
	case op == ir.Sub && t.IsFloat():
		return fmt.Sprintf("atomicAdd(%s, -%s);", ptr, cParen(x, xPrec, cPrecUnary)), true
	case op == ir.Min && (t == ir.Int32 || t == ir.UInt32 || t == ir.Int64 || t == ir.UInt64):
		return native("atomicMin")
	case op == ir.Max && (t == ir.Int32 || t == ir.UInt32 || t == ir.Int64 || t == ir.UInt64):
		return native("atomicMax")
	}
	return "", false
}

// CASHelper writes gh_cas_T(T *p, T *expected, T desired): a
// compare-and-swap on the bits of *p (atomicCAS), which stores desired and
// returns true when *p holds *expected, and otherwise loads *p into
// *expected and returns false.
// ReadOnlyLoad loads through __ldg. A plain load of a const __restrict__
// argument would be compiled to the same read-only (non-coherent) load,
// but as an ordinary load it may be merged with another: nvcc turns
// cond ? out[i] : in[j] into one load from the selected address, and then
// loads out[i], which the kernel writes, through the non-coherent cache
// too (a stale value: a random program computed 92 for 184 on an H200).
// __ldg is an intrinsic the compiler does not merge with a plain load.
// __ldg has no bool overload: a bool is loaded as its byte.
func (cudaDialect) ReadOnlyLoad(t ir.Type, buf, index string) string {
	if t == ir.Bool {
		return fmt.Sprintf("(bool)__ldg((const unsigned char *)&%s[%s])", buf, index)
	}
	return fmt.Sprintf("__ldg(&%s[%s])", buf, index)
}

func (d cudaDialect) CASHelper(name string, t ir.Type) string {
	c := cType(t)
	head := fmt.Sprintf(`// Compare-and-swap on the bits of *p: if *p is *expected, store desired and
// return true; otherwise load *p into *expected and return false.
%sbool %s(%s *p, %s *expected, %s desired) {
`, d.HelperPrefix(), name, c, c, c)
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

// BitCount uses the CUDA integer intrinsics __popc, __popcll, __clz and
// __clzll (a zero has 32 or 64 leading zeros).
func (cudaDialect) BitCount(clz, wide bool, x string) string {
	switch {
	case clz && wide:
		return "__clzll((long long)(" + x + "))"
	case clz:
		return "__clz((int)(" + x + "))"
	case wide:
		return "__popcll(" + x + ")"
	}
	return "__popc(" + x + ")"
}

// cudaBitCasts are the CUDA bit-cast intrinsics (__float_as_int and the
// like), by the types they reinterpret from and to.
var cudaBitCasts = map[[2]ir.Type]string{
	{ir.Float32, ir.Int32}:  "__float_as_int(%s)",
	{ir.Float32, ir.UInt32}: "__float_as_uint(%s)",
	{ir.Int32, ir.Float32}:  "__int_as_float(%s)",
	{ir.UInt32, ir.Float32}: "__uint_as_float(%s)",
	{ir.Float64, ir.Int64}:  "__double_as_longlong(%s)",
	{ir.Float64, ir.UInt64}: "(unsigned long long)__double_as_longlong(%s)",
}

// Reinterpret uses the CUDA bit-cast intrinsics (cudaBitCasts; any
// integer to float64 through long long).
func (cudaDialect) Reinterpret(from, to ir.Type, x string) string {
	if f, ok := cudaBitCasts[[2]ir.Type{from, to}]; ok {
		return fmt.Sprintf(f, x)
	}
	if from.IsIntOrUInt() && to == ir.Float64 {
		return "__longlong_as_double((long long)(" + x + "))"
	}
	panic(emitError{emitErr("", "CUDA cannot reinterpret %v as %v", from, to)})
}

// ShuffleDown is __shfl_down_sync with the full mask: every lane of the
// warp takes part (lowering never puts a shuffle under a thread-dependent
// condition; the lanes past a partial warp's end are not read). The
// intrinsic has int, unsigned, long long, unsigned long long, float and
// double forms; narrower integers and bools go through int.
func (cudaDialect) ShuffleDown(ct, x string, delta int64) string {
	switch ct {
	case "int", "unsigned int", "long long", "unsigned long long", "float", "double":
		return fmt.Sprintf("__shfl_down_sync(0xffffffffu, %s, %d)", x, delta)
	}
	return fmt.Sprintf("(%s)__shfl_down_sync(0xffffffffu, (int)(%s), %d)", ct, x, delta)
}

// hasStrictFloat reports whether s holds a strict_float call.
func hasStrictFloat(s ir.Stmt) bool {
	found := false
	ir.WalkStmt(s, func(ir.Stmt) bool { return !found }, func(x ir.Expr) bool {
		if c, ok := x.(*ir.Call); ok && c.Kind == ir.CallIntrinsic && c.Name == ir.IntrinsicStrictFloat {
			found = true
		}
		return !found
	})
	return found
}
