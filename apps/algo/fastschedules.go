package algo

import "github.com/gohalide/gohalide/halide"

// Fast GPU schedules of depthwise and conv1d (ours, for the apps'
// benchmark sizes on an H100), on two variants of the algorithms that
// compute the same values, and the algorithm of the conv1d seed's naive
// baseline. GEMM's fast schedule is GPUScheduleTiledShared.
//
// What the fast schedules share: threadIdx.x runs along the contiguous
// dimension of the big buffers (coalesced loads and stores); each thread
// computes several consecutive outputs, its accumulators in registers and
// the loops over them unrolled, so that the inputs its outputs share are
// read once; the input a block reuses is staged in shared memory by the
// block's threads together, by thread loops of its own whose bodies are
// unrolled and unguarded (RoundUp), so that nvcc issues each thread's
// global loads back to back, before the first store to shared memory,
// instead of one round trip to DRAM after another; the outputs are Bound
// to the algorithm's size, so the kernels' extents and shared-memory
// strides are constants.

// ---------------------------------------------------------------------------
// Depthwise
// ---------------------------------------------------------------------------

// DepthwiseStaged is Depthwise with its boundary condition written out,
// so that the clamped read of the input is a Func of its own:
//
//	Clamped[x, y, c, b] = input[clamp(x, x0, x1), clamp(y, y0, y1), c, b]
//	Padded[x, y, c, b]  = select(uint32(x - x0) < W && uint32(y - y0) < H, Clamped[x, y, c, b], 0)
//
// ([x0, x1] x [y0, y1] = the input's region, W x H its size), the rest as
// in Depthwise. It computes what Depthwise computes (ConstantExterior is
// this select of a clamped read).
//
// Why: staging Depthwise's Padded (Padded.In(Conv) in shared memory) puts
// ConstantExterior's conditional load, C's lazy `cond ? input[...] : 0`,
// behind each staged element; nvcc compiles it to a branch around the load
// and its 4-D address, so each thread's loads run one after the other, one
// DRAM round trip each, and cost about 30 instructions per element. With
// Clamped computed in registers the loads are unconditional (nvcc issues
// them back to back) and the select is one FSEL per element. The range
// test is one unsigned compare per dimension; written as x0 <= x <= x1,
// bounds inference narrows Clamped's region to the image through the
// select, and a region narrowed that way has no constant size (which
// registers need).
type DepthwiseStaged struct {
	*Depthwise
	// Clamped is the input read at clamped coordinates.
	Clamped *halide.Func
}

// NewDepthwiseStaged builds DepthwiseStaged (see NewDepthwise).
func NewDepthwiseStaged(B, C, H, W, K int) *DepthwiseStaged {
	var clamped *halide.Func
	d := newDepthwise(B, C, H, W, K, func(d *Depthwise) *halide.Func {
		x, y, c, b := d.X, d.Y, d.Cv, d.Bv
		dx, dy := d.Input.Dim(0), d.Input.Dim(1)
		clamped = halide.NewFunc("clamped")
		clamped.Define(x, y, c, b).Is(d.Input.At(halide.Clamp(x, dx.Min(), dx.Max()), halide.Clamp(y, dy.Min(), dy.Max()), c, b))
		inside := halide.Cast(halide.UInt32, x.Sub(dx.Min())).Lt(halide.Cast(halide.UInt32, dx.Extent())).
			And(halide.Cast(halide.UInt32, y.Sub(dy.Min())).Lt(halide.Cast(halide.UInt32, dy.Extent())))
		padded := halide.NewFunc("padded")
		padded.Define(x, y, c, b).Is(halide.Select(inside, clamped.At(x, y, c, b), float32(0)))
		return padded
	})
	return &DepthwiseStaged{Depthwise: d, Clamped: clamped}
}

// DepthwiseTiling are the factors of DepthwiseStaged.GPUScheduleFast.
type DepthwiseTiling struct {
	// TileX is the width of a block's tile (thread x); 0, or W or more,
	// means whole rows.
	TileX int
	// ThreadsY is thread y; each thread computes RowsPerThread consecutive
	// rows, so a block's tile is TileX x (ThreadsY * RowsPerThread).
	ThreadsY, RowsPerThread int
}

// DefaultDepthwiseTiling: whole rows, 2 x 8 rows. At 112 x 112 a block
// computes a 112 x 16 tile (one contiguous span of the output) with 112 x
// 2 threads of 8 outputs each, and stages its 114 x 18 padded tile with
// 114 x 2 threads, 9 rows each. With nvcc 11.8 for sm_90: 40 registers,
// 8.2 KB of shared memory, about 41 instructions per output (9 of them
// FFMA), the 9 loads of a thread issued back to back.
var DefaultDepthwiseTiling = DepthwiseTiling{TileX: 0, ThreadsY: 2, RowsPerThread: 8}

