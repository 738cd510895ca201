package algo

import (
	"fmt"
	"math/rand"

	"github.com/gohalide/gohalide/halide"
)

// RowSum sums each row of a W x H float32 array (torch.sum(x, dim=1) of an
// H x W tensor):
//
//	Acc[y]  = 0
//	Acc[y] += In[r, y]        r in [0, W)
//	Sum[y]  = Acc[y]
//
// The output Sum is a pure copy of the reduction Acc, so that a schedule
// can compute Acc's two stages inside the output's kernel (one launch).
// It reads the array once and writes H floats, so at 8192 x 8192 it is
// memory-bound: the floor is W*H*4 + H*4 bytes at the memory's bandwidth.
// The schedules make the parallelism over r from rfactor, as Halide does:
// the RVar is split, a piece of it becomes a pure dimension of an
// intermediate (each thread's own partial sum), and the output's update
// reduces over that piece on the threads or the lanes of a block, which
// lowering turns into warp shuffles and, between the warps, shared memory.
type RowSum struct {
	// float32Output is the output buffer of the algorithm's shape (NewOutput, Run).
	float32Output
	// Sizes: the row length W and the number of rows H.
	W, H int

	// In is the W x H input.
	In *halide.ImageParam

	// X and Y are the vars of InCopy; Y is also the output's.
	X, Y halide.Var

	// R runs over a row.
	R *halide.RDom

	// InCopy is a pure copy of In (inline by default) that schedules can
	// compute somewhere: the vectorized loads of a thread's columns. Acc is
	// the reduction, Sum the output (a copy of Acc); Intm the rfactor
	// intermediate a schedule made (nil for the plain schedule).
	InCopy, Acc, Sum, Intm *halide.Func

	inBuf *halide.Buffer[float32]
}

// NewRowSum builds the row sum of a W x H array (the RDom's extent is the
// constant W, so a split of r by a divisor of W has no tail).
func NewRowSum(w, h int) *RowSum {
	v := &RowSum{W: w, H: h}
	v.float32Output = float32Output{"rowsum", func() []int { return []int{v.H} }}
	v.In = halide.NewImageParam("in", halide.Float32, 2)
	v.X, v.Y = halide.NewVar("x"), halide.NewVar("y")
	v.InCopy = halide.NewFunc("in_copy")
	v.InCopy.Define(v.X, v.Y).Is(v.In.At(v.X, v.Y))
	v.R = halide.NewRDom("r", halide.Range(0, w))
	v.Acc = halide.NewFunc("acc")
	v.Acc.Define(v.Y).Is(float32(0))
	v.Acc.Define(v.Y).PlusEq(v.InCopy.At(v.R.X(), v.Y))
	v.Sum = halide.NewFunc("rowsum")
	v.Sum.Define(v.Y).Is(v.Acc.At(v.Y))
	return v
}

// Out returns the output Func.
func (v *RowSum) Out() *halide.Func { return v.Sum }

// Inputs makes In uniform in [-1, 1].
func (v *RowSum) Inputs(rng *rand.Rand) {
	v.inBuf = randomFloats(rng, v.In, v.W, v.H)
}

// Reference sums each row in float64.
func (v *RowSum) Reference() *halide.Buffer[float64] {
	ref := halide.NewBuffer[float64](v.H)
	if v.inBuf == nil {
		return ref
	}
	d := v.inBuf.Data() // dense, x fastest
	for y := 0; y < v.H; y++ {
		s := 0.0
		for _, x := range d[y*v.W : (y+1)*v.W] {
			s += float64(x)
		}
		ref.Set(s, y)
	}
	return ref
}

// Check compares out with Reference within 3 * W * 2^-24 relative to
// max(1, |sum|) (1.5e-3 at W = 8192, not Tol). A row of W values uniform
// in [-1, 1] summed in float32 one value at a time (the plain schedule)
// gathers rounding errors like a random walk over partial sums of size
// about sqrt(W): the error's standard deviation is about
// 2^-24 * W / sqrt(6), so the tolerance is over 7 of them, and none of
// the 8192 rows fails by chance (at Tol, 1e-4, one row of 8192 did on
// the H100: 1.9e-4). The tree of the block and warp schedules is far
// more accurate (1e-5 measured); a missed or doubled value is off by its
// own size, about 0.5 on average.
func (v *RowSum) Check(out halide.BufferRef) (float64, error) {
	return check(v.Name(), v.inBuf != nil, out, v.Reference, 3*float64(v.W)*0x1p-24)
}

