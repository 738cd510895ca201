package algo

import "github.com/gohalide/gohalide/halide"

// GPU schedules of Depthwise, Conv1D and GEMM, translated from TVM
// tutorials (blog posts; "the seed" in the comments below is the tutorial
// a schedule comes from: depthwise: "2D Depth Conv GPU Optimization",
// conv1d: "1D convolution GPU Optimization", GEMM: a GEMM GPU optimization
// post of 2025-04-06), plus a few of our own ("tiled_shared...").
//
// The translation of TVM's directives:
//
//   - bind(axis, blockIdx.*) is GPUBlocks and bind(axis, threadIdx.*) is
//     GPUThreads. TVM binds by name; here the nesting decides: the
//     innermost block (thread) loop is x, the next y, so the schedules
//     Reorder to get TVM's assignment.
//   - split, fuse, reorder and unroll are the same directives. TVM's T.likely
//     guards are GuardWithIf tails.
//   - cache_read(X, "shared", [C]) + compute_at(s[C], ko) is a wrapper of X
//     (Func.In / ImageParam.In, or the algorithm's AIn / BIn copies, which
//     exist for exactly this) computed at loop ko with StoreIn(GPUShared).
//     TVM then binds the wrapper's loops to the threads by hand; here the
//     block's threads produce the shared region together on their own
//     (cooperative production), and barriers are inserted automatically.
//   - cache_write(C, "local") is a Func computed inside the thread loops and
//     stored in Register. GEMM and Depthwise have one (Prod, Conv: the
//     reduction, whose consumer is the output copy); Conv1D's output Func
//     is itself the reduction, so it has none (see Conv1D's v4).
//   - TVM's vthread has no equivalent; none of these tutorials uses it.
//
// Every stage of a Func is scheduled on its own: a Func with an update (a
// reduction computed at the root, like Conv1D's output) needs its update
// scheduled too, and becomes two kernels (the pure stage and the update).

// GPUSchedule is a named GPU schedule of an algorithm of type A.
type GPUSchedule[A any] struct {
	// Name is the name in the source ("naive", "v1", ...) or ours
	// ("tiled_shared", ...).
	Name string
	// Apply schedules a freshly built algorithm.
	Apply func(A)
}

// ---------------------------------------------------------------------------
// GEMM
// ---------------------------------------------------------------------------

// In the TVM tutorial C[x, y] has x the row and y the column: x is our I
// and y our J (output[j, i]).

// GEMMGPUSchedules lists GEMM's GPU schedules: those of the seed, then ours.
var GEMMGPUSchedules = []GPUSchedule[*GEMM]{
	{"naive", (*GEMM).GPUScheduleNaive},
	{"v1", (*GEMM).GPUScheduleV1},
	{"v2", (*GEMM).GPUScheduleV2},
	{"v3", (*GEMM).GPUScheduleV3},
	{"tiled_shared", func(g *GEMM) { g.GPUScheduleTiledShared(DefaultGEMMTiling) }},
	{"tiled_shared_acc", func(g *GEMM) { g.GPUScheduleTiledSharedAcc(DefaultGEMMTiling) }},
}

// GPUScheduleNaive is the seed's naive schedule: one block per output
// element (block x = column, block y = row), one thread per block, the whole
// k loop in that thread. Prod, the reduction, is computed at the block level
// there, so it takes one float of shared memory; that one thread produces
// it.
func (g *GEMM) GPUScheduleNaive() {
	g.Output.GPUBlocks(g.J, g.I)
}

// GPUScheduleV1 is the seed's v1: rows split by 32, the outer part block x,
// the column block y, the inner rows the 32 threads of a block (thread x).
// Prod is computed per thread, in a register.
func (g *GEMM) GPUScheduleV1() {
	io, ii := halide.NewVar("io"), halide.NewVar("ii")
	g.Output.Split(g.I, io, ii, 32, halide.GuardWithIf).
		Reorder(ii, io, g.J).
		GPUBlocks(io, g.J).
		GPUThreads(ii)
	g.Prod.ComputeAt(g.Output, ii).StoreIn(halide.Register)
}

// GPUScheduleV2 is the seed's v2: 32x32 tiles of C per block, one thread
// per element (thread x = the row within the tile, as in the seed, thread y
// the column), Prod in a register.
func (g *GEMM) GPUScheduleV2() {
	g.threadPerElement(32)
}

