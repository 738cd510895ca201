package algo

import (
	"math/rand"

	"github.com/gohalide/gohalide/halide"
)

// Conv2D is the 2-D convolution of TVM's "how to optimize convolution on
// GPU" tutorial (https://tvm.apache.org/docs/how_to/optimize_operators/opt_conv_cuda.html,
// "the seed" below): a batch of images with inC channels convolved with
// outC filters of inC x K x K taps, stride 1, zero padding pad, in its
// HWCN layout (height outermost, batch innermost). Dimension 0 of a buffer
// is the contiguous one, so HWCN is, innermost first, (n, c, x, y):
//
//	Padded[n, c, x, y]  = input[n, c, x - pad, y - pad] inside input, 0 outside   (TVM's Apad)
//	Conv[n, ff, x, y]   = 0
//	Conv[n, ff, x, y]  += Padded[n, rc, x + rx, y + ry] * weight[ff, rc, rx, ry]
//	Output[n, ff, x, y] = Conv[n, ff, x, y]
//
// with rx, ry in [0, K) and rc in [0, inC). The weights are the seed's
// W[ry, rx, rc, ff] (out channel innermost), the output its B[yy, xx, ff,
// nn]: out [batch, outC, outSize, outSize] with outSize = size + 2 pad - K
// + 1. Conv is TVM's BL (the cache_write of B), Output its B.
type Conv2D struct {
	// float32Output is the output buffer of the algorithm's shape (NewOutput, Run).
	float32Output
	// Sizes: batch, input and output channels, the input's width and
	// height, the kernel's width and height, the padding.
	Batch, InC, OutC, Size, K, Pad int

	// Inputs: input[n, c, x, y] and weight[ff, rc, rx, ry].
	Input, Weight *halide.ImageParam

	// Vars: N the image (innermost), F the output channel, X, Y the pixel;
	// Cv names the channel dimension of Padded.
	N, F, X, Y, Cv halide.Var

	// R is the reduction domain (RX, RY the kernel tap, RC the input
	// channel: R.X(), R.Y(), R.Z(), so the loops are named r$x, r$y and
	// r$z).
	R          *halide.RDom
	RX, RY, RC halide.RVar

	// Padded is the zero-padded input (a pure Func, inline by default);
	// Conv the reduction; Output the pipeline output, a copy of Conv.
	Padded, Conv, Output *halide.Func

	inputBuf, weightBuf *halide.Buffer[float32]
}

// NewConv2D builds the convolution of batch images of inC channels and
// size x size pixels with outC filters of kernel x kernel taps, stride 1,
// zero padding pad.
func NewConv2D(batch, inC, outC, size, kernel, pad int) *Conv2D {
	c := &Conv2D{Batch: batch, InC: inC, OutC: outC, Size: size, K: kernel, Pad: pad}
	c.float32Output = float32Output{"conv2d", func() []int { return []int{c.Batch, c.OutC, c.OutSize(), c.OutSize()} }}
	c.Input = halide.NewImageParam("A", halide.Float32, 4)
	c.Weight = halide.NewImageParam("W", halide.Float32, 4)
	n, f, x, y, ch := halide.NewVar("n"), halide.NewVar("ff"), halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("c")
	c.N, c.F, c.X, c.Y, c.Cv = n, f, x, y, ch
	// The padding is a select on x and y only (n and c are always inside
	// the input), the input read at clamped coordinates, as TVM's Apad.
	w, h := c.Input.Dim(2).Extent(), c.Input.Dim(3).Extent()
	inside := x.Ge(pad).And(x.Lt(w.Add(pad))).And(y.Ge(pad)).And(y.Lt(h.Add(pad)))
	c.Padded = halide.NewFunc("Apad")
	c.Padded.Define(n, ch, x, y).Is(halide.Select(inside,
		c.Input.At(n, ch, halide.Clamp(x.Sub(pad), 0, w.Sub(1)), halide.Clamp(y.Sub(pad), 0, h.Sub(1))),
		float32(0)))
	c.R = halide.NewRDom("r", halide.Range(0, kernel), halide.Range(0, kernel), halide.Range(0, inC))
	c.RX, c.RY, c.RC = c.R.X(), c.R.Y(), c.R.Z()
	c.Conv = halide.NewFunc("BL")
	c.Conv.Define(n, f, x, y).Is(float32(0))
	c.Conv.Define(n, f, x, y).PlusEq(
		c.Padded.At(n, c.RC, x.Add(c.RX), y.Add(c.RY)).Mul(c.Weight.At(f, c.RC, c.RX, c.RY)))
	c.Output = halide.NewFunc("B")
	c.Output.Define(n, f, x, y).Is(c.Conv.At(n, f, x, y))
	return c
}

