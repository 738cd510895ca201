package limits_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gohalide/gohalide/halide"
)

// iterations is the work of the pipelines below: far more than could run
// before the deadline (the CPU executor does about 1e7 to 1e8 simple
// iterations a second), so only cancellation ends them early.
const iterations = 1_000_000_000

// cpuLoop is a pipeline of 1e9 iterations on the CPU: one sum over an RDom
// of 1e9 points into a single element.
func cpuLoop() (*halide.Pipeline, *halide.Buffer[int32]) {
	x := halide.NewVar("x")
	r := halide.NewRDom("r", halide.Range(0, iterations))
	f := halide.NewFunc("f")
	f.Define(x).Is(int32(0))
	f.Define(x).PlusEq(r.X().Add(x))
	return halide.NewPipeline(f), halide.NewBuffer[int32](1)
}

// emulatorLoop is a pipeline of 1e9 iterations in GPU kernels on the
// emulator: 1,000 threads (16 blocks of 64, the last partly guarded) each
// summing 1e6 points.
func emulatorLoop() (*halide.Pipeline, *halide.Buffer[int32]) {
	x, bx, tx := halide.NewVar("x"), halide.NewVar("bx"), halide.NewVar("tx")
	r := halide.NewRDom("r", halide.Range(0, iterations/1000))
	f := halide.NewFunc("f")
	f.Define(x).Is(int32(0))
	f.Define(x).PlusEq(r.X().Add(x))
	f.GPUTile1D(x, bx, tx, 64)
	f.Update(0).GPUTile1D(x, bx, tx, 64)
	return halide.NewPipeline(f), halide.NewBuffer[int32](1000)
}

// The latency budget of issue 11: a run canceled after 50 ms returns within
// 100 ms of the cancellation (150 ms in all).
const (
	cancelAfter = 50 * time.Millisecond
	maxTotal    = 150 * time.Millisecond
)

func TestCancel(t *testing.T) {
	for _, c := range []struct {
		name string
		make func() (*halide.Pipeline, *halide.Buffer[int32])
	}{{"cpu", cpuLoop}, {"emulator", emulatorLoop}} {
		t.Run(c.name+"/deadline", func(t *testing.T) {
			p, out := c.make()
			if err := p.Compile(); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), cancelAfter)
			defer cancel()
			start := time.Now()
			err := p.RealizeContext(ctx, out)
			checkCanceled(t, err, context.DeadlineExceeded, time.Since(start))
		})
		t.Run(c.name+"/cancel", func(t *testing.T) {
			p, out := c.make()
			if err := p.Compile(); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(cancelAfter, cancel)
			start := time.Now()
			err := p.RealizeContext(ctx, out)
			checkCanceled(t, err, context.Canceled, time.Since(start))
		})
		t.Run(c.name+"/benchmark", func(t *testing.T) {
			p, out := c.make()
			if err := p.Compile(); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), cancelAfter)
			defer cancel()
			start := time.Now()
			_, err := p.BenchmarkContext(ctx, out, 3)
			checkCanceled(t, err, context.DeadlineExceeded, time.Since(start))
		})
		t.Run(c.name+"/already-canceled", func(t *testing.T) {
			p, out := c.make()
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			err := p.RealizeContext(ctx, out)
			checkCanceled(t, err, context.Canceled, 0)
		})
	}
}

// checkCanceled checks err is an ErrCanceled *halide.Error wrapping want,
// returned within the latency budget.
func checkCanceled(t *testing.T, err, want error, took time.Duration) {
	t.Helper()
	var he *halide.Error
	if !errors.As(err, &he) || he.Code != halide.ErrCanceled {
		t.Fatalf("got %v, want an ErrCanceled *halide.Error", err)
	}
	if !errors.Is(err, want) {
		t.Errorf("errors.Is(%v, %v) is false", err, want)
	}
	if took > maxTotal {
		t.Errorf("returned after %v, want at most %v (canceled after %v)", took, maxTotal, cancelAfter)
	} else if took > 0 {
		t.Logf("returned after %v (canceled after %v): %v", took, cancelAfter, err)
	}
}

// TestRealizeContextBackground checks that a context that is never done
// changes nothing: the result is the same as Realize's.
func TestRealizeContextBackground(t *testing.T) {
	x := halide.NewVar("x")
	r := halide.NewRDom("r", halide.Range(0, 100))
	f := halide.NewFunc("f")
	f.Define(x).Is(int32(0))
	f.Define(x).PlusEq(r.X().Add(x))
	out := halide.NewBuffer[int32](4)
	if err := halide.NewPipeline(f).RealizeContext(context.Background(), out); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 4; i++ {
		// sum over r in [0, 100) of r + i = 4950 + 100 i.
		if got, want := out.Get(i), int32(4950+100*i); got != want {
			t.Errorf("f(%d) = %d, want %d", i, got, want)
		}
	}
}

// TestLowerCancel checks that lowering stops with its context: Lower,
// Compile and Realize (which lowers on first use) given a context that is
// done return ErrCanceled and lower nothing.
func TestLowerCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct {
		name string
		run  func(p *halide.Pipeline, out *halide.Buffer[int32]) error
	}{
		{"LowerContext", func(p *halide.Pipeline, _ *halide.Buffer[int32]) error { _, err := p.LowerContext(ctx); return err }},
		{"CompileContext", func(p *halide.Pipeline, _ *halide.Buffer[int32]) error { return p.CompileContext(ctx) }},
		{"RealizeContext", func(p *halide.Pipeline, out *halide.Buffer[int32]) error { return p.RealizeContext(ctx, out) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, out := cpuLoop()
			checkCanceled(t, c.run(p, out), context.Canceled, 0)
			// The pipeline is not left half compiled: with a live
			// context it lowers and runs.
			if _, err := p.LowerContext(context.Background()); err != nil {
				t.Fatal(err)
			}
		})
	}
}