// threadPerElement is v2's and v3's mapping: n x n tiles of C per block,
// one thread per element (thread x the row within the tile, thread y the
// column), Prod computed per thread, in a register.
func (g *GEMM) threadPerElement(n int) {
	io, ii := halide.NewVar("io"), halide.NewVar("ii")
	jo, ji := halide.NewVar("jo"), halide.NewVar("ji")
	g.Output.Split(g.I, io, ii, n, halide.GuardWithIf).
		Split(g.J, jo, ji, n, halide.GuardWithIf).
		Reorder(ii, ji, io, jo).
		GPUBlocks(io, jo).
		GPUThreads(ii, ji)
	g.Prod.ComputeAt(g.Output, ii).StoreIn(halide.Register)
}

// GPUScheduleV3 is the seed's v3: 16x16 tiles of C per block, a thread per
// element with its accumulator (Prod) in a register, the k loop split into
// steps of 8, and for each step the 16x8 tile of A and the 8x16 tile of B
// staged in shared memory (AIn and BIn computed at the step loop ko): 128
// floats each, loaded by the block's 256 threads together; barriers after
// the loads and before the next step overwrites them.
func (g *GEMM) GPUScheduleV3() {
	ko, ki := halide.NewRVar("ko"), halide.NewRVar("ki")
	g.threadPerElement(16)
	// Prod's own loops over j and i (one point per thread) go inside the
	// step loop: a loop that contains barriers must have the same bounds
	// in every thread.
	g.Prod.Update(0).Split(g.R, ko, ki, 8, halide.GuardWithIf).Reorder(ki, g.J, g.I, ko)
	g.stageTiles(g.Prod, ko, 0)
}

// GEMMTiling are the factors of GPUScheduleTiledShared.
type GEMMTiling struct {
	// BlockJ x BlockI is the tile of C (columns x rows) of one block.
	BlockJ, BlockI int
	// RegJ x RegI is the tile of C of one thread (its accumulators); the
	// block has (BlockJ/RegJ) x (BlockI/RegI) threads.
	RegJ, RegI int
	// KStep is the number of k values per step: the A tile of one step is
	// BlockI x KStep and the B tile KStep x BlockJ.
	KStep int
	// Vec, if not 0, is the number of consecutive elements (2 or 4) each
	// thread loads at a time when the block loads its A and B tiles
	// (Vectorize): one float4 from global memory and one into shared
	// memory where the rows are aligned. KStep and BlockJ must be
	// multiples of it.
	Vec int
}

// DefaultGEMMTiling is a 64x64 block tile, 4x4 per thread (16x16 = 256
// threads) and steps of 8: A and B tiles of 512 floats each.
var DefaultGEMMTiling = GEMMTiling{BlockJ: 64, BlockI: 64, RegJ: 4, RegI: 4, KStep: 8}

// GPUScheduleTiledShared is a register-tiled, shared-memory GEMM:
//
//   - a block computes a BlockJ x BlockI tile of C (block x over columns,
//     block y over rows); its threads form a (BlockJ/RegJ) x (BlockI/RegI)
//     grid (thread x over columns, so consecutive threads read consecutive
//     columns of B), and each thread computes a RegJ x RegI tile;
//   - the thread's tile of accumulators is Prod, computed at the innermost
//     thread loop and stored in Register, its pure and update loops over the
//     tile unrolled (the tile loops of the output too);
//   - the k loop of Prod's update is split into steps of KStep: a serial
//     loop outside the unrolled tile loops, ki inside it (unrolled);
//   - AIn and BIn are computed at the step loop and stored in GPUShared:
//     the union of what the block's threads need for one step, a BlockI x
//     KStep tile of A and a KStep x BlockJ tile of B, loaded by the block's
//     threads together, with a barrier after the loads and one at the end
//     of the step (before the next step overwrites the tiles).
//
// The step loop is a serial loop that every thread runs with the same
// bounds, so the barriers inside it are reached by all threads. It sits
// inside the thread loops of the loop nest rather than between the block
// and thread loops: the accumulators persist across steps, and a Func in
// registers belongs to one thread, so it must be computed inside the
// thread loops, together with its whole reduction. In the generated kernel
// (SPMD: one thread runs one iteration of the thread loops) that is the
// same code: each thread runs the step loop, the block loads the tiles
// together at each step.
//
// Sizes that are not multiples of the tiles are handled by GuardWithIf
// tails: thread-dependent guards wrap the loads and stores, never the
// barriers.
func (g *GEMM) GPUScheduleTiledShared(t GEMMTiling) {
	tj := halide.NewVar("tj")
	ko, ki := halide.NewRVar("ko"), halide.NewRVar("ki")
	tileGEMM(g.Output.Bound(g.J, 0, g.N).Bound(g.I, 0, g.M).Stage(0), g.J, g.I, t, halide.ShiftInwards)
	g.Prod.ComputeAt(g.Output, tj).StoreIn(halide.Register).
		Unroll(g.J).
		Unroll(g.I)
	g.Prod.Update(0).
		Split(g.R, ko, ki, t.KStep, halide.GuardWithIf).
		Reorder(g.J, g.I, ki, ko).
		Unroll(g.J).
		Unroll(g.I).
		Unroll(ki)
	g.stageTiles(g.Prod, ko, t.Vec)
}

