package algo

import (
	"fmt"

	"github.com/gohalide/gohalide/halide"
)

// GEMMSplitK is GEMM with its k loop cut into S slices of K/S that are
// reduced separately and then summed: a schedule of GEMM's reduction,
// made with Halide's rfactor. Its algorithm is GEMM's reduction written as
// the output (as Conv1D's is), with b[j, k] and a[k, i] as in GEMM:
//
//	Output[j, i]  = 0
//	Output[j, i] += AIn[R, i] * BIn[j, R]      R in [0, K)
//
// Factor splits R into RS, the slice, and RK, the k within it, and
// factors the slices out of Output's update (RFactor(RS, Sv)), which makes
// the intermediate Partial, with KS = K/S:
//
//	Partial[j, i, s]  = 0
//	Partial[j, i, s] += AIn[s*KS + RK, i] * BIn[j, s*KS + RK]    RK in [0, KS)
//	Output[j, i]     += Partial[j, i, RS]                        RS in [0, S)
//
// It computes what GEMM computes, in another order of the float32 sums.
// The point is parallelism: GEMM's output alone has too few tiles to fill
// a large GPU when K is long (M=1024, N=512 in 64x32 tiles is 256 blocks
// of a 2048-long k loop); here the slices of one output tile run on
// different blocks (RS is a block loop) and add their sums into the
// output with atomic adds.
//
// The embedded GEMM has the sizes, the inputs, the Vars J, I and Kv, the
// input wrappers AIn and BIn, R, Inputs, Reference and Check; its Output
// is the Output above; its Prod (GEMM's reduction into registers) is nil,
// so GEMM's schedules do not apply.
type GEMMSplitK struct {
	*GEMM

	// S is the number of slices of k; it divides K.
	S int

	// Sv is Partial's slice dimension.
	Sv halide.Var

	// RS runs over the slices and RK over the k of one slice: the pieces
	// of R that Factor splits it into.
	RS, RK halide.RVar

	// Partial[j, i, s] is the sum over slice s: the intermediate Factor
	// makes (nil before).
	Partial *halide.Func
}

// SplitKError is NewGEMMSplitK's error for a split factor that is not
// positive or does not divide K.
type SplitKError struct {
	K, S int
}

func (e *SplitKError) Error() string {
	return fmt.Sprintf("algo: split-K GEMM: K = %d cannot be split into S = %d slices of equal length (S must be positive and divide K)", e.K, e.S)
}

// NewGEMMSplitK builds the product of an M×K and a K×N matrix, to be cut
// into S slices of k by Factor; S must divide K (a *SplitKError if it
// does not).
func NewGEMMSplitK(M, N, K, S int) (*GEMMSplitK, error) {
	if S <= 0 || K%S != 0 {
		return nil, &SplitKError{K: K, S: S}
	}
	g := &GEMMSplitK{GEMM: newGEMMInputs(M, N, K), S: S}
	j, i := g.J, g.I
	g.Sv, g.RS, g.RK = halide.NewVar("s"), halide.NewRVar("rs"), halide.NewRVar("rk")
	g.R = halide.NewRDom("r", halide.Range(0, g.A.Dim(0).Extent()))
	g.Output = halide.NewFunc("gemm_splitk")
	g.Output.Define(j, i).Is(float32(0))
	g.Output.Define(j, i).PlusEq(g.AIn.At(g.R, i).Mul(g.BIn.At(j, g.R)))
	return g, nil
}

// Factor splits Output's k loop R into S slices (RS) of K/S (RK) and
// factors the slices out (rfactor): it makes Partial, the sums over each
// slice, which Output's update then adds over RS. It returns Partial
// (computed inline, at the innermost loop of Output's update, until a
// schedule says otherwise); a second call returns the same Func.
func (g *GEMMSplitK) Factor() *halide.Func {
	if g.Partial == nil {
		g.Partial = g.Output.Update(0).
			Split(g.R, g.RS, g.RK, g.K/g.S).
			RFactor(halide.RFactorPair{R: g.RS, V: g.Sv})
	}
	return g.Partial
}

// Name returns "gemm_splitk".
func (g *GEMMSplitK) Name() string { return "gemm_splitk" }

