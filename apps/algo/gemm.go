package algo

import (
	"math/rand"

	"github.com/gohalide/gohalide/halide"
)

// GEMM is the float32 matrix product C = A·B of an M×K matrix A and a K×N
// matrix B, all three stored row-major. Dimension 0 of a buffer is the
// contiguous one, so the buffers are a[k, i], b[j, k] and output[j, i]:
//
//	AIn[k, i]     = a[k, i]
//	BIn[j, k]     = b[j, k]
//	Prod[j, i]    = 0
//	Prod[j, i]   += AIn[R, i] * BIn[j, R]      R in [0, K)
//	Output[j, i]  = Prod[j, i]
type GEMM struct {
	// float32Output is the output buffer of the algorithm's shape (NewOutput, Run).
	float32Output
	// Sizes: A is M×K, B is K×N, the output M×N.
	M, N, K int

	// Inputs: a[k, i] and b[j, k].
	A, B *halide.ImageParam

	// Vars: J the column (innermost), I the row; Kv names the k dimension
	// of AIn and BIn.
	J, I, Kv halide.Var

	// R runs over k.
	R *halide.RDom

	// AIn and BIn are pure copies of the inputs (inline by default) that
	// schedules can compute at a tile, like Halide's ImageParam.in(); Prod
	// is the reduction; Output the pipeline output, a copy of Prod.
	AIn, BIn, Prod, Output *halide.Func

	aBuf, bBuf *halide.Buffer[float32]
}

// NewGEMM builds the product of an M×K and a K×N matrix.
func NewGEMM(M, N, K int) *GEMM {
	g := newGEMMInputs(M, N, K)
	j, i := g.J, g.I
	g.R = halide.NewRDom("r", halide.Range(0, g.A.Dim(0).Extent()))
	g.Prod = halide.NewFunc("prod")
	g.Prod.Define(j, i).Is(float32(0))
	g.Prod.Define(j, i).PlusEq(g.AIn.At(g.R, i).Mul(g.BIn.At(j, g.R)))
	g.Output = halide.NewFunc("gemm")
	g.Output.Define(j, i).Is(g.Prod.At(j, i))
	return g
}

// newGEMMInputs is the part of a GEMM that other formulations of the same
// product share (GEMMSplitK): the sizes, the inputs, the Vars and the
// input wrappers AIn and BIn; R, Prod and Output are left nil.
func newGEMMInputs(M, N, K int) *GEMM {
	g := &GEMM{M: M, N: N, K: K}
	g.float32Output = float32Output{"gemm", func() []int { return []int{g.N, g.M} }}
	g.A = halide.NewImageParam("A", halide.Float32, 2)
	g.B = halide.NewImageParam("B", halide.Float32, 2)
	// The sizes are part of the algorithm: loops over them get constant
	// extents (Realize checks the buffers against them).
	g.A.Dim(0).SetBounds(0, K)
	g.A.Dim(1).SetBounds(0, M)
	g.B.Dim(0).SetBounds(0, N)
	g.B.Dim(1).SetBounds(0, K)
	j, i, k := halide.NewVar("j"), halide.NewVar("i"), halide.NewVar("k")
	g.J, g.I, g.Kv = j, i, k
	g.AIn = halide.NewFunc("A_in")
	g.AIn.Define(k, i).Is(g.A.At(k, i))
	g.BIn = halide.NewFunc("B_in")
	g.BIn.Define(j, k).Is(g.B.At(j, k))
	return g
}

// Out returns the output Func.
func (g *GEMM) Out() *halide.Func { return g.Output }

// Inputs makes a [K, M] and b [N, K] uniform in [-1, 1].
func (g *GEMM) Inputs(rng *rand.Rand) {
	g.aBuf = randomFloats(rng, g.A, g.K, g.M)
	g.bBuf = randomFloats(rng, g.B, g.N, g.K)
}

// Reference computes output[j, i] = sum_k a[k, i] b[j, k] in float64.
func (g *GEMM) Reference() *halide.Buffer[float64] {
	ref := halide.NewBuffer[float64](g.N, g.M)
	if g.aBuf == nil {
		return ref
	}
	for i := 0; i < g.M; i++ {
		for j := 0; j < g.N; j++ {
			s := 0.0
			for k := 0; k < g.K; k++ {
				s += float64(g.aBuf.Get(k, i)) * float64(g.bBuf.Get(j, k))
			}
			ref.Set(s, j, i)
		}
	}
	return ref
}

// Check compares out with Reference (see Tol).
func (g *GEMM) Check(out halide.BufferRef) (float64, error) {
	return check(g.Name(), g.aBuf != nil, out, g.Reference, Tol)
}