// OutSize is the output's width and height.
func (c *Conv2D) OutSize() int { return c.Size + 2*c.Pad - c.K + 1 }

// Out returns the output Func.
func (c *Conv2D) Out() *halide.Func { return c.Output }

// Inputs makes an input [batch, inC, size, size] and weights [outC, inC,
// K, K] uniform in [-1, 1].
func (c *Conv2D) Inputs(rng *rand.Rand) {
	c.inputBuf = randomFloats(rng, c.Input, c.Batch, c.InC, c.Size, c.Size)
	c.weightBuf = randomFloats(rng, c.Weight, c.OutC, c.InC, c.K, c.K)
}

// Reference computes the convolution in float64, skipping the taps that
// fall in the padding.
func (c *Conv2D) Reference() *halide.Buffer[float64] {
	o := c.OutSize()
	ref := halide.NewBuffer[float64](c.Batch, c.OutC, o, o)
	if c.inputBuf == nil {
		return ref
	}
	in, wt := c.inputBuf.Data(), c.weightBuf.Data()
	out := make([]float64, c.Batch)
	for y := 0; y < o; y++ {
		for x := 0; x < o; x++ {
			for f := 0; f < c.OutC; f++ {
				clear(out)
				for ry := 0; ry < c.K; ry++ {
					iy := y + ry - c.Pad
					if iy < 0 || iy >= c.Size {
						continue
					}
					for rx := 0; rx < c.K; rx++ {
						ix := x + rx - c.Pad
						if ix < 0 || ix >= c.Size {
							continue
						}
						for rc := 0; rc < c.InC; rc++ {
							wv := float64(wt[f+c.OutC*(rc+c.InC*(rx+c.K*ry))])
							row := in[c.Batch*(rc+c.InC*(ix+c.Size*iy)):][:c.Batch]
							for n, a := range row {
								out[n] += float64(a) * wv
							}
						}
					}
				}
				for n, s := range out {
					ref.Set(s, n, f, x, y)
				}
			}
		}
	}
	return ref
}

// Check compares out with Reference (see Tol).
func (c *Conv2D) Check(out halide.BufferRef) (float64, error) {
	return check(c.Name(), c.inputBuf != nil, out, c.Reference, Tol)
}

// ---------------------------------------------------------------------------
// GPU schedules
// ---------------------------------------------------------------------------

// Conv2DGPUSchedules lists Conv2D's GPU schedules: the seed's, then ours.
var Conv2DGPUSchedules = []GPUSchedule[*Conv2D]{
	{"tvm", (*Conv2D).GPUScheduleTVM},
	{"ours", (*Conv2D).GPUScheduleOurs},
}

// The seed's tiling constants.
const (
	conv2DTile        = 8                                  // points per thread and dimension (over all its virtual threads)
	conv2DThreads     = 8                                  // threads per block and dimension
	conv2DBlockFactor = conv2DTile * conv2DThreads         // 64: the block's tile of out channels and of images
	conv2DStep        = 8                                  // input channels per step of the reduction
	conv2DVThreads    = 2                                  // virtual threads per dimension
	conv2DPerVThread  = conv2DTile / conv2DVThreads        // 4: points per thread and virtual thread
	conv2DVTStride    = conv2DBlockFactor / conv2DVThreads // 32: the stride between a thread's virtual threads
)