// stageTiles computes the A and B tiles of one k step in shared memory at
// loop ko of f (the block's threads load them together), vec elements per
// thread at a time if vec is not 0 (GEMMTiling.Vec).
func (g *GEMM) stageTiles(f *halide.Func, ko halide.VarOrRVar, vec int) {
	g.AIn.ComputeAt(f, ko).StoreIn(halide.GPUShared)
	g.BIn.ComputeAt(f, ko).StoreIn(halide.GPUShared)
	if vec > 0 {
		g.AIn.Vectorize(g.Kv, vec)
		g.BIn.Vectorize(g.J, vec)
	}
}

// tileGEMM splits s, a stage of a GEMM's output over (j, i), into the
// tiles of t: BlockJ x BlockI block tiles (jo, io, the block loops, their
// tails by tail) of RegJ x RegI points per thread (tj, ti, the thread
// loops; jr, ir, unrolled). outer are loops of s outside the tiles (block
// loops too).
func tileGEMM(s *halide.Stage, j, i halide.Var, t GEMMTiling, tail halide.TailStrategy, outer ...halide.VarOrRVar) *halide.Stage {
	jo, jt, tj, jr := halide.NewVar("jo"), halide.NewVar("jt"), halide.NewVar("tj"), halide.NewVar("jr")
	io, it, ti, ir := halide.NewVar("io"), halide.NewVar("it"), halide.NewVar("ti"), halide.NewVar("ir")
	return s.Split(j, jo, jt, t.BlockJ, tail).
		Split(i, io, it, t.BlockI, tail).
		Split(jt, tj, jr, t.RegJ).
		Split(it, ti, ir, t.RegI).
		Reorder(append([]halide.VarOrRVar{jr, ir, tj, ti, jo, io}, outer...)...).
		GPUBlocks(append([]halide.VarOrRVar{jo, io}, outer...)...).
		GPUThreads(tj, ti).
		Unroll(jr).
		Unroll(ir)
}

// GPUScheduleTiledSharedAcc is GPUScheduleTiledShared with the step loop
// literally between the block and thread loops: Prod is computed at the
// block level (the innermost block loop of the output) and so stored in
// GPUShared, BlockJ x BlockI floats for the block (the accumulators of all
// its threads); its pure stage and its update have their own thread loops
// (the same RegJ x RegI tile per thread as the output's), and the update's
// step loop ko is outside them, so AIn and BIn, computed at ko, are
// produced at the block level, by the block's threads together. The
// block-level accumulators cost BlockJ x BlockI floats of shared memory
// (16 KB for 64x64) and shared-memory traffic for every multiply-add; the
// register form above is the one to use. The tile loops of Prod's update
// are not unrolled here: unrolled, every unrolled statement gets a
// barrier (see tests/gpu/apps_test.go).
func (g *GEMM) GPUScheduleTiledSharedAcc(t GEMMTiling) {
	jo, tj, jr := halide.NewVar("jo"), halide.NewVar("tj"), halide.NewVar("jr")
	ti, ir := halide.NewVar("ti"), halide.NewVar("ir")
	ko, ki := halide.NewRVar("ko"), halide.NewRVar("ki")
	tileGEMM(g.Output.Stage(0), g.J, g.I, t, halide.ShiftInwards)
	g.Prod.ComputeAt(g.Output, jo).StoreIn(halide.GPUShared).
		Split(g.J, tj, jr, t.RegJ).
		Split(g.I, ti, ir, t.RegI).
		Reorder(jr, ir, tj, ti).
		GPUThreads(tj, ti)
	g.Prod.Update(0).
		Split(g.R, ko, ki, t.KStep, halide.GuardWithIf).
		Split(g.J, tj, jr, t.RegJ).
		Split(g.I, ti, ir, t.RegI).
		Reorder(jr, ir, ki, tj, ti, ko).
		GPUThreads(tj, ti)
	g.stageTiles(g.Prod, ko, 0)
}

// ---------------------------------------------------------------------------
// Conv1D
// ---------------------------------------------------------------------------

