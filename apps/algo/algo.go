package algo

import (
	"errors"
	"fmt"
	"math"
	"math/rand"

	"github.com/gohalide/gohalide/halide"
)

// Tol is the tolerance of Check: an element passes when
// |got - want| <= Tol * max(1, |want|).
const Tol = 1e-4

// Algorithm is what every algorithm of the package provides.
type Algorithm interface {
	// Name is a short name, e.g. "gemm".
	Name() string
	// Out is the output Func.
	Out() *halide.Func
	// Inputs creates random inputs and Sets them on the ImageParams and
	// Params.
	Inputs(rng *rand.Rand)
	// NewOutput allocates a zeroed output buffer of the right shape and
	// element type (a *halide.Buffer[T]; float32 for the float apps).
	NewOutput() halide.BufferRef
	// Run realizes p (a pipeline of Out) into a new output buffer.
	Run(p *halide.Pipeline) (halide.BufferRef, error)
	// Check compares out, a buffer that Run or NewOutput made, with the
	// plain-Go reference computed from the inputs that Inputs made, and
	// returns the largest relative error: within Tol for float outputs,
	// 0 (identical) for integer outputs unless the algorithm's doc says
	// otherwise.
	Check(out halide.BufferRef) (maxRelErr float64, err error)
}

// TargetTolerant is an Algorithm whose Check accepts a tolerance on some
// target (local_laplacian: identical outputs on the CPU and the emulator,
// a stated tolerance on CUDA, which contracts multiply-adds into FMAs).
type TargetTolerant interface {
	// ForTarget sets the tolerance of Check for outputs computed on t.
	ForTarget(t halide.Target)
}

// ForTarget tells a, if it is TargetTolerant, the target its output is
// computed on; other algorithms' checks do not depend on it.
func ForTarget(a Algorithm, t halide.Target) {
	if tt, ok := a.(TargetTolerant); ok {
		tt.ForTarget(t)
	}
}

// ErrNoInputs is returned by Check when Inputs has not been called.
var ErrNoInputs = errors.New("algo: Inputs has not been called")

// fillFloats fills b with values uniform in [-1, 1] and makes sure that at
// least one is not zero.
func fillFloats(rng *rand.Rand, b *halide.Buffer[float32]) {
	b.Fill(func([]int) float32 { return rng.Float32()*2 - 1 })
	if d := b.Data(); len(d) > 0 {
		nonzero := false
		for _, x := range d {
			nonzero = nonzero || x != 0
		}
		if !nonzero {
			d[0] = 0.5
		}
	}
}

// randomFloats makes a float32 buffer of the extents, fills it with
// fillFloats and sets it on p: a random input of an algorithm.
func randomFloats(rng *rand.Rand, p *halide.ImageParam, extents ...int) *halide.Buffer[float32] {
	b := halide.NewBuffer[float32](extents...)
	fillFloats(rng, b)
	p.Set(b)
	return b
}

// float32Output is the Name, NewOutput and Run of an algorithm whose
// output is a float32 buffer; dims gives its extents (from the
// algorithm's sizes).
type float32Output struct {
	name string
	dims func() []int
}

// Name returns the algorithm's short name.
func (o float32Output) Name() string { return o.name }

// NewOutput returns a zeroed float32 output buffer of the algorithm's
// shape.
func (o float32Output) NewOutput() halide.BufferRef { return halide.NewBuffer[float32](o.dims()...) }

// Run realizes p into a new output buffer.
func (o float32Output) Run(p *halide.Pipeline) (halide.BufferRef, error) {
	return run(p, o.NewOutput())
}

// run realizes p into out.
func run(p *halide.Pipeline, out halide.BufferRef) (halide.BufferRef, error) {
	if err := p.Realize(out); err != nil {
		return nil, err
	}
	return out, nil
}

// check is the Check of the float32 algorithms: ErrNoInputs until Inputs
// has made the inputs (ready), then compareTol of out against ref().
func check(name string, ready bool, out halide.BufferRef, ref func() *halide.Buffer[float64], tol float64) (float64, error) {
	if !ready {
		return 0, ErrNoInputs
	}
	return compareTol(name, out, ref(), tol)
}

// compareTol returns the largest relative error of out (a float32
// buffer) against want (same shape) and an error naming the worst element
// if it exceeds tol.
func compareTol(name string, out halide.BufferRef, want *halide.Buffer[float64], tol float64) (float64, error) {
	got, ok := out.(*halide.Buffer[float32])
	if !ok || got == nil {
		return math.Inf(1), fmt.Errorf("%s: the output is %T, want a *halide.Buffer[float32]", name, out)
	}
	gs, ws := got.Shape(), want.Shape()
	if len(gs) != len(ws) {
		return math.Inf(1), fmt.Errorf("%s: output has %d dimensions, want %d", name, len(gs), len(ws))
	}
	for i := range gs {
		if gs[i].Min != ws[i].Min || gs[i].Extent != ws[i].Extent {
			return math.Inf(1), fmt.Errorf("%s: output dimension %d is [%d, +%d), want [%d, +%d)", name, i, gs[i].Min, gs[i].Extent, ws[i].Min, ws[i].Extent)
		}
	}
	maxRel := 0.0
	var worst []int
	var worstGot float32
	var worstWant float64
	forEach(ws, func(c []int) {
		w := want.Get(c...)
		g := got.Get(c...)
		rel := math.Abs(float64(g)-w) / math.Max(1, math.Abs(w))
		if math.IsNaN(rel) {
			rel = math.Inf(1)
		}
		if worst == nil || rel > maxRel {
			maxRel = rel
			worst, worstGot, worstWant = append([]int(nil), c...), g, w
		}
	})
	bad := maxRel > tol
	if bad {
		return maxRel, fmt.Errorf("%s: output%v = %v, want %v (relative error %.3g > %g)", name, worst, worstGot, worstWant, maxRel, tol)
	}
	return maxRel, nil
}

// forEach calls f with every coordinate of shape, dimension 0 fastest.
func forEach(shape []halide.BufDim, f func(c []int)) {
	c := make([]int, len(shape))
	for i, d := range shape {
		if d.Extent <= 0 {
			return
		}
		c[i] = d.Min
	}
	for {
		f(c)
		i := 0
		for ; i < len(c); i++ {
			c[i]++
			if c[i] < shape[i].Min+shape[i].Extent {
				break
			}
			c[i] = shape[i].Min
		}
		if i == len(c) {
			return
		}
	}
}