// GPUScheduleTVM is the seed's schedule, directive by directive:
//
//	bz = fuse(hi, wi); by, fi = split(fi, 64); bx, ni = split(ni, 64)
//	tyz, fi = split(fi, nparts=2); txz, ni = split(ni, nparts=2)   (vthreads)
//	ty, fi = split(fi, nparts=8);  tx, ni = split(ni, nparts=8)    (threads)
//	reorder(bz, by, bx, tyz, txz, ty, tx, fi, ni)
//	BL: rco, rci = split(rc, 8); reorder(rco, ry, rx, rci, fi, ni)
//	AA, WW (shared) at BL's rx; AL, WL (local) at BL's rci
//
// (here xy, fo, no, vy, vx, ty, tx, fi, ni), so a block computes a 64x64
// tile of (out channel, image) of one pixel, as 2x2 virtual threads of
// 32x32, each of 8x8 threads of 4x4 points: thread (tx, ty) computes the
// points n = 32 vx + 4 tx + [0, 4) and f = 32 vy + 4 ty + [0, 4) of the
// tile, four 4x4 tiles 32 apart. Thread x runs over the images, so a
// warp's loads and stores along n (the contiguous dimension) are
// coalesced, and its reads of a shared tile hit distinct banks.
//
// Where it differs from TVM, and why:
//
//   - VThread keeps TVM's split (the virtual-thread loops between the
//     blocks and the threads in the schedule) and lowering moves the loops
//     just inside the innermost thread loop: blocks, ty, tx, vy, vx, fi, ni.
//   - BL is computed at the innermost virtual thread loop vx, not at tx.
//     In TVM, BL at tx is inside the virtual threads, 4x4 per virtual
//     thread, and TVM's virtual-thread pass interleaves the four copies of
//     BL's whole reduction (64 accumulators, one loop over the steps). Here
//     a Func computed at tx covers the bounding box of everything the
//     thread computes under it: with virtual threads 32 apart that is
//     (32+4) x (32+4) = 1296 accumulators, and BL's loops run over the
//     whole box (20 times the multiply-adds; tried: a 5184-byte stack frame
//     in ptxas, 290 s instead of 4 s on the emulator at the app's small
//     size). At vx it is the 4x4 of one virtual thread, 16 registers, its
//     loops unrolled. The price: each virtual thread runs its own
//     reduction, so the shared tiles are loaded once per virtual thread and
//     step, 8 input channels x 32 (the images, or out channels, of one
//     virtual thread across the block's 8 threads) for one pixel: 256
//     floats each, not TVM's 8 x 64 = 512, and twice TVM's loads from
//     global memory in all. This keeps what virtual threads are for (the
//     strided, conflict-free and coalesced mapping of points to threads);
//     GPUScheduleOurs takes the other way out, contiguous per-thread tiles
//     with BL at tx.
//   - The virtual-thread loops are serial, not unrolled: VThread unrolls
//     them, and unrolling a loop that contains the production of a shared
//     Func (AA and WW are computed inside BL, inside the virtual threads)
//     copies its allocation, which the emulator rejects ("gpu emulator:
//     kernel kernel_B_s0: two shared allocations are named Apad_in_BL")
//     and CUDA would declare twice. The loops have 2 iterations and the
//     same bounds in every thread, so their barriers are uniform.
//   - AA and WW are wrappers (Padded.In(Conv), Weight.In(Conv)) computed at
//     BL's rx and stored in GPUShared; the block's 64 threads load them
//     together (the lowering's cooperative production of a shared Func
//     computed inside the thread loops: the union of what the block's
//     threads read, a barrier after the loads and one before the next tap
//     overwrites them). TVM's hand-bound fetching (ty over the channels, tx
//     over the images, 4-wide vectors) cannot be written: a Func computed
//     inside the thread loops may not have thread loops of its own.
//   - AL and WL are left out: BL's loops over its 4x4 points and the 8
//     channels of a step are unrolled, so the compiler keeps the shared
//     values it reads in registers.
//   - Padded is inline (TVM's compute_inline), in AA.
//
// The block tiles are ShiftInwards splits: batch and outC must be at least
// 64 (the seed's are 256 and 512); inC need not be a multiple of 8.
func (c *Conv2D) GPUScheduleTVM() {
	_, vx, vy := c.tileOutput(true)
	c.Output.Stage(0).Serial(vx).Serial(vy) // see above
	c.scheduleBL(vx)
}

