// Package halide is the user API of gohalide: a Halide-style pipeline
// language for Go.
//
// An algorithm is a set of Funcs over integer coordinates. A Func has a
// pure definition over distinct Vars and any number of update definitions,
// which may reduce over an RDom (restricted by RDom.Where to the points
// where a condition holds) and may write at computed coordinates (a
// scatter). As in Halide, an update's argument that is the bare Var the
// pure definition has in that position is a pure dimension, which the
// update loops over (and may run in parallel); a pure Var may appear in
// other arguments too: with g(x, y) pure, g.Define(x, x).Is(...) loops
// over x alone and writes the diagonal. Every definition after the first
// is an update, even one over the pure Vars that does not read the Func.
// A reduction:
//
//	x, y := halide.NewVar("x"), halide.NewVar("y")
//	r := halide.NewRDom("r", halide.Range(0, 3))
//	blur := halide.NewFunc("blur")
//	blur.Define(x, y).Is(halide.Sum(in.At(x.Add(r), y)).Div(3))
//
// A Func may have several values per point, of possibly different types
// (Halide's Tuple): f.Define(x).Is(NewTuple(a, b)) defines it, a call
// picks a value with f.AtTuple(x).Elem(i), an update gives every value
// again and computes them all from the old ones before storing any, or
// updates one value alone, f.Define(x).Elem(i).PlusEq(e) (Halide's
// f(x)[i] += e), SelectTuple picks value by value by one condition or a
// Tuple of them, MuxTuple by an index, and Argmax and Argmin are
// Tuple-valued reductions. Each value is stored in
// its own buffer (f.0, f.1); RealizeTuple realizes a Tuple output into one
// buffer per value.
//
// Expressions are built with methods (Add, Sub, Mul, Div, Mod, Lt, ...)
// and functions (Min, Max, Clamp, Select, Cast, Sqrt, ...); wherever an
// Expr is expected, a Var, RVar, Param, Go integer (int32) or Go float
// (float32) is accepted. Integer division and modulo are Euclidean, as in
// Halide: the remainder is never negative (-7 / 2 is -4, 7 / -2 is -3,
// 7 % -3 is 1), x / 0 and x % 0 are 0 (see ir.EuclidDiv). Inputs are
// ImageParams (or Buffers used directly) and scalar Params;
// ConstantExterior, RepeatEdge, RepeatImage, MirrorImage and
// MirrorInterior give them boundary conditions, on every dimension or a
// chosen subset (Unbounded); Clamped and UnsafePromiseClamped bound
// data-dependent indices.
//
// The scalar types are Int8 ... Int64, UInt8 ... UInt64, Float16,
// BFloat16, Float32, Float64 and Bool, on every target. Integers wrap;
// Float16 and BFloat16 are computed in float32 and rounded back to
// nearest even after every operation (Halide's rule without native 16-bit
// arithmetic), and a Buffer of either holds F16 or BF16 values (the bits).
// Casts from float to integer truncate toward zero and saturate (NaN
// gives 0). See docs/design.md, "Types".
//
// A schedule says how to compute the algorithm and never changes its
// result: Split (with a TailStrategy), Fuse, Reorder, Tile, Unroll,
// Vectorize and Parallel (with a factor or task size, and UnrollTail,
// VectorizeTail and ParallelTail with a TailStrategy too) shape a stage's
// loops (Func methods apply to the
// pure definition, f.Update(i) to update i); ComputeRoot, ComputeAt and
// ComputeInline say where a Func is computed, StoreAt and StoreIn where it
// is stored, FoldStorage, ReorderStorage, AlignStorage and BoundStorage
// how its storage is laid out and sized, Bound fixes its region,
// AlignBounds and AlignExtent expand it to an aligned min and extent, In
// makes a wrapper that some
// consumers (or, with none named, all) read instead, CloneIn a copy of the
// Func that the consumers named read instead (computed separately),
// NeverPartition keeps a GPU kernel's tail guards in one version of it,
// Prefetch and PrefetchImage fetch what a loop will read a few iterations
// ahead into the cache (CUDA; a hint the CPU skips),
// Atomic makes a colliding scatter safe to run in parallel,
// AllowRaceConditions lets an update's RVar loops run in parallel without
// it (for a scatter to distinct points, or where a race is accepted), and
// RFactor
// splits an associative update into an intermediate Func that reduces
// part of the RDom for each value of the rest (new pure dimensions, which
// can run in parallel or on GPU blocks) and an update that combines the
// partial results; it knows Halide's associative forms (+, *, min, max,
// bitwise ops, argmin and argmax, complex products, a saturating add), and
// keeps an argmin's serial order (see rfactor.go).
// Implicit (Halide's _) stands for a call's remaining coordinates and a
// definition's matching dimensions, so helpers work on Funcs of any
// dimension.
// Specialize(cond) gives a stage a case with a schedule of its own, taken
// when a condition on Params and input shapes holds (tested once per
// production), and SpecializeFail ends the cases with a run-time error.
// A schedule may not change the order in which an update visits its RDom
// (first dimension innermost) where that could change its result: Lower
// refuses a reorder, tile or fuse that swaps two RVars, or the pieces of a
// split one, and a Parallel or GPU RVar loop, unless the moved
// iterations write their own points or the update is f(args) = f(args) op
// e with an associative op (see docs/design.md, validate_schedules);
// RFactor is the way to run such an update's RVars in parallel without
// atomics. A pure var fused with an RVar makes an RVar loop (Halide's
// reorder(x, r).fuse(x, r, rx).atomic().vectorize(rx)).
//
// The output buffer's shape is an expression too: out.Dim(i).Min() and
// .Extent(), out.Width(), out.Height() and out.Channels() (Halide's
// processed.width()) take their values from the buffer given to Realize,
// and may be used in Bound, Specialize conditions and definitions of a
// pipeline whose output is out. GPUSingleThread runs a small stage (a
// color matrix, a scalar) as a GPU kernel of one thread, so that the
// kernels that read it find it on the device. g.ComputeWith(f, v, align...)
// fuses the loops of two Funcs computed at the same level, from the
// outermost down to v (Halide's compute_with, with its LoopAlignStrategy
// per loop: AlignStart, AlignEnd, NoAlign); g.Update(i).ComputeWith(
// f.Update(j), v) fuses update stages, and chains of them fuse several
// Funcs, on the host, in parallel loops or in one GPU kernel.
//
// Names given to NewFunc, NewVar, NewRVar, NewRDom, NewParam and
// NewImageParam must be non-empty and free of '.' and '$', which the
// compiler uses in the names it makes (blur.s0.x, r$x); a bad name is an
// ErrBadName error.
//
// Realize into a buffer smaller than what the schedule writes (an output
// narrower than a ShiftInwards split factor, an extent that is not a
// multiple of a RoundUp one, align_bounds on the output, a scatter past
// it) computes the region written and copies back the part the buffer
// covers, as Halide's realize(sizes) (realize_grow.go); a pipeline whose
// values read the output's shape (Dim, Width) is not grown.
//
// NewPipeline(f, g, ...) has several outputs (Halide's Pipeline({f, g})),
// realized with RealizeTuple into one buffer per value of each output; an
// output another reads is computed first and read from its buffer (see
// outputs.go).
//
// Directives never fail on the spot: the first error is recorded and
// returned, as a *halide.Error with a code, the Func, the directive and what
// would be legal, by the Pipeline methods. A Pipeline shows what a schedule
// does before running it (LoopNest, Lower) and runs it (Realize) on the CPU.
// No mistake a user can make panics the library.
//
// GPU kernels run on a Target: the GPU emulator (the default, on the CPU,
// with race, barrier and bounds checks) or CUDA. Lowered.CUDA prints the
// CUDA C source the CUDA target compiles, Pipeline.Report describes each
// kernel (KernelReport; WriteTable and WriteJSON print them) and
// Pipeline.Benchmark times runs (Timing). The CUDA target's runtime is a
// separate package that registers itself (RegisterCUDA): build with
// -tags cuda and import it,
//
//	import _ "github.com/gohalide/gohalide/cudart"
//
// so that a program that does not use the GPU does not depend on the CUDA
// driver's Go bindings.
package halide
