package algo

import "github.com/gohalide/gohalide/halide"

// Fast GPU schedules of Depthwise and Conv1D (ours, for the apps'
// benchmark sizes on an H100), and the algorithm of the conv1d seed's naive
// baseline. GEMM's fast schedule is GPUScheduleTiledShared.
//
// What they share: threadIdx.x runs along the contiguous dimension of the
// big buffers (coalesced loads and stores); each thread computes several
// outputs (its accumulators in registers, the loops over them unrolled);
// the input a block reuses is staged in shared memory by the block's
// threads together; the small filter is held in registers; the outputs
// are Bound to the benchmark size, so every extent, stride of a shared
// buffer and loop bound in the kernel is a constant.

// ---------------------------------------------------------------------------
// Depthwise
// ---------------------------------------------------------------------------

// DepthwiseTiling are the factors of Depthwise.GPUScheduleFast.
type DepthwiseTiling struct {
	// TileX is the width of a block's tile (thread x); 0 or >= W means
	// whole rows.
	TileX int
	// ThreadsY is thread y; each thread computes RowsPerThread consecutive
	// rows, so a block's tile is TileX x (ThreadsY * RowsPerThread).
	ThreadsY, RowsPerThread int
	Mode    int
	WShared bool
}

// DefaultDepthwiseTiling: whole rows (112 threads along x at 112x112),
// 4 x 4 rows: a 112 x 16 tile per block of 448 threads.
var DefaultDepthwiseTiling = DepthwiseTiling{TileX: 0, ThreadsY: 4, RowsPerThread: 4}

