package algo

import "github.com/gohalide/gohalide/halide"

// TPFactors are the split factors of the #8427 schedules (reference section
// 1.3): PBlock pairs per GPU block (128), P0 serial pairs per thread (4),
// MBlock output channels per block (32) and C0 channels per step of the c1
// loop (16).
type TPFactors struct{ PBlock, P0, MBlock, C0 int }

// IssueFactors are the factors of the issue.
var IssueFactors = TPFactors{PBlock: 128, P0: 4, MBlock: 32, C0: 16}

// The #8427 schedules on the CPU: GPU block loops become parallel loops
// (the scatter's block loop over pairs is parallel, so the update is
// Atomic) and GPU thread loops serial loops; the splits, reorders and
// compute levels are the issue's. The GPU forms are for the GPU lowering.

// scheduleOutput is the output's schedule: blocks over o (pure stage) and
// over (m, r.y) of the scatter, threads over (m1, p1), r.x a serial outer
// loop.
func (t *TensorProduct) scheduleOutput(f TPFactors) {
	t.Output.Parallel(t.Ov)
	t.tileScatter(f).Parallel(t.R.Y())
}

// tileScatter splits the scatter (atomic, because pairs collide) into the
// issue's tiles, for the CPU and GPU forms alike: MBlock output channels
// (m) x PBlock pairs (r.y), each of m1 channels x p1 pairs (the threads'
// loops) with P0 serial pairs p0 (and m0, of 1) inside, r.x outermost.
// The caller binds the loops.
func (t *TensorProduct) tileScatter(f TPFactors) *halide.Stage {
	ry := t.R.Y()
	p1, p0 := halide.NewRVar("p1"), halide.NewRVar("p0")
	m1, m0 := halide.NewVar("m1"), halide.NewVar("m0")
	return t.Output.Update(0).Atomic().
		Split(ry, ry, p1, f.PBlock, halide.GuardWithIf).
		Split(p1, p1, p0, f.P0, halide.GuardWithIf).
		Split(t.Mv, t.Mv, m1, f.MBlock, halide.GuardWithIf).
		Split(m1, m1, m0, 1).
		Reorder(p0, m0, m1, p1, t.Mv, ry, t.R.X())
}

// scheduleProductAtThread computes Product per (m1, p1) thread, its
// channel loop split into c1 (outer) and c0.
func (t *TensorProduct) scheduleProductAtThread(f TPFactors) {
	c1, c0 := halide.NewRVar("c1"), halide.NewRVar("c0")
	t.Product.ComputeAt(t.Output, halide.NewVar("m1"))
	t.Product.Update(0).Split(t.RC.X(), c1, c0, f.C0, halide.GuardWithIf).Reorder(c0, t.Pv, c1)
}

// ScheduleA is the issue's schedule: GatherWeight computed at Product's c1,
// inside the thread loops.
func (t *TensorProduct) ScheduleA(f TPFactors) {
	t.scheduleOutput(f)
	t.weightAtC1(f).StoreIn(halide.Stack)
}

// ScheduleB computes GatherWeight at the block loop m of the scatter.
func (t *TensorProduct) ScheduleB(f TPFactors) {
	t.scheduleOutput(f)
	t.weightAtM(f)
}

// weightAtC1 is schedules A's Product and GatherWeight, on the CPU and
// the GPU: Product per thread, GatherWeight computed at its c1 (the
// caller picks the memory).
func (t *TensorProduct) weightAtC1(f TPFactors) *halide.Func {
	t.scheduleProductAtThread(f)
	return t.GatherWeight.ComputeAt(t.Product, halide.NewRVar("c1"))
}

// weightAtM is schedules B's: Product per thread, GatherWeight computed at
// the scatter's block loop m.
func (t *TensorProduct) weightAtM(f TPFactors) *halide.Func {
	t.scheduleProductAtThread(f)
	return t.GatherWeight.ComputeAt(t.Output, t.Mv)
}

// ScheduleC is the cooperative form: Product at the block level with its p
// split into po (thread) and pi, the channel loop c1 outside the thread
// loops m and po, and GatherWeight at c1 with its own (thread) loops.
func (t *TensorProduct) ScheduleC(f TPFactors) {
	t.scheduleOutput(f)
	po, pi := halide.NewVar("po"), halide.NewVar("pi")
	c1, c0 := halide.NewRVar("c1"), halide.NewRVar("c0")
	t.Product.ComputeAt(t.Output, t.Mv)
	t.Product.Split(t.Pv, po, pi, f.P0, halide.GuardWithIf)
	t.Product.Update(0).Split(t.RC.X(), c1, c0, f.C0, halide.GuardWithIf).
		Split(t.Pv, po, pi, f.P0, halide.GuardWithIf).
		Reorder(c0, pi, t.Mv, po, c1)
	t.GatherWeight.ComputeAt(t.Product, c1).Reorder(t.Cv, t.Mv)
}

// The GPU forms of the schedules, as in the issue (reference section 1.3).

// gpuOutput is the output's GPU schedule: the pure stage one block per
// output point with a thread per channel; the scatter with blocks over
// (m, r.y) and threads over (m1, p1), atomic because pairs collide.
func (t *TensorProduct) gpuOutput(f TPFactors) {
	// A thread per output channel: the block size is the output's
	// channel count, known at launch.
	t.Output.GPUBlocks(t.Ov).GPUThreads(t.Mv)
	t.tileScatter(f).
		GPUBlocks(t.Mv, t.R.Y()).
		GPUThreads(halide.NewVar("m1"), halide.NewRVar("p1"))
}