// tileOutput is the output's loops in both GPU schedules: the pixel fused
// into xy, the out channels f and the images n split into the block's
// 64x64 tile (fo, no: blocks, with xy), and the tile into threads (tx, ty)
// of 8x8 points, each cut into 2x2 virtual threads (vx, vy) of 4x4 points
// (ni, fi, unrolled). Strided (TVM's mapping) splits the tile into the
// virtual threads first (2 of them, conv2DVTStride apart), then into the
// threads (8 of them), so that a thread's points are strided; otherwise
// into the threads first, each with a contiguous 8x8 tile.
func (c *Conv2D) tileOutput(strided bool) (tx, vx, vy halide.Var) {
	xy := halide.NewVar("xy")
	no, nb, nt, ni := halide.NewVar("no"), halide.NewVar("nb"), halide.NewVar("nt"), halide.NewVar("ni")
	fo, fb, ft, fi := halide.NewVar("fo"), halide.NewVar("fb"), halide.NewVar("ft"), halide.NewVar("fi")
	tx, ty := halide.NewVar("tx"), halide.NewVar("ty")
	vx, vy = halide.NewVar("vx"), halide.NewVar("vy")
	// (ox, oy) are split off the block's tile first, by factor; (ix, iy)
	// then split off what is left, by conv2DPerVThread.
	ox, oy, ix, iy, factor := tx, ty, vx, vy, conv2DTile
	if strided {
		ox, oy, ix, iy, factor = vx, vy, tx, ty, conv2DVTStride
	}
	c.Output.Fuse(c.X, c.Y, xy).
		Split(c.F, fo, fb, conv2DBlockFactor, halide.ShiftInwards).
		Split(c.N, no, nb, conv2DBlockFactor, halide.ShiftInwards).
		Split(fb, oy, ft, factor).
		Split(nb, ox, nt, factor).
		Split(ft, iy, fi, conv2DPerVThread).
		Split(nt, ix, ni, conv2DPerVThread).
		Reorder(ni, fi, ix, iy, ox, oy, no, fo, xy).
		GPUBlocks(no, fo, xy).
		GPUThreads(tx, ty).
		VThread(vx).
		VThread(vy).
		Unroll(fi).
		Unroll(ni)
	return tx, vx, vy
}

// scheduleBL is the seed's schedule of BL (Conv), computed at the
// output's loop at, in registers: its reduction (scheduleBLUpdate) and the
// shared tiles of the padded input and the weights at its rx.
func (c *Conv2D) scheduleBL(at halide.Var) {
	c.Conv.ComputeAt(c.Output, at).StoreIn(halide.Register).
		Unroll(c.N).
		Unroll(c.F)
	c.scheduleBLUpdate()
	c.Padded.In(c.Conv).ComputeAt(c.Conv, c.RX).StoreIn(halide.GPUShared)
	c.Weight.In(c.Conv).ComputeAt(c.Conv, c.RX).StoreIn(halide.GPUShared)
}

// scheduleBLUpdate is the seed's schedule of BL's reduction: rc split by
// the step, the loops rco, ry, rx, rci, ff, n (outermost first), the last
// three unrolled.
func (c *Conv2D) scheduleBLUpdate() {
	rco, rci := halide.NewRVar("rco"), halide.NewRVar("rci")
	c.Conv.Update(0).
		Split(c.RC, rco, rci, conv2DStep, halide.GuardWithIf).
		Reorder(c.N, c.F, rci, c.RX, c.RY, rco).
		Unroll(c.N).
		Unroll(c.F).
		Unroll(rci)
}

// GPUScheduleOurs is the seed's blocks, threads and shared tiles with
// contiguous per-thread tiles instead of strided virtual threads: thread
// (tx, ty) computes the 8x8 points n = 8 tx + [0, 8), f = 8 ty + [0, 8) of
// the block's 64x64 tile, so BL can be computed at the innermost thread
// loop as in the seed (64 accumulators stored in Register, one reduction
// per thread), and AA and WW at BL's rx are the seed's step x
// block_factor tiles, 8 x 64 = 512 floats each, loaded once per tap and
// step. The 8x8 is still cut into 2x2 virtual threads of 4x4 (adjacent,
// not 32 apart), which here are only unrolled loops of the output's copy.
// The cost against TVM's mapping: a warp's threads read a shared tile 8
// floats apart (2-way bank conflicts) and store the output in 8-float
// runs. (ptxas of CUDA 11.8 keeps BL's 64 floats in a 256-byte stack
// frame, at constant offsets, rather than in registers; the 16 of
// GPUScheduleTVM are in registers.)
func (c *Conv2D) GPUScheduleOurs() {
	tx, _, _ := c.tileOutput(false)
	c.scheduleBL(tx)
}