// GPUScheduleFast is ours, for a memory-bound depthwise convolution (a
// few flops per byte at K = 3):
//
//   - the output is bound to the algorithm's size (constant extents);
//   - a block computes a TileX x (ThreadsY*RowsPerThread) tile of one
//     channel of one image: block x = the tile row yo, block y = c,
//     block z = b; thread x runs along x (whole rows by default: the
//     block's tile is then one contiguous span of memory), thread y over
//     groups of RowsPerThread consecutive rows;
//   - each thread's RowsPerThread outputs are Conv, computed at the thread
//     loop and stored in registers; Conv's pure and update loops are
//     unrolled, the taps outermost, so that the rows the thread's outputs
//     share are loaded once;
//   - the block's padded input tile with its halo ((TileX+K-1) x
//     (rows+K-1) floats) is a wrapper of Padded computed at the block loop
//     and stored in GPUShared, loaded by the block's threads together
//     (consecutive threads, consecutive x), one barrier after it;
//   - the channel's K x K weights are a wrapper of the weight input in
//     registers, loaded by each thread (the same addresses in the whole
//     block: broadcast loads from L1);
//   - splits are ShiftInwards: the last tile of a row or a column is
//     shifted inwards (it overlaps the one before and writes the same
//     values), so every tile is whole and the shared region has a
//     constant size. The image must be at least one tile high and wide.
func (d *Depthwise) GPUScheduleFast(t DepthwiseTiling) {
	out := d.Output
	out.Bound(d.X, 0, d.W).Bound(d.Y, 0, d.H).Bound(d.Cv, 0, d.C).Bound(d.Bv, 0, d.B)
	rows := t.ThreadsY * t.RowsPerThread
	yo, yt, ty, yr := halide.NewVar("yo"), halide.NewVar("yt"), halide.NewVar("ty"), halide.NewVar("yr")
	out.Split(d.Y, yo, yt, rows, exactOr(d.H, rows)).
		Split(yt, ty, yr, t.RowsPerThread)
	tx, blockX := d.X, yo
	tileX := d.W
	if t.TileX > 0 && t.TileX < d.W {
		tileX = t.TileX
		xo, xi, tile := halide.NewVar("xo"), halide.NewVar("xi"), halide.NewVar("tile")
		out.Split(d.X, xo, xi, t.TileX, exactOr(d.W, t.TileX)).
			Reorder(yr, xi, ty, xo, yo).
			Fuse(xo, yo, tile)
		tx, blockX = xi, tile
	} else {
		out.Reorder(yr, d.X, ty, yo)
	}
	out.GPUBlocks(blockX, d.Cv, d.Bv).GPUThreads(tx, ty).Unroll(yr)

	d.Conv.ComputeAt(out, tx).StoreIn(halide.Register).Unroll(d.Y)
	d.Conv.Update(0).Reorder(d.Y, d.R.X(), d.R.Y()).
		Unroll(d.Y).Unroll(d.R.X()).Unroll(d.R.Y())
	switch t.Mode {
	case 0:
		d.Padded.In(d.Conv).ComputeAt(out, blockX).StoreIn(halide.GPUShared)
	case 1:
		pw := d.Padded.In(d.Conv).ComputeAt(out, blockX).StoreIn(halide.GPUShared)
		// The wrapper's rows (rows + K - 1) over f threads, f the largest
		// divisor of them not above ThreadsY: no tail, no guard.
		wrows := rows + d.K - 1
		f := t.ThreadsY
		for wrows%f != 0 {
			f--
		}
		_ = tileX
		pyo, pty := halide.NewVar("pyo"), halide.NewVar("pty")
		pw.Split(d.Y, pyo, pty, f, halide.RoundUp).
			Reorder(pyo, d.Cv, d.Bv, d.X, pty).
			GPUThreads(d.X, pty).
			Unroll(pyo)
	}
	if t.WShared {
		d.Weight.In(d.Conv).ComputeAt(out, blockX).StoreIn(halide.GPUShared)
	} else {
		w := d.Weight.In(d.Conv).ComputeAt(out, tx).StoreIn(halide.Register)
		w.Unroll(halide.NewVar("x")).Unroll(halide.NewVar("y"))
	}
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
	v := &Conv1D{M: M, N: N}
	v.A = halide.NewImageParam("a", halide.Float32, 1)
	v.B = halide.NewImageParam("b", halide.Float32, 1)
	i := halide.NewVar("i")
	v.I = i
	v.APad = halide.NewFunc("a_pad")
	v.APad.Define(i).Is(halide.ConstantExterior(v.A, float32(0)).At(i))
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
	v := &Conv1D{M: M, N: N}
	v.A = halide.NewImageParam("a", halide.Float32, 1)
	v.B = halide.NewImageParam("b", halide.Float32, 1)
	i := halide.NewVar("i")
	v.I = i
	v.APad = halide.NewFunc("a_pad")
	v.APad.Define(i).Is(halide.ConstantExterior(v.A, float32(0)).At(i))
	v.BIn = halide.NewFunc("b_in")
	v.BIn.Define(i).Is(v.B.At(i))
	v.R = halide.NewRDom("r", halide.Range(0, N))
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

// DefaultConv1DTiling: 128 threads of 7 outputs (896 per block). An odd
// PerThread keeps the threads' shared-memory accesses (stride PerThread)
// free of bank conflicts.
var DefaultConv1DTiling = Conv1DTiling{Threads: 128, PerThread: 7}

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
//     of APad computed at the block loop in GPUShared, loaded by the
//     block's threads together (consecutive threads, consecutive
//     elements);
//   - b is a wrapper in registers (N floats per thread, the same addresses
//     in the whole block).
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
		GPUThreads(ti)
	accS := v.Acc.In(out)
	accS.ComputeAt(out, bo).StoreIn(halide.GPUShared).
		Split(v.I, to, ti, t.PerThread).
		GPUThreads(to).
		Unroll(ti)
	v.Acc.ComputeAt(accS, to).StoreIn(halide.Register).Unroll(v.I)
	v.Acc.Update(0).Reorder(v.I, v.R).Unroll(v.I).Unroll(v.R)
	v.APad.In(v.Acc).ComputeAt(out, bo).StoreIn(halide.GPUShared)
	v.BIn.ComputeAt(accS, to).StoreIn(halide.Register).Unroll(v.I)
}