// GPUScheduleFast is ours, for a memory-bound depthwise convolution (at
// K = 3, 18 flops per 8 bytes of DRAM traffic):
//
//   - the output is Bound to the algorithm's size, so every extent in the
//     kernel is a constant;
//   - a block computes a TileX x (ThreadsY*RowsPerThread) tile of one
//     channel of one image: block x = the tile (its row of tiles, fused
//     with its column of tiles when rows are split), block y = c, block z
//     = b. Thread x runs along x, the contiguous dimension (whole rows by
//     default: a block's tile is then one contiguous span of memory), thread
//     y over groups of RowsPerThread consecutive rows;
//   - each thread's RowsPerThread outputs are Conv, computed at the thread
//     loop and stored in registers; Conv's pure and update loops are
//     unrolled, the taps outermost, so that the values the thread's outputs
//     share are read once (RowsPerThread+K-1 rows of K values for
//     RowsPerThread outputs);
//   - the block's padded tile with its halo ((TileX+K-1) x (rows+K-1)
//     floats) is a wrapper of Padded computed at the block loop and stored
//     in GPUShared, with thread loops of its own: thread x over its
//     TileX+K-1 columns (the block has K-1 more threads along x than the
//     output uses), thread y over its rows, each thread producing every
//     ThreadsY-th row of its column, unrolled (RoundUp: a few rows more
//     when ThreadsY does not divide the tile's rows; Padded is defined
//     everywhere). A warp reads consecutive addresses;
//   - Clamped is computed at that thread loop, in registers (the thread's
//     column of the tile): unconditional loads, issued back to back; the
//     zero padding is then a select in registers;
//   - the channel's K x K weights are a wrapper of the weight input in
//     GPUShared, loaded by K*K threads; one barrier after both;
//   - splits of the output whose factor divides the extent are RoundUp
//     (no tail code), the others ShiftInwards: the last tile of a row or
//     column is shifted inwards (it overlaps the one before and writes the
//     same values). The image must be at least one tile high and wide.
func (s *DepthwiseStaged) GPUScheduleFast(t DepthwiseTiling) {
	d := s.Depthwise
	out := d.Output
	out.Bound(d.X, 0, d.W).Bound(d.Y, 0, d.H).Bound(d.Cv, 0, d.C).Bound(d.Bv, 0, d.B)
	rows := t.ThreadsY * t.RowsPerThread
	yo, yt, ty, yr := halide.NewVar("yo"), halide.NewVar("yt"), halide.NewVar("ty"), halide.NewVar("yr")
	out.Split(d.Y, yo, yt, rows, exactOr(d.H, rows)).
		Split(yt, ty, yr, t.RowsPerThread)
	tx, tile := d.X, yo
	if t.TileX > 0 && t.TileX < d.W {
		xo, xi, xy := halide.NewVar("xo"), halide.NewVar("xi"), halide.NewVar("xy")
		out.Split(d.X, xo, xi, t.TileX, exactOr(d.W, t.TileX)).
			Reorder(yr, xi, ty, xo, yo).
			Fuse(xo, yo, xy)
		tx, tile = xi, xy
	} else {
		out.Reorder(yr, d.X, ty, yo)
	}
	out.GPUBlocks(tile, d.Cv, d.Bv).GPUThreads(tx, ty).Unroll(yr)

	d.Conv.ComputeAt(out, tx).StoreIn(halide.Register).Unroll(d.Y)
	d.Conv.Update(0).Reorder(d.Y, d.R.X(), d.R.Y()).
		Unroll(d.Y).Unroll(d.R.X()).Unroll(d.R.Y())

	pyo, pty := halide.NewVar("pyo"), halide.NewVar("pty")
	pw := d.Padded.In(d.Conv)
	pw.ComputeAt(out, tile).StoreIn(halide.GPUShared).
		Split(d.Y, pyo, pty, t.ThreadsY, halide.RoundUp).
		Reorder(pyo, d.Cv, d.Bv, d.X, pty).
		GPUThreads(d.X, pty).
		Unroll(pyo)
	s.Clamped.ComputeAt(pw, d.X).StoreIn(halide.Register).Unroll(d.Y)
	d.Weight.In(d.Conv).ComputeAt(out, tile).StoreIn(halide.GPUShared)
}

// exactOr is RoundUp (no tail code) when factor divides extent, else
// ShiftInwards.
func exactOr(extent, factor int) halide.TailStrategy {
	if extent%factor == 0 {
		return halide.RoundUp
	}
	return halide.ShiftInwards
}

// ---------------------------------------------------------------------------
// Conv1D
// ---------------------------------------------------------------------------

// NewConv1DSeedNaive builds the algorithm of the conv1d seed's naive
// baseline (numpy.convolve as a reduction over all of a, with the bounds
// test inside):
//
//	Output[i]  = 0
//	Output[i] += APad[R] * BIn[i - R]        R in [0, M+N-1)
//
// where APad and BIn are a and b with ConstantExterior(0) boundaries (the
// seed's if_then_else over k < 0, k >= M, n-k < 0, n-k >= N). It has
// Conv1D's fields and checks against the same reference; R is the long
// reduction here. Its schedule is the seed's: GPUScheduleV1 (one block, of
// one thread, per output).
func NewConv1DSeedNaive(M, N int) *Conv1D {
	v := newConv1DInputs(M, N)
	i := v.I
	v.BIn = halide.NewFunc("b_pad")
	v.BIn.Define(i).Is(halide.ConstantExterior(v.B, float32(0)).At(i))
	v.R = halide.NewRDom("k", halide.Range(0, M+N-1))
	v.Output = halide.NewFunc("conv1d")
	v.Output.Define(i).Is(float32(0))
	v.Output.Define(i).PlusEq(v.APad.At(v.R).Mul(v.BIn.At(i.Sub(v.R))))
	return v
}

