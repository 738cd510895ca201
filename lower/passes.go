package lower

import (
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gohalide/gohalide/bounds"
	"github.com/gohalide/gohalide/ir"
)

// Pass is one step of lowering.
type Pass struct {
	Name string
	Run  func(*State) error
	// Summary says in a line what the pass does (the package comment's
	// list is made from it; its file's opening comment says more).
	Summary string
}

// Passes is the pass table, in the order Lower runs it: the one home of
// the pass order. PassOrder gives each constraint on it a reason;
// TestPassOrder checks the table against them, TestPassHeaders each pass
// file's "Before:" against them, and TestPassDoc the package comment's
// list against the table.
var Passes = []Pass{
	{"inline_functions", inlineFunctions, "substitute Funcs computed inline into their consumers"},
	{"compute_with_levels", computeWithLevels, "a Func computed at a loop of a compute_with fusion is computed at the innermost fused loop, and a fused partner that reads it reads a copy computed at its own"},
	{"validate_schedules", validateSchedules, "check directives that need the whole pipeline; an update's RVar loops keep the algorithm's order unless the moved iterations are independent (rvar_order.go)"},
	{"schedule_functions", scheduleFunctions, "build the loop nest: splits, fuses, reorders, tails, compute/store levels"},
	{"validate_gpu", validateGPU, "check the GPU loop structure (block and thread loops); no atomic update that needs a lock in a kernel"},
	{"gpu_memory", gpuMemory, "decide the memory of each realization inside a kernel (shared, registers, a global copy per block)"},
	{"gpu_uniform_loops", gpuUniformLoops, "start at zero the serial loops between a thread loop and a shared production, so all threads run the same iterations"},
	{"bounds_inference", boundsInference, "define the region each stage computes (f.s0.x.min/max, at the top of its loop level, in terms of its consumers' regions) and check input and output bounds; a shared Func computed inside thread loops gets the union over the block's threads; a Func called in an index bounds it by its definitions' values"},
	{"gpu_register_ownership", gpuRegisterOwnership, "prove that each thread reads back only its own points of a Func stored in registers at the block level; index the array per thread (local coordinates)"},
	{"sliding_window", slidingWindow, "a Func stored outside the serial loops it is computed in computes only the part of its region earlier iterations did not (the region's min moves up, one dimension per loop)"},
	{"compute_with", computeWith, "fuse the outer loops of the stages joined by compute_with (each group's productions adjacent, each Func's stages in order), each body guarded by its own range (loops lined up by their LoopAlignStrategy)"},
	{"allocation_bounds", allocationBounds, "size each realization from the region its body touches; Auto memory outside kernels becomes Stack or Heap"},
	{"storage_folding", storageFolding, "fold the storage of a Func whose window moves along one serial loop to the window (a power of two, or FoldStorage's extent); refuse an unsafe FoldStorage"},
	{"prefetch", prefetch, "put each prefetch directive at the top of its loop: the region of its source the loop from reads offset iterations later, clamped to or guarded by the source's storage"},
	{"storage_flattening", storageFlattening, "multi-dimensional Funcs and buffers to flat allocations, loads and stores; the run-time size check of host allocations known only at run time; an atomic Tuple update whose values read one another under one lock"},
	{"hoist_storage", hoistStorage, "allocate a Func scheduled HoistStorage at its hoist level, sized for every realization inside; its min and stride lets stay at the store level"},
	{"unroll_loops", unrollLoops, "replicate unrolled loops; check vectorized loops have constant extents"},
	{"simplify", simplify, "simplify the whole statement"},
	{"gpu_registers", gpuRegisters, "constant indices for register arrays (so they stay in registers)"},
	{"gpu_block_size", gpuBlockSize, "decide each kernel's block size and the thread dimension of each thread loop"},
	{"gpu_cooperative", gpuCooperative, "deal the production of a shared Func out to the block's threads"},
	{"gpu_barriers", gpuBarriers, "barriers between the block's threads where they share data"},
	{"gpu_thread_reduce", gpuThreadReduce, "an associative update whose RVar loop is a thread or lanes loop becomes an all-reduce (warp shuffles, then the warps through shared memory); lanes loops are checked"},
	{"gpu_thread_loops", gpuThreadLoops, "thread loops to SPMD lets and guards, guards pushed off barriers"},
	{"gpu_kernels", gpuKernels, "extract kernels: grid, block, shared allocations at the top, arguments"},
	{"gpu_shared_reuse", gpuSharedReuse, "one static shared pool per kernel; Funcs whose lifetimes do not overlap share bytes"},
	{"gpu_partition", gpuPartition, "a steady state per kernel: tail guards true for every thread of a block dropped there"},
	{"common_loads", commonLoads, "in kernels: unique binding names, duplicate lets merged, each value loaded once along a straight line until something may change it"},
	{"vector_access", vectorAccess, "in kernels: vectorized loops that store one value per lane become vector loads and stores, aligned by proof or by a run-time test with the loop as the fallback"},
	{"loop_invariants", loopInvariants, "in kernels: the costly values a serial loop does not change (float-to-int conversions, divisions, math functions) computed once before it"},
}

