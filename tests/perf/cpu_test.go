package perf

import (
	"math/rand"
	"runtime"
	"sync"

	"github.com/gohalide/gohalide/halide"
)

// blur is in repeated at its edges, blurred along x into blurx (computed
// per row of the output), then along y: out = sum of the 3x3 box.
func blur(in *halide.ImageParam, parallel bool) *halide.Func {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	padded := halide.RepeatEdge(in)
	blurx := halide.NewFunc("blurx")
	blurx.Define(x, y).Is(padded.At(x.Sub(1), y).Add(padded.At(x, y)).Add(padded.At(x.Add(1), y)))
	out := halide.NewFunc("blury")
	out.Define(x, y).Is(blurx.At(x, y.Sub(1)).Add(blurx.At(x, y)).Add(blurx.At(x, y.Add(1))))
	blurx.ComputeAt(out, y)
	if parallel {
		out.Parallel(y)
	}
	return out
}

// blurLoop is blur as a plain Go loop over rows, rows [y0, y1).
func blurLoop(in []float32, out []float32, w, h, y0, y1 int) {
	row := make([][]float32, 3)
	for i := range row {
		row[i] = make([]float32, w)
	}
	cl := func(v, n int) int { return min(max(v, 0), n-1) }
	bx := func(dst []float32, y int) {
		src := in[cl(y, h)*w:]
		for x := 0; x < w; x++ {
			dst[x] = src[cl(x-1, w)] + src[x] + src[cl(x+1, w)]
		}
	}
	for y := y0; y < y1; y++ {
		bx(row[0], y-1)
		bx(row[1], y)
		bx(row[2], y+1)
		o := out[y*w : (y+1)*w]
		for x := range o {
			o[x] = row[0][x] + row[1][x] + row[2][x]
		}
	}
}

// parallelRows runs f over [0, h) in runtime.GOMAXPROCS chunks.
func parallelRows(h int, f func(y0, y1 int)) {
	n := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for i := range n {
		y0, y1 := h*i/n, h*(i+1)/n
		wg.Add(1)
		go func() { defer wg.Done(); f(y0, y1) }()
	}
	wg.Wait()
}

// gemm is C(j, i) = sum_k A(k, i) * B(j, k) (row-major n x n matrices),
// the reduction with k outside j, so the inner loop walks rows of B and C;
// rows of C in parallel when asked.
func gemm(a, b *halide.ImageParam, n int, parallel bool) *halide.Func {
	j, i := halide.NewVar("j"), halide.NewVar("i")
	a.Dim(0).SetBounds(0, n)
	a.Dim(1).SetBounds(0, n)
	b.Dim(0).SetBounds(0, n)
	b.Dim(1).SetBounds(0, n)
	r := halide.NewRDom("k", halide.Range(0, n))
	c := halide.NewFunc("c")
	c.Define(j, i).Is(float32(0))
	c.Define(j, i).PlusEq(a.At(r, i).Mul(b.At(j, r)))
	c.Update(0).Reorder(j, r, i)
	if parallel {
		c.Parallel(i)
		c.Update(0).Parallel(i)
	}
	return c
}

// gemmLoop is the plain loop: rows [i0, i1) of C = A B, k then j inner.
func gemmLoop(a, b, c []float32, n, i0, i1 int) {
	for i := i0; i < i1; i++ {
		ci := c[i*n : (i+1)*n]
		for j := range ci {
			ci[j] = 0
		}
		for k := 0; k < n; k++ {
			aik := a[i*n+k]
			bk := b[k*n : (k+1)*n]
			for j := range ci {
				ci[j] += aik * bk[j]
			}
		}
	}
}

func randomBuffer(rng *rand.Rand, dims ...int) *halide.Buffer[float32] {
	buf := halide.NewBuffer[float32](dims...)
	d := buf.Data()
	for i := range d {
		d[i] = rng.Float32()*2 - 1
	}
	return buf
}