// The seed's naive schedule binds the output to blocks, like v1, on another
// algorithm (a reduction over all of a, M+N-1 terms, with an if_then_else);
// Conv1D is v1's algorithm (the reduction over the kernel), so the naive
// schedule would be v1's and is left out.
//
// Conv1D's output Func is the reduction itself (Output[i] = 0, then
// Output[i] += ...), so each schedule schedules both stages; they become two
// kernels (TVM's one kernel initializes and accumulates in the same
// thread).

// Conv1DGPUSchedules lists Conv1D's GPU schedules, named as in the seed.
var Conv1DGPUSchedules = []GPUSchedule[*Conv1D]{
	{"v1", (*Conv1D).GPUScheduleV1},
	{"v2", (*Conv1D).GPUScheduleV2},
	{"v3", (*Conv1D).GPUScheduleV3},
	{"v4", (*Conv1D).GPUScheduleV4},
	{"v5", (*Conv1D).GPUScheduleV5},
}

// GPUScheduleV1 is the seed's v1: one block per output element, one
// thread, the kernel loop r in that thread.
func (v *Conv1D) GPUScheduleV1() {
	v.Output.GPUBlocks(v.I)
	v.Output.Update(0).GPUBlocks(v.I)
}

// GPUScheduleV2 is the seed's v2: the output split by 8, blocks of 8
// threads, a thread per output element.
func (v *Conv1D) GPUScheduleV2() {
	bi, ti := halide.NewVar("bi"), halide.NewVar("ti")
	v.Output.GPUTile1D(v.I, bi, ti, 8, halide.GuardWithIf)
	v.Output.Update(0).GPUTile1D(v.I, bi, ti, 8, halide.GuardWithIf)
}

// GPUScheduleV3 is the seed's v3: the output split by 16 per block, the 16
// split again into 4 x 4 threads (thread x the inner 4, thread y the outer).
func (v *Conv1D) GPUScheduleV3() {
	bi, t, ty, tx := halide.NewVar("bi"), halide.NewVar("t"), halide.NewVar("ty"), halide.NewVar("tx")
	for _, s := range []*halide.Stage{v.Output.Stage(0), v.Output.Update(0)} {
		s.Split(v.I, bi, t, 16, halide.GuardWithIf).
			Split(t, ty, tx, 4).
			GPUBlocks(bi).
			GPUThreads(tx, ty)
	}
}

// GPUScheduleV4 is the seed's v4: blocks of 32 threads, the kernel loop
// split into steps of 4 (ro outer, ri inner), and the 4 kernel taps of a
// step staged in shared memory (BIn, the copy of b, computed at ro: TVM's
// W_shared), loaded by the block's threads together.
//
// TVM's C_local (cache_write: the accumulator in a register, written to
// the output once) has no counterpart: the output Func is the reduction,
// so the update accumulates into the output buffer, as in v1 to v3.
func (v *Conv1D) GPUScheduleV4() {
	bi, ti := halide.NewVar("bi"), halide.NewVar("ti")
	ro, ri := halide.NewRVar("ro"), halide.NewRVar("ri")
	v.Output.GPUTile1D(v.I, bi, ti, 32, halide.GuardWithIf)
	v.Output.Update(0).
		Split(v.R, ro, ri, 4, halide.GuardWithIf).
		GPUTile1D(v.I, bi, ti, 32, halide.GuardWithIf)
	v.BIn.ComputeAt(v.Output, ro).StoreIn(halide.GPUShared)
}

// GPUScheduleV5 is the seed's v5: v4 with 2-D threads (the 32 outputs of a
// block as 8 x 4 threads: thread x the inner 4), steps of 8 taps (8 floats
// of shared memory) and the taps of a step unrolled. As in v4, there is no
// C_local.
func (v *Conv1D) GPUScheduleV5() {
	bi, t, ty, tx := halide.NewVar("bi"), halide.NewVar("t"), halide.NewVar("ty"), halide.NewVar("tx")
	ro, ri := halide.NewRVar("ro"), halide.NewRVar("ri")
	v.Output.Split(v.I, bi, t, 32, halide.GuardWithIf).
		Split(t, ty, tx, 4).
		GPUBlocks(bi).
		GPUThreads(tx, ty)
	v.Output.Update(0).
		Split(v.R, ro, ri, 8, halide.GuardWithIf).
		Split(v.I, bi, t, 32, halide.GuardWithIf).
		Split(t, ty, tx, 4).
		GPUBlocks(bi).
		GPUThreads(tx, ty).
		Unroll(ri)
	v.BIn.ComputeAt(v.Output, ro).StoreIn(halide.GPUShared)
}