// GPUScheduleA is schedule A: Product per thread (computed at m1, a 4x1
// accumulator), GatherWeight computed at Product's c1 — inside the thread
// loops — and stored in GPU shared memory. Halide gives GatherWeight 16384
// floats; the union of what the block's threads need is 16 x 32 = 512.
func (t *TensorProduct) GPUScheduleA(f TPFactors) {
	t.gpuOutput(f)
	t.weightAtC1(f).StoreIn(halide.GPUShared)
}

// GPUScheduleB computes GatherWeight at the block loop m: all 64 channels
// of the block's 32 output channels, 2048 floats.
func (t *TensorProduct) GPUScheduleB(f TPFactors) {
	t.gpuOutput(f)
	t.weightAtM(f).StoreIn(halide.GPUShared)
}

// GPUScheduleC moves c1 between the block and thread loops: Product at the
// block level with threads over (m, po), GatherWeight at c1 with its own
// threads over (m, c): 512 floats, loaded by the block together.
func (t *TensorProduct) GPUScheduleC(f TPFactors) {
	t.gpuOutput(f)
	po, pi := halide.NewVar("po"), halide.NewVar("pi")
	c1, c0 := halide.NewRVar("c1"), halide.NewRVar("c0")
	t.Product.ComputeAt(t.Output, t.Mv)
	t.Product.Split(t.Pv, po, pi, f.P0, halide.GuardWithIf).GPUThreads(t.Mv, po)
	t.Product.Update(0).Split(t.RC.X(), c1, c0, f.C0, halide.GuardWithIf).
		Split(t.Pv, po, pi, f.P0, halide.GuardWithIf).
		Reorder(c0, pi, t.Mv, po, c1).
		GPUThreads(t.Mv, po)
	t.GatherWeight.ComputeAt(t.Product, c1).StoreIn(halide.GPUShared).GPUThreads(t.Mv, t.Cv)
}

// GPUScheduleBest is our schedule for the benchmark size: one launch for
// all kernel offsets (r.x is a block dimension too), blocks of 64 pairs x
// all 64 output channels, 16 x 16 threads each accumulating a 4 x 4
// register tile of Product over the 64 input channels, 4 at a time (the
// shared operands are then read as float4), and both operands of
// the block staged in shared memory by the block's threads together: the
// gathered input rows (GatherInput through a wrapper, 64 pairs x 64
// channels) and the offset's weights (64 x 64). The scatter adds each
// thread's tile with atomics.
func (t *TensorProduct) GPUScheduleBest() { t.GPUScheduleBestTile(64, 4) }

// GPUScheduleBestTile is GPUScheduleBest with blocks of pairs pairs (a
// multiple of 16) and a register tile of 4 m x pv pairs per thread
// (pairs/pv = 16 rows of threads): larger blocks load each offset's
// weights once for more pairs.
func (t *TensorProduct) GPUScheduleBestTile(pairs, pv int) {
	ry, rx := t.R.Y(), t.R.X()
	pb, pt, pvr := halide.NewRVar("pb"), halide.NewRVar("pt"), halide.NewRVar("pv")
	mt, mv := halide.NewVar("mt"), halide.NewVar("mv")
	// The Bound is for speed, not needed for the block size: with the
	// channel count a constant, the m tiles' guards are provably true.
	t.Output.Bound(t.Mv, 0, t.M).GPUBlocks(t.Ov).GPUThreads(t.Mv)
	t.Output.Update(0).Atomic().
		Split(ry, pb, ry, pairs, halide.GuardWithIf).
		Split(ry, pt, pvr, pv, halide.GuardWithIf).
		Split(t.Mv, mt, mv, 4, halide.GuardWithIf).
		Reorder(mv, pvr, mt, pt, pb, rx).
		GPUBlocks(pb, rx).
		GPUThreads(mt, pt).
		Unroll(mv).Unroll(pvr)
	t.Product.ComputeAt(t.Output, mt)
	// Four input channels per step, unrolled: each thread's 4 pairs x 4
	// channels of the input rows and 4 channels x 4 m of the weights are
	// then consecutive in shared memory, 8 float4 loads per step.
	rco, rci := halide.NewRVar("rco"), halide.NewRVar("rci")
	t.Product.Update(0).
		Split(t.RC.X(), rco, rci, 4, halide.GuardWithIf).
		Reorder(t.Mv, t.Pv, rci, rco).
		Unroll(t.Mv).Unroll(t.Pv).Unroll(rci)
	// The weights are stored, and loaded, with m innermost: the threads of
	// a warp (consecutive mt) then read different banks, and the block's
	// cooperative load writes consecutive words. The input rows keep c
	// innermost, so the gather from global memory stays coalesced.
	//
	// Each thread of the cooperative loads takes 4 consecutive elements
	// (Vectorize): a row's 4 channels are one float4 from global memory
	// and one into shared memory; 4 weights of consecutive m, strided in
	// global memory, are 4 loads and one float4 store.
	t.GatherInput.In(t.Product).ComputeAt(t.Output, pb).StoreIn(halide.GPUShared).
		Vectorize(t.Cv, 4)
	t.GatherWeight.ComputeAt(t.Output, pb).StoreIn(halide.GPUShared).
		Reorder(t.Mv, t.Cv, t.Nv).
		ReorderStorage(t.Mv, t.Cv, t.Nv).
		Vectorize(t.Mv, 4)
}
