package algo

import (
	"math/rand"

	"github.com/gohalide/gohalide/halide"
)

// Depthwise is a depthwise 2-D convolution with "same" zero padding: each
// channel of each image is convolved with its own K×K kernel (the NCHW
// depthwise convolution of the TVM seed, dimensions listed innermost first):
//
//	Padded[x, y, c, b] = input[x, y, c, b] inside input, 0 outside   (ConstantExterior(input, 0))
//	Conv[x, y, c, b]   = 0
//	Conv[x, y, c, b]  += Padded[x + R.x - pad, y + R.y - pad, c, b] * weight[R.x, R.y, c]
//	Output[x, y, c, b] = Conv[x, y, c, b]
//
// with R = [0, K)² and pad = (K-1)/2. The output has the input's shape.
type Depthwise struct {
	// float32Output is the output buffer of the algorithm's shape (NewOutput, Run).
	float32Output
	// Sizes: batch, channels, height, width, kernel size.
	B, C, H, W, K int

	// Inputs: input[x, y, c, b] and weight[kx, ky, c].
	Input, Weight *halide.ImageParam

	// Vars of every Func.
	X, Y, Cv, Bv halide.Var

	// R is the kernel window (R.X() = kx, R.Y() = ky).
	R *halide.RDom

	// Padded is the input with its ConstantExterior boundary (a pure
	// Func over X, Y, Cv, Bv, inline by default); Conv the reduction (pure zero and one update); Output the
	// pipeline output, a copy of Conv.
	Padded, Conv, Output *halide.Func

	inputBuf, weightBuf *halide.Buffer[float32]
}

// NewDepthwise builds the algorithm for a batch of B images of C channels,
// H×W pixels, and K×K kernels.
func NewDepthwise(B, C, H, W, K int) *Depthwise {
	return newDepthwise(B, C, H, W, K, func(d *Depthwise) *halide.Func {
		padded := halide.NewFunc("padded")
		padded.Define(d.X, d.Y, d.Cv, d.Bv).Is(halide.ConstantExterior(d.Input, float32(0)).At(d.X, d.Y, d.Cv, d.Bv))
		return padded
	})
}

// newDepthwise builds Depthwise with the padded input that padded makes
// from d's Input and vars (NewDepthwise's and NewDepthwiseStaged's differ).
func newDepthwise(B, C, H, W, K int, padded func(d *Depthwise) *halide.Func) *Depthwise {
	d := &Depthwise{B: B, C: C, H: H, W: W, K: K}
	d.float32Output = float32Output{"depthwise", func() []int { return []int{d.W, d.H, d.C, d.B} }}
	d.Input = halide.NewImageParam("input", halide.Float32, 4)
	d.Weight = halide.NewImageParam("weight", halide.Float32, 3)
	x, y, c, b := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("c"), halide.NewVar("b")
	d.X, d.Y, d.Cv, d.Bv = x, y, c, b
	pad := (K - 1) / 2
	d.Padded = padded(d)
	d.R = halide.NewRDom("r", halide.Range(0, K), halide.Range(0, K))
	d.Conv = halide.NewFunc("conv")
	d.Conv.Define(x, y, c, b).Is(float32(0))
	d.Conv.Define(x, y, c, b).PlusEq(
		d.Padded.At(x.Add(d.R.X()).Sub(pad), y.Add(d.R.Y()).Sub(pad), c, b).Mul(d.Weight.At(d.R.X(), d.R.Y(), c)))
	d.Output = halide.NewFunc("depthwise")
	d.Output.Define(x, y, c, b).Is(d.Conv.At(x, y, c, b))
	return d
}

// Out returns the output Func.
func (d *Depthwise) Out() *halide.Func { return d.Output }

// Inputs makes an input [W, H, C, B] and weights [K, K, C] uniform in
// [-1, 1].
func (d *Depthwise) Inputs(rng *rand.Rand) {
	d.inputBuf = randomFloats(rng, d.Input, d.W, d.H, d.C, d.B)
	d.weightBuf = randomFloats(rng, d.Weight, d.K, d.K, d.C)
}

// Reference computes the convolution in float64, skipping the taps that
// fall outside the image.
func (d *Depthwise) Reference() *halide.Buffer[float64] {
	ref := halide.NewBuffer[float64](d.W, d.H, d.C, d.B)
	if d.inputBuf == nil {
		return ref
	}
	pad := (d.K - 1) / 2
	in, w := d.inputBuf, d.weightBuf
	for b := 0; b < d.B; b++ {
		for c := 0; c < d.C; c++ {
			for y := 0; y < d.H; y++ {
				for x := 0; x < d.W; x++ {
					s := 0.0
					for ky := 0; ky < d.K; ky++ {
						for kx := 0; kx < d.K; kx++ {
							ix, iy := x+kx-pad, y+ky-pad
							if ix >= 0 && ix < d.W && iy >= 0 && iy < d.H {
								s += float64(in.Get(ix, iy, c, b)) * float64(w.Get(kx, ky, c))
							}
						}
					}
					ref.Set(s, x, y, c, b)
				}
			}
		}
	}
	return ref
}

// Check compares out with Reference (see Tol).
func (d *Depthwise) Check(out halide.BufferRef) (float64, error) {
	return check(d.Name(), d.inputBuf != nil, out, d.Reference, Tol)
}