// ---------------------------------------------------------------------------
// Depthwise
// ---------------------------------------------------------------------------

// In the TVM tutorial the output is out[b, c, h, w]: b is our Bv, c our
// Cv, h our Y and w our X. Padded is inline (TVM's compute_inline) in all
// of them; Conv (the reduction) is computed at the output's innermost loop
// (the default): in a register when that loop is a thread loop or inside
// one, at the block level (in shared memory) when the kernel has no thread
// loops.

// DepthwiseGPUSchedules lists Depthwise's GPU schedules: those of the
// seed, then ours.
var DepthwiseGPUSchedules = []GPUSchedule[*Depthwise]{
	{"naive", (*Depthwise).GPUScheduleNaive},
	{"v1", (*Depthwise).GPUScheduleV1},
	{"v2", (*Depthwise).GPUScheduleV2},
	{"v3", (*Depthwise).GPUScheduleV3},
	{"v4", (*Depthwise).GPUScheduleV4},
	{"tiled_shared", (*Depthwise).GPUScheduleTiledShared},
}

// GPUScheduleNaive is the seed's naive schedule: one block per image (block
// x = b), one thread running the loops over c, h and w.
func (d *Depthwise) GPUScheduleNaive() {
	d.Output.GPUBlocks(d.Bv)
}

// GPUScheduleV1 is the seed's v1: a block per (image, channel), block x = b
// and block y = c, one thread running the loops over h and w.
func (d *Depthwise) GPUScheduleV1() {
	d.Output.Reorder(d.X, d.Y, d.Bv, d.Cv).GPUBlocks(d.Bv, d.Cv)
}

// GPUScheduleV2 is the seed's v2: b and c fused into block x, the row h
// block y, one thread running the loop over w.
func (d *Depthwise) GPUScheduleV2() {
	bc := halide.NewVar("bc")
	d.Output.Fuse(d.Cv, d.Bv, bc).
		Reorder(d.X, bc, d.Y).
		GPUBlocks(bc, d.Y)
}

// GPUScheduleV3 is the seed's v3: (b, c) fused into block x, h and w split
// by 16; the outer h is block y, the inner h thread y and the inner w
// thread x; the outer w is a serial loop, between the thread loops as in
// the seed's IR (thread y, then for w_outer, then thread x).
func (d *Depthwise) GPUScheduleV3() {
	bc := halide.NewVar("bc")
	yo, yi, xo, xi := halide.NewVar("yo"), halide.NewVar("yi"), halide.NewVar("xo"), halide.NewVar("xi")
	d.Output.Fuse(d.Cv, d.Bv, bc).
		Split(d.Y, yo, yi, 16, halide.GuardWithIf).
		Split(d.X, xo, xi, 16, halide.GuardWithIf).
		Reorder(xi, xo, yi, bc, yo).
		GPUBlocks(bc, yo).
		GPUThreads(xi, yi)
}

// GPUScheduleV4 is the seed's v4: as v3, with the outer h and w fused into
// block y, so a block is one 16x16 tile of one channel of one image (block
// x = the fused (b, c)).
func (d *Depthwise) GPUScheduleV4() {
	d.v4(16)
}

func (d *Depthwise) v4(tile int) (bc, hw halide.Var) {
	bc, hw = halide.NewVar("bc"), halide.NewVar("hw")
	yo, yi, xo, xi := halide.NewVar("yo"), halide.NewVar("yi"), halide.NewVar("xo"), halide.NewVar("xi")
	d.Output.Fuse(d.Cv, d.Bv, bc).
		Split(d.Y, yo, yi, tile, halide.GuardWithIf).
		Split(d.X, xo, xi, tile, halide.GuardWithIf).
		Reorder(xi, yi, xo, yo).
		Fuse(xo, yo, hw).
		Reorder(xi, yi, bc, hw).
		GPUBlocks(bc, hw).
		GPUThreads(xi, yi)
	return bc, hw
}

// GPUScheduleTiledShared is ours: v4's blocks and threads, with the
// block's input tile and its halo ((16+K-1)^2 floats, the padded input
// through a wrapper) and the channel's K x K weights (a wrapper of the
// weight input) staged in shared memory at the block level, loaded by the
// block's threads together; one barrier after the loads.
func (d *Depthwise) GPUScheduleTiledShared() {
	bc, _ := d.v4(16)
	d.Padded.In(d.Conv).ComputeAt(d.Output, bc).StoreIn(halide.GPUShared)
	d.Weight.In(d.Conv).ComputeAt(d.Output, bc).StoreIn(halide.GPUShared)
}
