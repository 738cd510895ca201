package algo

import (
	"math/rand"

	"github.com/gohalide/gohalide/halide"
)

// MapKind is a distribution of the tensor product's gather and scatter
// maps.
type MapKind int

const (
	// HotSpotMaps draws uniform maps except that every fifth pair
	// scatters to output point 0 and every seventh to its neighbour's
	// point: many atomic collisions, for correctness checks (the default).
	HotSpotMaps MapKind = iota
	// UniformMaps draws every map entry uniformly, as the PyTorch, Triton
	// and Halide baselines do: the benchmark's distribution.
	UniformMaps
)

// TensorProduct is the gather / tensor product / scatter pipeline of Halide
// issue #8427 (a sparse convolution step), as reconstructed from the
// issue's report:
//
//	GatherInput[c, p, n]  = input[c, unsafe_promise_clamped(imap[p, n], 0, input.dim(1).max())]
//	GatherWeight[c, m, n] = weight[c, m, n]
//	Product[m, p, n]      = 0
//	Product[m, p, n]     += GatherInput[rc, p, n] * GatherWeight[rc, m, n]    rc in [0, C)
//	output[m, o]          = 0
//	output[m, unsafe_promise_clamped(omap[r.y, r.x], 0, outSize-1)] += Product[m, r.y, r.x]
//	                        r = (0..weight.extent(2), 0..maxPos): r.x = n, r.y = p
//
// For every kernel offset n and pair p, the input point imap[p, n] times
// the C×M matrix weight[., ., n] is added to the output point omap[p, n].
// Several pairs may scatter to the same output point.
//
// One deliberate difference from the issue: the issue promises imap's
// values lie in [0, input.dim(0).max()], the channel dimension, although
// they index dimension 1 (points). We promise dimension 1, which is what
// the values really satisfy.
type TensorProduct struct {
	// float32Output is the output buffer of the algorithm's shape (NewOutput, Run).
	float32Output
	// Sizes. C and M (input and output channels; 64 in the real app) are
	// baked into the algorithm through weight's SetBounds and rc's extent;
	// N (kernel offsets), P (pairs per offset, the value of maxPos), InPoints
	// (input points) and OutPoints (output points, the value of outSize) are used
	// only by Inputs and the output's shape.
	C, M, N, P, InPoints, OutPoints int
	// Maps is how Inputs draws the gather and scatter maps.
	Maps MapKind

	// Inputs of the pipeline.
	MaxPos, OutSize *halide.Param[int32]
	Imap, Omap      *halide.ImageParam // int32 [p, n]
	Weight          *halide.ImageParam // float32 [c, m, n]
	Input           *halide.ImageParam // float32 [c, q]

	// Vars: c input channel, m output channel, p pair, n kernel offset, o
	// output point.
	Cv, Mv, Pv, Nv, Ov halide.Var

	// RC reduces over the input channels (Product's update); R is the
	// scatter domain (R.X() = n, R.Y() = p) of the output's update.
	RC, R *halide.RDom

	// Funcs. GatherInput and GatherWeight are pure (inline by default);
	// Product has a pure and an update definition; Output is the pipeline
	// output, a pure definition (zero) and a scatter update.
	GatherInput, GatherWeight, Product, Output *halide.Func

	inputBuf, weightBuf *halide.Buffer[float32]
	imapBuf, omapBuf    *halide.Buffer[int32]
}