// GPUScheduleSplitK is GPUScheduleTiledShared with the slices on blocks
// (after Factor):
//
//   - Output's pure stage (the zeros) is a kernel of its own, 32 x 8
//     threads per block, one point per thread (GuardWithIf: any size);
//   - Output's update is the second kernel. Its stores are atomic; a
//     block computes a BlockJ x BlockI tile of one slice: block x over the
//     column tiles, block y over the row tiles, block z over the slices
//     (RS). The threads form a (BlockJ/RegJ) x (BlockI/RegI) grid (thread
//     x over columns), each adding a RegJ x RegI tile, unrolled: one
//     atomic add per output point per block;
//   - the thread's tile of the slice's sums is Partial, computed at the
//     innermost thread loop and stored in Register, its loops over the
//     tile unrolled (the slice dimension has one point there);
//   - Partial's k loop (one slice, K/S long) is split into steps of
//     KStep, a serial loop outside the unrolled tile loops;
//   - AIn and BIn are computed at the step loop and stored in GPUShared:
//     the BlockI x KStep tile of A and the KStep x BlockJ tile of B of
//     the block's slice, loaded by the block's threads together, with a
//     barrier after the loads and one at the end of the step.
//
// BlockJ and BlockI must be multiples of RegJ and RegI. Sizes that are not
// multiples of the block tiles get GuardWithIf tails (the update adds, so
// its tiles cannot be shifted inwards as GEMM's are), and so does a slice
// that is not a multiple of KStep.
func (g *GEMMSplitK) GPUScheduleSplitK(t GEMMTiling) {
	g.Factor()
	bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
	tj := halide.NewVar("tj")
	ko, ki := halide.NewRVar("ko"), halide.NewRVar("ki")
	g.Output.Bound(g.J, 0, g.N).Bound(g.I, 0, g.M).
		GPUTile(g.J, g.I, bx, by, tx, ty, 32, 8, halide.GuardWithIf)
	update := g.Output.Update(0)
	tileGEMM(update.Atomic(), g.J, g.I, t, halide.GuardWithIf, g.RS)
	g.Partial.ComputeAtStage(update, tj).StoreIn(halide.Register).
		Unroll(g.J).
		Unroll(g.I).
		Unroll(g.Sv)
	g.Partial.Update(0).
		Split(g.RK, ko, ki, t.KStep, halide.GuardWithIf).
		Reorder(g.J, g.I, g.Sv, ki, ko).
		Unroll(g.J).
		Unroll(g.I).
		Unroll(g.Sv).
		Unroll(ki)
	g.stageTiles(g.Partial, ko, t.Vec)
}

// GEMMSplitKSchedule is a named split-K schedule: the algorithm's number
// of slices and GPUScheduleSplitK's tiling.
type GEMMSplitKSchedule struct {
	Name   string
	S      int
	Tiling GEMMTiling
}

// New builds the split-K GEMM of an M×K and a K×N matrix and schedules it
// (a *SplitKError when S does not divide K).
func (s GEMMSplitKSchedule) New(M, N, K int) (*GEMMSplitK, error) {
	g, err := NewGEMMSplitK(M, N, K, s.S)
	if err != nil {
		return nil, err
	}
	g.GPUScheduleSplitK(s.Tiling)
	return g, nil
}

// GEMMSplitKSchedules are the split-K schedules of apps/gemm, for
// M = 1024, K = 2048, N = 512 on an H100 (132 SMs). There, GEMM's fastest
// schedule, 64x32 tiles of 4x4 per thread, has 256 blocks of 128 threads,
// each running the whole 2048-long k loop: 12% achieved occupancy. S
// slices make S times the blocks, each with a K/S-long loop, for S*M*N
// atomic adds and a kernel that zeroes C.
var GEMMSplitKSchedules = []GEMMSplitKSchedule{
	// 64x32 tiles, 4x4 per thread (128 threads): 512 and 1024 blocks.
	{"splitk2_64x32", 2, GEMMTiling{BlockJ: 64, BlockI: 32, RegJ: 4, RegI: 4, KStep: 16}},
	{"splitk4_64x32", 4, GEMMTiling{BlockJ: 64, BlockI: 32, RegJ: 4, RegI: 4, KStep: 16}},
	// 32x32 tiles, 2x4 per thread (128 threads): 2048 blocks, fewer
	// flops per shared load.
	{"splitk4_32x32", 4, GEMMTiling{BlockJ: 32, BlockI: 32, RegJ: 2, RegI: 4, KStep: 16}},
	// 64x64 tiles, 4x4 per thread (256 threads): 1024 blocks of a
	// 256-long k loop.
	{"splitk8_64x64", 8, GEMMTiling{BlockJ: 64, BlockI: 64, RegJ: 4, RegI: 4, KStep: 16}},
	// The same, the tiles loaded as float4 (GEMMTiling.Vec).
	{"splitk8_64x64_v4", 8, GEMMTiling{BlockJ: 64, BlockI: 64, RegJ: 4, RegI: 4, KStep: 16, Vec: 4}},
	{"splitk4_64x32_v4", 4, GEMMTiling{BlockJ: 64, BlockI: 32, RegJ: 4, RegI: 4, KStep: 16, Vec: 4}},
	// 128x64 tiles, 8x8 per thread (128 threads): twice the flops per
	// shared load of 4x4, the blocks made up by the slices (64 tiles x 4).
	{"splitk4_128x64", 4, GEMMTiling{BlockJ: 128, BlockI: 64, RegJ: 8, RegI: 8, KStep: 8}},
}