// GPUSchedulePlain is the contrast: one thread per row, blocks of 128
// rows, each thread summing its row serially. Neighbouring threads read
// addresses a row apart, so no load is coalesced.
func (v *RowSum) GPUSchedulePlain() {
	yb, yt := halide.NewVar("yb"), halide.NewVar("yt")
	v.Sum.GPUTile1D(v.Y, yb, yt, 128, halide.GuardWithIf)
	v.Acc.ComputeAt(v.Sum, yt)
}

// GPUScheduleBlock is the block reduction: one block of threads per row.
// The row is cut into chunks of threads*vec columns; thread t sums the
// vec columns at t*vec of every chunk (vec consecutive floats, one vector
// load when vec is 2 or 4, and the threads of a warp read consecutive
// vectors), in a register array Intm(t, v) that rfactor makes; the
// output adds Intm over v serially and over the threads as an all-reduce:
// warp shuffles, then one shared slot per warp, a barrier, and a last
// shuffle tree in the first warp. threads*vec must divide W.
func (v *RowSum) GPUScheduleBlock(threads, vec int) error {
	if threads < 1 || vec < 1 || v.W%(threads*vec) != 0 {
		return fmt.Errorf("rowsum: %d threads of %d columns do not divide a row of %d", threads, vec, v.W)
	}
	rxo, rrest, rxi, rv := halide.NewRVar("rxo"), halide.NewRVar("rrest"), halide.NewRVar("rxi"), halide.NewRVar("rv")
	u, w := halide.NewVar("u"), halide.NewVar("w")
	up := v.Acc.Update(0).Split(v.R.X(), rxo, rrest, threads*vec).Split(rrest, rxi, rv, vec)
	v.Intm = up.RFactor(halide.RFactorPair{R: rxi, V: u}, halide.RFactorPair{R: rv, V: w})
	// One kernel: a block per row computes Acc (its init on one thread,
	// its update on all) and stores the output.
	v.Sum.GPUBlocks(v.Y)
	v.Acc.ComputeAt(v.Sum, v.Y)
	v.Acc.Update(0).GPUThreads(rxi)
	// Intm(u, w, y) per thread (u is the thread's rxi), in registers; its
	// update runs rxo outside the vector w.
	v.Intm.ComputeAtStage(v.Acc.Update(0), rxi)
	v.vectorLoads(rxo, w, vec)
	return nil
}

// GPUScheduleWarp is the warp reduction: one warp per row, rows rows per
// block. Lane l sums the vec columns at l*vec of every chunk of 32*vec
// columns; the output adds them over the lanes with warp shuffles alone
// (GPULanes: no shared memory, no barrier). 32*vec must divide W.
func (v *RowSum) GPUScheduleWarp(rows, vec int) error {
	if rows < 1 || vec < 1 || v.W%(32*vec) != 0 {
		return fmt.Errorf("rowsum: 32 lanes of %d columns do not divide a row of %d", vec, v.W)
	}
	rxo, rrest, rxi, rv := halide.NewRVar("rxo"), halide.NewRVar("rrest"), halide.NewRVar("rxi"), halide.NewRVar("rv")
	u, w := halide.NewVar("u"), halide.NewVar("w")
	yo, yi := halide.NewVar("yo"), halide.NewVar("yi")
	up := v.Acc.Update(0).Split(v.R.X(), rxo, rrest, 32*vec).Split(rrest, rxi, rv, vec)
	v.Intm = up.RFactor(halide.RFactorPair{R: rxi, V: u}, halide.RFactorPair{R: rv, V: w})
	// One kernel: a block of rows warps, a warp per row; Acc computed at
	// the output's block loop (rows values in shared memory), its init on
	// rows threads, its update a warp per row.
	v.Sum.Split(v.Y, yo, yi, rows, halide.GuardWithIf).GPUBlocks(yo).GPUThreads(yi)
	v.Acc.ComputeAt(v.Sum, yo).GPUThreads(v.Y)
	v.Acc.Update(0).GPUThreads(v.Y).GPULanes(rxi)
	v.Intm.ComputeAtStage(v.Acc.Update(0), rxi)
	v.vectorLoads(rxo, w, vec)
	return nil
}

// vectorLoads reads the vec columns of each thread's chunk as one vector
// (InCopy at the intermediate's rxo loop, vectorized) when vec > 1: the
// intermediate's update runs rxo outside its vector dimension w.
func (v *RowSum) vectorLoads(rxo halide.RVar, w halide.Var, vec int) {
	if vec <= 1 {
		return
	}
	v.Intm.Update(0).Reorder(w, rxo)
	xo, xv := halide.NewVar("xo"), halide.NewVar("xv")
	v.InCopy.ComputeAtStage(v.Intm.Update(0), rxo).Split(v.X, xo, xv, vec, halide.RoundUp).Vectorize(xv)
}