// NewTensorProduct builds the algorithm for C input channels and M output
// channels; the other sizes are those of the data Inputs makes: N kernel
// offsets, P pairs per offset, InPoints input points and OutPoints output points.
func NewTensorProduct(C, M, N, P, InPoints, OutPoints int) *TensorProduct {
	t := &TensorProduct{C: C, M: M, N: N, P: P, InPoints: InPoints, OutPoints: OutPoints}
	t.float32Output = float32Output{"tensorproduct", func() []int { return []int{t.M, t.OutPoints} }}
	t.MaxPos = halide.NewParam[int32]("maxPos")
	t.OutSize = halide.NewParam[int32]("outSize")
	t.Imap = halide.NewImageParam("imap", halide.Int32, 2)
	t.Omap = halide.NewImageParam("omap", halide.Int32, 2)
	t.Weight = halide.NewImageParam("weight", halide.Float32, 3)
	t.Input = halide.NewImageParam("input", halide.Float32, 2)
	t.Weight.Dim(0).SetBounds(0, C)
	t.Weight.Dim(1).SetBounds(0, M)

	c, m, p, n, o := halide.NewVar("c"), halide.NewVar("m"), halide.NewVar("p"), halide.NewVar("n"), halide.NewVar("o")
	t.Cv, t.Mv, t.Pv, t.Nv, t.Ov = c, m, p, n, o

	t.GatherInput = halide.NewFunc("GatherInput")
	t.GatherInput.Define(c, p, n).Is(t.Input.At(c, halide.UnsafePromiseClamped(t.Imap.At(p, n), 0, t.Input.Dim(1).Max())))

	t.GatherWeight = halide.NewFunc("GatherWeight")
	t.GatherWeight.Define(c, m, n).Is(t.Weight.At(c, m, n))

	t.RC = halide.NewRDom("rc", halide.Range(0, C))
	t.Product = halide.NewFunc("Product")
	t.Product.Define(m, p, n).Is(float32(0))
	t.Product.Define(m, p, n).PlusEq(t.GatherInput.At(t.RC, p, n).Mul(t.GatherWeight.At(t.RC, m, n)))

	t.R = halide.NewRDom("r", halide.Range(0, t.Weight.Dim(2).Extent()), halide.Range(0, t.MaxPos))
	t.Output = halide.NewFunc("output")
	t.Output.Define(m, o).Is(float32(0))
	t.Output.Define(m, halide.UnsafePromiseClamped(t.Omap.At(t.R.Y(), t.R.X()), 0, t.OutSize.Expr().Sub(1))).
		PlusEq(t.Product.At(m, t.R.Y(), t.R.X()))
	return t
}

// Out returns the output Func.
func (t *TensorProduct) Out() *halide.Func { return t.Output }

// Inputs makes random inputs: features and weights uniform in [-1, 1];
// imap uniform in [0, InPoints); omap uniform in [0, OutPoints) with, in addition,
// some pairs of every offset sent to output point 0 and to the point of the
// previous pair, so that the scatter has collisions within an offset and
// across offsets. The maps have 3 more rows (p) than maxPos = P, filled
// with values that must not be read.
func (t *TensorProduct) Inputs(rng *rand.Rand) {
	t.inputBuf = randomFloats(rng, t.Input, t.C, t.InPoints)
	t.weightBuf = randomFloats(rng, t.Weight, t.C, t.M, t.N)
	const spare = 3
	t.imapBuf = halide.NewBuffer[int32](t.P+spare, t.N)
	t.omapBuf = halide.NewBuffer[int32](t.P+spare, t.N)
	for n := 0; n < t.N; n++ {
		for p := 0; p < t.P+spare; p++ {
			if p >= t.P {
				// Rows beyond maxPos: out of range on purpose.
				t.imapBuf.Set(int32(t.InPoints+1000), p, n)
				t.omapBuf.Set(int32(t.OutPoints+1000), p, n)
				continue
			}
			t.imapBuf.Set(int32(rng.Intn(t.InPoints)), p, n)
			o := int32(rng.Intn(t.OutPoints))
			switch {
			case t.Maps == UniformMaps:
			case p%5 == 1:
				o = 0
			case p%7 == 3:
				o = t.omapBuf.Get(p-1, n)
			}
			t.omapBuf.Set(o, p, n)
		}
	}
	t.Imap.Set(t.imapBuf)
	t.Omap.Set(t.omapBuf)
	t.MaxPos.Set(int32(t.P))
	t.OutSize.Set(int32(t.OutPoints))
}

// Reference computes output[m, o] = sum over (p, n) with omap[p, n] = o of
// sum_c input[c, imap[p, n]] * weight[c, m, n], in float64.
func (t *TensorProduct) Reference() *halide.Buffer[float64] {
	ref := halide.NewBuffer[float64](t.M, t.OutPoints)
	if t.inputBuf == nil {
		return ref
	}
	in, w := t.inputBuf, t.weightBuf
	for n := 0; n < t.N; n++ {
		for p := 0; p < t.P; p++ {
			q, o := int(t.imapBuf.Get(p, n)), int(t.omapBuf.Get(p, n))
			for m := 0; m < t.M; m++ {
				s := 0.0
				for c := 0; c < t.C; c++ {
					s += float64(in.Get(c, q)) * float64(w.Get(c, m, n))
				}
				ref.Set(ref.Get(m, o)+s, m, o)
			}
		}
	}
	return ref
}

// Check compares out with Reference (see Tol).
func (t *TensorProduct) Check(out halide.BufferRef) (float64, error) {
	return check(t.Name(), t.inputBuf != nil, out, t.Reference, Tol)
}