// Conv1DAcc is Conv1D with the reduction in a Func of its own, Acc, and
// the output a copy of it (TVM's cache_write(B, "local"), written in the
// algorithm): Acc can then live in registers, and the output is written
// once, by one kernel.
//
//	Acc[i]     = 0
//	Acc[i]    += APad[i - R] * BIn[R]     R in [0, N)
//	Output[i]  = Acc[i]
type Conv1DAcc struct {
	*Conv1D
	// Acc is the reduction; Conv1D.Output is its copy.
	Acc *halide.Func
}

// NewConv1DAcc builds Conv1DAcc for a signal of length M and a kernel of
// length N.
func NewConv1DAcc(M, N int) *Conv1DAcc {
	v := newConv1DKernel(M, N)
	i := v.I
	acc := halide.NewFunc("acc")
	acc.Define(i).Is(float32(0))
	acc.Define(i).PlusEq(v.APad.At(i.Sub(v.R)).Mul(v.BIn.At(v.R)))
	v.Output = halide.NewFunc("conv1d")
	v.Output.Define(i).Is(acc.At(i))
	return &Conv1DAcc{Conv1D: v, Acc: acc}
}

// Conv1DTiling are the factors of Conv1DAcc.GPUScheduleFast.
type Conv1DTiling struct {
	// Threads per block; each computes PerThread consecutive outputs.
	Threads, PerThread int
}

// DefaultConv1DTiling: 128 threads of 11 outputs (1408 per block). An
// odd PerThread keeps the threads' shared-memory accesses (stride
// PerThread) free of bank conflicts. With nvcc 11.8 for sm_90: 32
// registers, 11.8 KB of shared memory, about 68 instructions per output
// (32 of them FFMA).
var DefaultConv1DTiling = Conv1DTiling{Threads: 128, PerThread: 11}

// GPUScheduleFast is ours, for long signals:
//
//   - the output is bound to M+N-1 (constant extents) and split into
//     blocks of Threads*PerThread outputs (ShiftInwards: the last block is
//     shifted inwards and overlaps the one before);
//   - the output is written from a shared copy of Acc (Acc.In(Output),
//     computed at the block loop), thread x over consecutive outputs, so the
//     stores are coalesced;
//   - that copy is produced by its own thread loop: thread t computes the
//     PerThread consecutive outputs t*PerThread + [0, PerThread), Acc
//     computed at that loop in registers, its loops unrolled, the taps
//     outermost: each tap is one register of b, and the slice of a the
//     thread's outputs share is loaded once;
//   - the block's slice of a (Threads*PerThread + N-1 floats) is a wrapper
//     of APad computed at the block loop in GPUShared, by a thread loop of
//     its own: thread t loads elements t, t+Threads, ..., unrolled, with
//     no guard (RoundUp: up to Threads-1 elements more; APad is defined
//     everywhere). ConstantExterior's condition stays, but on a 1-D
//     address nvcc predicates the loads and issues them back to back;
//   - b is BIn in registers (N floats per thread, loaded by each thread:
//     the same addresses in the whole block).
//
// Two barriers: after the slice of a, after the shared copy of Acc.
func (v *Conv1DAcc) GPUScheduleFast(t Conv1DTiling) {
	out := v.Output
	n := v.M + v.N - 1
	out.Bound(v.I, 0, n)
	bo, bi, to, ti := halide.NewVar("bo"), halide.NewVar("bi"), halide.NewVar("to"), halide.NewVar("ti")
	out.Split(v.I, bo, bi, t.Threads*t.PerThread, halide.ShiftInwards).
		Split(bi, to, ti, t.Threads).
		GPUBlocks(bo).
		GPUThreads(ti).
		Unroll(to)
	accS := v.Acc.In(out)
	io, r, io2 := halide.NewVar("io"), halide.NewVar("r"), halide.NewVar("io2")
	accS.ComputeAt(out, bo).StoreIn(halide.GPUShared).
		Split(v.I, io, r, t.PerThread, halide.RoundUp).
		Split(io, io2, to, t.Threads, halide.RoundUp).
		GPUThreads(to).
		Unroll(r)
	v.Acc.ComputeAt(accS, to).StoreIn(halide.Register).Unroll(v.I)
	v.Acc.Update(0).Reorder(v.I, v.R).Unroll(v.I).Unroll(v.R)
	ao, ai := halide.NewVar("ao"), halide.NewVar("ai")
	v.APad.In(v.Acc).ComputeAt(out, bo).StoreIn(halide.GPUShared).
		Split(v.I, ao, ai, t.Threads, halide.RoundUp).
		GPUThreads(ai).
		Unroll(ao)
	v.BIn.ComputeAt(accS, to).StoreIn(halide.Register).Unroll(v.I)
}