// PassOrder lists the ordering constraints of the pass table: each pair
// {before, after, reason}.
var PassOrder = [][3]string{
	{"inline_functions", "validate_schedules", "schedules are checked on the Funcs that are realized"},
	{"inline_functions", "compute_with_levels", "the levels moved and the copies made are of realized Funcs"},
	{"compute_with_levels", "validate_schedules", "the moved levels and the copies are checked as the user's"},
	{"inline_functions", "schedule_functions", "inlined Funcs get no loops"},
	{"validate_schedules", "schedule_functions", "compute levels must name real loops"},
	{"schedule_functions", "bounds_inference", "bounds are found by walking the loops"},
	{"schedule_functions", "validate_gpu", "GPU rules are checked on the loop nest"},
	{"validate_gpu", "gpu_memory", "memory is decided on a valid GPU nest"},
	{"gpu_memory", "gpu_uniform_loops", "loops around shared realizations are found by their memory"},
	{"gpu_memory", "bounds_inference", "shared regions are unions over the block's threads"},
	{"gpu_uniform_loops", "bounds_inference", "shared regions are unions over the threads at one uniform iteration"},
	{"bounds_inference", "allocation_bounds", "realizations are sized from the regions"},
	{"bounds_inference", "sliding_window", "a sliding Func's region lets are what it rewrites"},
	{"gpu_register_ownership", "sliding_window", "each thread's register points are worked out from the regions as bounds_inference left them"},
	{"sliding_window", "allocation_bounds", "storage covers what every iteration reads, sliding or not"},
	{"sliding_window", "compute_with", "the fused loops' bounds are the stages' final regions"},
	{"compute_with", "allocation_bounds", "storage is sized from the fused loops"},
	{"compute_with", "storage_folding", "the window of one iteration is worked out on the fused loops"},
	{"bounds_inference", "gpu_register_ownership", "each thread's points are worked out from the regions its stages compute"},
	{"gpu_memory", "gpu_register_ownership", "the Funcs stored in registers are known by their memory"},
	{"gpu_register_ownership", "allocation_bounds", "a block-level register array is sized from one thread's points, in its local coordinates"},
	{"allocation_bounds", "storage_flattening", "flattening needs each realization's box"},
	{"allocation_bounds", "prefetch", "a Func's prefetch is fitted to its realization's box"},
	{"storage_folding", "prefetch", "a folded Func is not prefetched (its box wraps around the fold)"},
	{"prefetch", "storage_flattening", "the prefetched box becomes a flat index and strides, as the loads do"},
	{"allocation_bounds", "storage_folding", "a fold must be smaller than the box it replaces"},
	{"sliding_window", "storage_folding", "the window of one iteration is what a sliding Func computes and reads there"},
	{"storage_folding", "storage_flattening", "folded dimensions are indexed modulo the fold"},
	{"storage_flattening", "unroll_loops", "unrolling copies flat loads and stores"},
	{"storage_flattening", "hoist_storage", "the flat allocation moves; the min and stride lets stay at the store level"},
	{"hoist_storage", "unroll_loops", "an unrolled loop's copies share the one hoisted allocation"},
	{"unroll_loops", "simplify", "simplify cleans up after the loop passes"},
	{"simplify", "gpu_cooperative", "the GPU passes see simplified loops (extent-1 loops gone)"},
	{"unroll_loops", "gpu_registers", "register indices become constant once the tile loops are unrolled"},
	{"simplify", "gpu_registers", "a constant index is one the simplifier folded"},
	{"unroll_loops", "gpu_block_size", "thread loops have their final extents"},
	{"simplify", "gpu_block_size", "thread loops have their final extents"},
	{"storage_flattening", "gpu_cooperative", "the productions dealt out are flat stores"},
	{"gpu_block_size", "gpu_cooperative", "productions are dealt out to the block's threads"},
	{"gpu_cooperative", "gpu_barriers", "barriers separate the shared productions from their consumers"},
	{"gpu_barriers", "gpu_thread_loops", "barriers are placed while the thread loops are explicit"},
	{"gpu_block_size", "gpu_thread_reduce", "an all-reduce runs along thread dimension x of a block whose size is known"},
	{"gpu_barriers", "gpu_thread_reduce", "the all-reduce places its own barriers; its shared slots are not a Func whose accesses gpu_barriers tracks"},
	{"gpu_thread_reduce", "gpu_thread_loops", "the all-reduce covers the thread loop's whole block dimension, so it gets no guard, and its shuffles are kept out of the guards"},
	{"gpu_block_size", "gpu_thread_loops", "each thread loop's dimension and the block's size decide its index and guard"},
	{"gpu_thread_loops", "gpu_kernels", "kernels are extracted in SPMD form with their block size known"},
	{"gpu_kernels", "gpu_shared_reuse", "lifetimes are positions in the extracted kernel body, with its shared allocations hoisted and Kernel.Allocs filled"},
	{"gpu_barriers", "gpu_shared_reuse", "two Funcs may share bytes only across a barrier"},
	{"gpu_shared_reuse", "gpu_partition", "the pool's layout holds in both branches of a partitioned body (same order of statements); lifetimes are read on the unpartitioned body"},
	{"gpu_partition", "common_loads", "each branch of a partitioned body is its own straight line; the steady state's loads are no longer under guards"},
	{"gpu_cooperative", "vector_access", "a shared production keeps its vectorized loop whole, one thread's lanes"},
	{"common_loads", "vector_access", "its lets are final and it does not know vector marks other than its own"},
	{"common_loads", "loop_invariants", "bindings are unique, so a name means one value in the loop"},
	{"vector_access", "loop_invariants", "the loops' bodies are final; vector loads and stores keep their shape"},
}

