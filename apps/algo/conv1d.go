package algo

import (
	"math/rand"

	"github.com/gohalide/gohalide/halide"
)

// Conv1D is the full 1-D convolution of the TVM seed (numpy.convolve):
//
//	APad[i]    = a[i] for i in [0, M), 0 elsewhere    (ConstantExterior(a, 0))
//	Output[i]  = 0
//	Output[i] += APad[i - R] * b[R]                   R in [0, N)
//
// for i in [0, M+N-1). The output Func is itself the reduction, so its
// update stage can be scheduled directly.
type Conv1D struct {
	// float32Output is the output buffer of the algorithm's shape (NewOutput, Run).
	float32Output
	// Sizes: the lengths of a and b.
	M, N int

	// Inputs: the signal a[i] and the kernel b[j].
	A, B *halide.ImageParam

	// I is the pure var.
	I halide.Var

	// R runs over the kernel.
	R *halide.RDom

	// APad is a with its ConstantExterior boundary (a pure Func over I,
	// inline by default); BIn is a pure copy of b (inline by default) that schedules
	// can compute somewhere or wrap; Output is the reduction.
	APad, BIn, Output *halide.Func

	aBuf, bBuf *halide.Buffer[float32]
}

// NewConv1D builds the convolution of a signal of length M with a kernel of
// length N.
func NewConv1D(M, N int) *Conv1D {
	v := newConv1DKernel(M, N)
	i := v.I
	v.Output = halide.NewFunc("conv1d")
	v.Output.Define(i).Is(float32(0))
	v.Output.Define(i).PlusEq(v.APad.At(i.Sub(v.R)).Mul(v.BIn.At(v.R)))
	return v
}

// newConv1DInputs makes what every Conv1D starts with: the inputs a and b,
// the var i and APad, a with a ConstantExterior(0) boundary.
func newConv1DInputs(M, N int) *Conv1D {
	v := &Conv1D{M: M, N: N}
	v.float32Output = float32Output{"conv1d", func() []int { return []int{v.M + v.N - 1} }}
	v.A = halide.NewImageParam("a", halide.Float32, 1)
	v.B = halide.NewImageParam("b", halide.Float32, 1)
	i := halide.NewVar("i")
	v.I = i
	v.APad = halide.NewFunc("a_pad")
	v.APad.Define(i).Is(halide.ConstantExterior(v.A, float32(0)).At(i))
	return v
}

// newConv1DKernel is newConv1DInputs with BIn, a copy of b, and R over
// the kernel: what Conv1D and Conv1DAcc reduce.
func newConv1DKernel(M, N int) *Conv1D {
	v := newConv1DInputs(M, N)
	v.BIn = halide.NewFunc("b_in")
	v.BIn.Define(v.I).Is(v.B.At(v.I))
	v.R = halide.NewRDom("r", halide.Range(0, N))
	return v
}

// Out returns the output Func.
func (v *Conv1D) Out() *halide.Func { return v.Output }

// Inputs makes a [M] and b [N] uniform in [-1, 1].
func (v *Conv1D) Inputs(rng *rand.Rand) {
	v.aBuf = randomFloats(rng, v.A, v.M)
	v.bBuf = randomFloats(rng, v.B, v.N)
}

// Reference computes out[i] = sum_j a[i-j] b[j] in float64.
func (v *Conv1D) Reference() *halide.Buffer[float64] {
	ref := halide.NewBuffer[float64](v.M + v.N - 1)
	if v.aBuf == nil {
		return ref
	}
	for i := 0; i < v.M+v.N-1; i++ {
		s := 0.0
		for j := 0; j < v.N; j++ {
			if k := i - j; k >= 0 && k < v.M {
				s += float64(v.aBuf.Get(k)) * float64(v.bBuf.Get(j))
			}
		}
		ref.Set(s, i)
	}
	return ref
}

// Check compares out with Reference (see Tol).
func (v *Conv1D) Check(out halide.BufferRef) (float64, error) {
	return check(v.Name(), v.aBuf != nil, out, v.Reference, Tol)
}
