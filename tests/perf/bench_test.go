package perf

import (
	"math"
	"math/rand"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// TestBlurMatchesLoop checks the blur pipeline against the plain loop on
// random inputs (sums of 9 floats in [-1, 1]: equal to 1e-5).
func TestBlurMatchesLoop(t *testing.T) {
	for _, parallel := range []bool{false, true} {
		const w, h = 67, 41
		rng := rand.New(rand.NewSource(1))
		inBuf := randomBuffer(rng, w, h)
		in := halide.NewImageParam("in", halide.Float32, 2)
		in.Set(inBuf)
		out := halide.NewBuffer[float32](w, h)
		if err := halide.NewPipeline(blur(in, parallel)).Realize(out); err != nil {
			t.Fatal(err)
		}
		want := make([]float32, w*h)
		blurLoop(inBuf.Data(), want, w, h, 0, h)
		for i, v := range out.Data() {
			if math.Abs(float64(v-want[i])) > 1e-5 {
				t.Fatalf("parallel=%v: out[%d] = %v, want %v", parallel, i, v, want[i])
			}
		}
	}
}

// TestGEMMMatchesLoop checks the GEMM pipeline against the plain loop
// (same summation order: equal to 1e-4 relative).
func TestGEMMMatchesLoop(t *testing.T) {
	for _, parallel := range []bool{false, true} {
		const n = 37
		rng := rand.New(rand.NewSource(2))
		aBuf, bBuf := randomBuffer(rng, n, n), randomBuffer(rng, n, n)
		a := halide.NewImageParam("A", halide.Float32, 2)
		b := halide.NewImageParam("B", halide.Float32, 2)
		a.Set(aBuf)
		b.Set(bBuf)
		out := halide.NewBuffer[float32](n, n)
		if err := halide.NewPipeline(gemm(a, b, n, parallel)).Realize(out); err != nil {
			t.Fatal(err)
		}
		want := make([]float32, n*n)
		gemmLoop(aBuf.Data(), bBuf.Data(), want, n, 0, n)
		for i, v := range out.Data() {
			if math.Abs(float64(v-want[i])) > 1e-4*max(1, math.Abs(float64(want[i]))) {
				t.Fatalf("parallel=%v: out[%d] = %v, want %v", parallel, i, v, want[i])
			}
		}
	}
}

// BenchmarkBlur2048 is the 2048x2048 blur: the plain loop, then the
// pipeline, serial and with rows in parallel (GOMAXPROCS goroutines on
// both sides). The pipeline's "x-loop" metric is its ns/op over the
// loop's, measured just before in the same run.
func BenchmarkBlur2048(b *testing.B) {
	const w, h = 2048, 2048
	rng := rand.New(rand.NewSource(3))
	inBuf := randomBuffer(rng, w, h)
	for _, parallel := range []bool{false, true} {
		var loopNs float64
		b.Run(mode(parallel)+"/loop", func(b *testing.B) {
			out := make([]float32, w*h)
			loopNs = timeLoop(b, func() {
				if parallel {
					parallelRows(h, func(y0, y1 int) { blurLoop(inBuf.Data(), out, w, h, y0, y1) })
				} else {
					blurLoop(inBuf.Data(), out, w, h, 0, h)
				}
			})
		})
		b.Run(mode(parallel)+"/pipeline", func(b *testing.B) {
			in := halide.NewImageParam("in", halide.Float32, 2)
			in.Set(inBuf)
			benchRealize(b, halide.NewPipeline(blur(in, parallel)), halide.NewBuffer[float32](w, h), loopNs)
		})
	}
}

// BenchmarkGEMM512 is the 512x512x512 float32 GEMM, loop then pipeline,
// serial and parallel (rows of C), with the same "x-loop" metric.
func BenchmarkGEMM512(b *testing.B) {
	const n = 512
	rng := rand.New(rand.NewSource(4))
	aBuf, bBuf := randomBuffer(rng, n, n), randomBuffer(rng, n, n)
	for _, parallel := range []bool{false, true} {
		var loopNs float64
		b.Run(mode(parallel)+"/loop", func(b *testing.B) {
			out := make([]float32, n*n)
			loopNs = timeLoop(b, func() {
				if parallel {
					parallelRows(n, func(i0, i1 int) { gemmLoop(aBuf.Data(), bBuf.Data(), out, n, i0, i1) })
				} else {
					gemmLoop(aBuf.Data(), bBuf.Data(), out, n, 0, n)
				}
			})
		})
		b.Run(mode(parallel)+"/pipeline", func(b *testing.B) {
			a := halide.NewImageParam("A", halide.Float32, 2)
			bb := halide.NewImageParam("B", halide.Float32, 2)
			a.Set(aBuf)
			bb.Set(bBuf)
			benchRealize(b, halide.NewPipeline(gemm(a, bb, n, parallel)), halide.NewBuffer[float32](n, n), loopNs)
		})
	}
}

func mode(parallel bool) string {
	if parallel {
		return "parallel"
	}
	return "serial"
}

// timeLoop times f and returns its ns per call.
func timeLoop(b *testing.B, f func()) float64 {
	calls := 0
	for b.Loop() {
		f()
		calls++
	}
	return float64(b.Elapsed().Nanoseconds()) / float64(calls)
}

// benchRealize times p.Realize(out), compiled once before the timing,
// and reports its ns/op over loopNs as "x-loop" (when the loop ran).
func benchRealize(b *testing.B, p *halide.Pipeline, out *halide.Buffer[float32], loopNs float64) {
	if err := p.Realize(out); err != nil {
		b.Fatal(err)
	}
	calls := 0
	for b.Loop() {
		if err := p.Realize(out); err != nil {
			b.Fatal(err)
		}
		calls++
	}
	if loopNs > 0 {
		ns := float64(b.Elapsed().Nanoseconds()) / float64(calls)
		b.ReportMetric(ns/loopNs, "x-loop")
	}
}