// Options control Lower.
type Options struct {
	// Context, if set, stops lowering when it is done: Lower returns an
	// ErrCanceled error (see State.checkStop).
	Context context.Context
	// Debug is the logging level: 0 none, 1 pass names and times, 2 also
	// the statement after each pass, 3 also sub-steps. When zero, the
	// environment variable GOHALIDE_DEBUG is read.
	Debug int
	// Log receives the debug output (default os.Stderr).
	Log io.Writer
	// Verify runs the IR verifier after every pass.
	Verify bool
	// StopAfter, if set, stops lowering after the pass of that name (for
	// inspecting intermediate IR).
	StopAfter string
	// Limits are the limits of the device GPU kernels are lowered for
	// (zero: ir.SM90).
	Limits ir.DeviceLimits
	// QueryInputs names the inputs whose region read Result.InputQueries
	// works out (output_query.go).
	QueryInputs []string
}

// State is what the passes share.
type State struct {
	P *Pipeline
	// Funcs are the Functions still to be realized after inlining, by name.
	Funcs map[string]*ir.Function
	// Order lists the Funcs that are realized (not inlined), producers first.
	Order []string
	// Stmt is the statement built so far (nil before schedule_functions).
	Stmt ir.Stmt
	// LoopNest is the loop nest as printed after schedule_functions.
	LoopNest string
	// Kernels are the kernels gpu_kernels extracted, in order.
	Kernels []*ir.Kernel
	// Stage tracks what has been done, for the verifier.
	boundsDone, flattened, sharedLaidOut bool

	tails []tailCheck
	// outputQuery is the output bounds query bounds_inference builds
	// (output_query.go).
	outputQuery ir.Stmt
	// queryInputs and inputQueries are Options.QueryInputs and the
	// queries bounds_inference builds for them.
	queryInputs  []string
	inputQueries map[string]ir.Stmt
	// failChecks are the host's checks that some case of each stage with
	// a specialize_fail holds (specialize.go); bounds_inference puts them
	// first.
	failChecks []ir.Stmt
	// specConds are the conditions of the specialization ifs
	// schedule_functions built (specialize.go); bounds_inference checks
	// the buffers for each way they may go (case_checks.go).
	specConds []ir.Expr
	// promised are the input bounds users promised, by buffer variable.
	promised map[string]ir.Expr
	// kernels is the record of each kernel before gpu_kernels extracts
	// it, by its outermost block loop: its block (gpu_block_size) and its
	// single-thread stages (gpu_cooperative).
	kernels map[string]*ir.Kernel
	// limits are the device's (Options.Limits).
	limits ir.DeviceLimits
	debug  int
	log    io.Writer
	ctx    context.Context
	// values bounds the values of the Funcs whose definitions bound them
	// (bounds.FuncValue keys; funcValueScope), the scope of every region
	// and box from bounds_inference on: a Func called in an index (a
	// histogram's bin) bounds the index.
	values bounds.Scope
	// slid are the Funcs sliding_window made slide; slidAlong holds, for
	// each, the names of the loops it slid along.
	slid      map[string]bool
	slidAlong map[string]map[string]bool
	// caseConds are the conditions under which the kernels of the cases
	// of specializations launch, by their outermost block loop
	// (schedule_functions, separateCaseKernels); gpu_kernels records them.
	caseConds map[string]ir.Expr
}

// afterPass, when set (by a test), is called after each pass with
// whether Lower found it unchanged.
var afterPass func(pass string, st *State, unchanged bool)

// recordsText prints the kernel records before extraction (st.kernels,
// what gpu_block_size and gpu_cooperative decide) for the debug log.
func recordsText(records map[string]*ir.Kernel) string {
	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(records)) {
		k := records[name]
		var loops []string
		for _, l := range slices.Sorted(maps.Keys(k.ThreadDims)) {
			loops = append(loops, fmt.Sprintf("%s:%s", l, "xyz"[k.ThreadDims[l]:k.ThreadDims[l]+1]))
		}
		fmt.Fprintf(&b, "kernel record %s: block (%s, %s, %s), thread loops %s", name, ir.ExprString(k.Block[0]), ir.ExprString(k.Block[1]), ir.ExprString(k.Block[2]), strings.Join(loops, " "))
		if len(k.SingleThread) > 0 {
			fmt.Fprintf(&b, ", single-thread stages %s", strings.Join(k.SingleThread, " "))
		}
		if len(k.Shares) > 0 {
			fmt.Fprintf(&b, ", share loops %s", strings.Join(slices.Sorted(maps.Keys(k.Shares)), " "))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// stopped is the panic value with which a pass deep in its work gives up
// when the context is done; Lower turns it into an ErrCanceled error.
type stopped struct{ err error }

// checkStop gives up the lowering (see stopped) when its context is done.
// Passes call it once per unit of work that can take long (a Func, a
// production, an allocation, a kernel).
func (s *State) checkStop() {
	if s.ctx != nil {
		if err := s.ctx.Err(); err != nil {
			panic(stopped{err})
		}
	}
}

func (s *State) logf(level int, format string, args ...any) {
	if s.debug >= level {
		fmt.Fprintf(s.log, format, args...)
	}
}

// Result is a lowered pipeline.
type Result struct {
	Stmt     ir.Stmt
	LoopNest string
	Output   string
	// OutputType and OutputDims describe the output buffer.
	OutputType ir.Type
	OutputDims int
	// OutputTypes are the types of a Tuple output's values, one buffer
	// each (named ir.TupleElem(Output, i)); nil for an output of one value.
	OutputTypes []ir.Type
	Inputs      []Input
	Params      []Param
	// Kernels are the GPU kernels the host statement launches.
	Kernels []*ir.Kernel
	// OutputQuery is a host statement that writes, for the output buffer,
	// Params and inputs it is run with, the region of the output the
	// pipeline writes to OutputQueryBuffer (output_query.go).
	OutputQuery ir.Stmt
	// InputQueries holds, for each input of Options.QueryInputs whose
	// query could be built, a host statement that widens the region in
	// InputQueryBuffer to cover what the pipeline reads of the input, for
	// the output buffer, Params and other inputs it is run with. An input
	// missing here has none (its region depends on its own buffer's
	// shape).
	InputQueries map[string]ir.Stmt
}

// Lower runs the pass table on p. Errors a user can cause are *ir.Error
// values; a failed compiler invariant is recovered into an ErrInternal
// error naming the pass.
func Lower(p *Pipeline, opts Options) (res *Result, err error) {
	st := &State{P: p, debug: opts.Debug, log: opts.Log, ctx: opts.Context, limits: opts.Limits.OrDefault(), queryInputs: opts.QueryInputs}
	if st.debug == 0 {
		st.debug, _ = strconv.Atoi(os.Getenv("GOHALIDE_DEBUG"))
	}
	if st.log == nil {
		st.log = os.Stderr
	}
	current := "setup"
	defer func() {
		if r := recover(); r != nil {
			res = nil
			if s, ok := r.(stopped); ok {
				err = &ir.Error{Code: ir.ErrCanceled, Func: p.Output, Directive: "Lower", Msg: fmt.Sprintf("stopped in pass %s: %v", current, s.err), Cause: s.err}
				return
			}
			if tc, ok := r.(bounds.TooComplex); ok {
				err = ir.Errorf(ir.ErrExprTooLarge, tc.Name, strings.ReplaceAll(current, "_", " "), "the region of %s in dimension %d grew past %d nodes: %s is read at too many different places for one region to describe them", tc.Name, tc.Dim, bounds.MaxEndSize, tc.Name).
					WithLegal("compute the Funcs that read %s at the root or at outer loops instead of inline (each then reads it at fewer places), unroll less, or, for a Func, compute it at an outer loop or Bound it", tc.Name)
				return
			}
			err = &ir.Error{Code: ir.ErrInternal, Directive: current,
				Msg: fmt.Sprintf("compiler bug in pass %s: %v\n%s", current, r, debug.Stack())}
		}
	}()
	out, ok := p.Funcs[p.Output]
	if !ok {
		return nil, ir.Errorf(ir.ErrUndefined, p.Output, "Lower", "the output Func is not in the pipeline")
	}
	for _, pass := range Passes {
		current = pass.Name
		st.checkStop()
		before, beforeKernels, beforeRecords := st.Stmt, st.Kernels, maps.Clone(st.kernels)
		start := time.Now()
		if err := pass.Run(st); err != nil {
			return nil, err
		}
		st.logf(1, "lower: %s (%v)\n", pass.Name, time.Since(start))
		// Kernels and records are values, never edited in place: one
		// pointer is one kernel's facts.
		sameRecords := maps.Equal(beforeRecords, st.kernels)
		unchanged := before != nil && before == st.Stmt && slices.Equal(beforeKernels, st.Kernels) && sameRecords
		if afterPass != nil {
			afterPass(pass.Name, st, unchanged)
		}
		if st.debug >= 2 {
			if unchanged {
				st.logf(2, "unchanged\n")
			} else if st.Stmt != nil {
				st.logf(2, "%s\n", ir.StmtString(st.Stmt))
				if !sameRecords {
					st.logf(2, "%s", recordsText(st.kernels))
				}
			}
		}
		if opts.Verify && st.Stmt != nil {
			if err := Verify(st); err != nil {
				return nil, &ir.Error{Code: ir.ErrInternal, Directive: pass.Name, Msg: fmt.Sprintf("IR verifier after pass %s: %v", pass.Name, err)}
			}
		}
		if pass.Name == opts.StopAfter {
			break
		}
	}
	return &Result{
		Stmt: st.Stmt, LoopNest: st.LoopNest, Output: p.Output,
		OutputType: out.T, OutputDims: len(out.Args), OutputTypes: out.Types,
		Inputs: p.Inputs, Params: p.Params, Kernels: st.Kernels,
		OutputQuery: st.outputQuery, InputQueries: st.inputQueries,
	}, nil
}
