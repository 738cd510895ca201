package halide_test

import (
	"errors"
	"math/rand"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// Fusing a pure var with an RVar in an update (Halide's
// f.update().reorder(x, r).fuse(x, r, rx)) makes a loop that counts as an
// RVar loop: vectorizing it keeps the order; running it in parallel or on
// GPU blocks and threads needs Atomic() (or AllowRaceConditions, or an
// RVar whose iterations are independent). Checked on the CPU and the GPU
// emulator against plain Go.

// sumRowsInput is in(x, r): 10 columns of 7 rows, random.
func sumRowsInput() *halide.Buffer[int32] {
	rng := rand.New(rand.NewSource(5))
	in := halide.NewBuffer[int32](10, 7)
	in.Fill(func([]int) int32 { return int32(rng.Intn(1000)) - 500 })
	return in
}

// sumRows is f(x) = x, f(x) += in(x, r) with the update's x and r fused by
// sched.
func sumRows(t *testing.T, in *halide.Buffer[int32], sched func(f *halide.Func, x halide.Var, r *halide.RDom)) error {
	t.Helper()
	x := halide.NewVar("x")
	r := halide.NewRDom("r", halide.Range(0, 7))
	f := halide.NewFunc("f")
	f.Define(x).Is(x)
	f.Define(x).PlusEq(in.At(x, r))
	sched(f, x, r)
	out := halide.NewBuffer[int32](10)
	if err := halide.NewPipeline(f).Realize(out); err != nil {
		return err
	}
	for i := 0; i < 10; i++ {
		want := int32(i)
		for j := 0; j < 7; j++ {
			want += in.Get(i, j)
		}
		if got := out.Get(i); got != want {
			t.Fatalf("f(%d) = %d, want %d", i, got, want)
		}
	}
	return nil
}

func TestFusePureVarWithRVar(t *testing.T) {
	in := sumRowsInput()
	rx := halide.NewRVar("rx")
	cases := []struct {
		name  string
		sched func(f *halide.Func, x halide.Var, r *halide.RDom)
	}{
		{"x_inner_vectorized", func(f *halide.Func, x halide.Var, r *halide.RDom) {
			f.Update(0).Reorder(x, r).Fuse(x, r, rx).Atomic().Vectorize(rx, 8)
		}},
		{"r_inner_vectorized", func(f *halide.Func, x halide.Var, r *halide.RDom) {
			f.Update(0).Reorder(r, x).Fuse(r, x, rx).Atomic().Vectorize(rx, 4)
		}},
		{"x_inner_serial", func(f *halide.Func, x halide.Var, r *halide.RDom) {
			f.Update(0).Reorder(x, r).Fuse(x, r, rx)
		}},
		{"parallel_atomic", func(f *halide.Func, x halide.Var, r *halide.RDom) {
			f.Update(0).Reorder(x, r).Fuse(x, r, rx).Atomic().Parallel(rx, 4)
		}},
		{"gpu_atomic", func(f *halide.Func, x halide.Var, r *halide.RDom) {
			f.GPUTile1D(x, halide.NewVar("bx"), halide.NewVar("tx"), 8)
			f.Update(0).Reorder(x, r).Fuse(x, r, rx).Atomic().
				GPUTile1D(rx, halide.NewRVar("ro"), halide.NewRVar("ri"), 16, halide.GuardWithIf)
		}},
		{"gpu_atomic_r_inner", func(f *halide.Func, x halide.Var, r *halide.RDom) {
			f.GPUTile1D(x, halide.NewVar("bx"), halide.NewVar("tx"), 8)
			f.Update(0).Reorder(r, x).Fuse(r, x, rx).Atomic().
				GPUTile1D(rx, halide.NewRVar("ro"), halide.NewRVar("ri"), 8, halide.GuardWithIf)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := sumRows(t, in, c.sched); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// The fused loop is an RVar loop: without Atomic() a parallel or GPU loop
// over it is the race refusal.
func TestFusePureVarWithRVarNeedsAtomic(t *testing.T) {
	in := sumRowsInput()
	rx := halide.NewRVar("rx")
	for _, gpu := range []bool{false, true} {
		err := sumRows(t, in, func(f *halide.Func, x halide.Var, r *halide.RDom) {
			s := f.Update(0).Reorder(x, r).Fuse(x, r, rx)
			if gpu {
				f.GPUTile1D(x, halide.NewVar("bx"), halide.NewVar("tx"), 8)
				s.GPUTile1D(rx, halide.NewRVar("ro"), halide.NewRVar("ri"), 16, halide.GuardWithIf)
			} else {
				s.Parallel(rx)
			}
		})
		var he *halide.Error
		if !errors.As(err, &he) || he.Code != halide.ErrSchedule {
			t.Fatalf("gpu %v: got %v, want the race refusal", gpu, err)
		}
	}
}

// Where the RVar's iterations are independent (f(x, r) written at r), the
// fused loop may run on the GPU without Atomic().
func TestFusePureVarWithIndependentRVar(t *testing.T) {
	in := sumRowsInput()
	for _, target := range []string{"cpu", "emulator"} {
		t.Run(target, func(t *testing.T) {
			x, y := halide.NewVar("x"), halide.NewVar("y")
			r := halide.NewRDom("r", halide.Range(0, 7))
			rx := halide.NewRVar("rx")
			f := halide.NewFunc("f")
			f.Define(x, y).Is(0)
			f.Define(x, r).Is(f.At(x, r).Add(in.At(x, r).Mul(3)))
			u := f.Update(0).Reorder(x, r).Fuse(x, r, rx)
			if target == "cpu" {
				u.Parallel(rx, 8)
			} else {
				f.GPUTile(x, y, halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty"), 8, 8, halide.GuardWithIf)
				u.GPUTile1D(rx, halide.NewRVar("ro"), halide.NewRVar("ri"), 16, halide.GuardWithIf)
			}
			out := halide.NewBuffer[int32](10, 7)
			if err := halide.NewPipeline(f).Realize(out); err != nil {
				t.Fatal(err)
			}
			for j := 0; j < 7; j++ {
				for i := 0; i < 10; i++ {
					if got, want := out.Get(i, j), 3*in.Get(i, j); got != want {
						t.Fatalf("f(%d, %d) = %d, want %d", i, j, got, want)
					}
				}
			}
		})
	}
}

// A GPU thread loop over a fused pure var and RVar is no all-reduce (its
// threads write different points of f): without Atomic() it is refused,
// with it the stores are atomic and the values exact.
func TestFusePureVarWithRVarGPUThreads(t *testing.T) {
	in := sumRowsInput()
	for _, atomic := range []bool{false, true} {
		x, y := halide.NewVar("x"), halide.NewVar("y")
		r := halide.NewRDom("r", halide.Range(0, 7))
		rx := halide.NewRVar("rx")
		f := halide.NewFunc("f")
		f.Define(x, y).Is(y)
		f.Define(x, y).PlusEq(in.At(x, r))
		f.GPUTile(x, y, halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty"), 8, 8, halide.GuardWithIf)
		u := f.Update(0).Reorder(x, r, y).Fuse(x, r, rx)
		if atomic {
			u.Atomic()
		}
		u.GPUBlocks(y).GPUThreads(rx)
		out := halide.NewBuffer[int32](10, 3)
		err := halide.NewPipeline(f).Realize(out)
		if !atomic {
			var he *halide.Error
			// Not the all-reduce (which a thread loop over the RVar alone
			// would be): the race refusal.
			if !errors.As(err, &he) || he.Code != halide.ErrSchedule || !strings.Contains(err.Error(), "race condition") {
				t.Fatalf("without Atomic: got %v, want the race refusal", err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		for j := 0; j < 3; j++ {
			for i := 0; i < 10; i++ {
				want := int32(j)
				for k := 0; k < 7; k++ {
					want += in.Get(i, k)
				}
				if got := out.Get(i, j); got != want {
					t.Fatalf("f(%d, %d) = %d, want %d", i, j, got, want)
				}
			}
		}
	}
}

// The fused loop's splits take an RVar's tail (GuardWithIf, never RoundUp,
// which would run r past the RDom) also where f is not the output.
func TestFusePureVarWithRVarTail(t *testing.T) {
	in := sumRowsInput()
	for _, target := range []string{"cpu", "emulator"} {
		t.Run(target, func(t *testing.T) {
			x := halide.NewVar("x")
			r := halide.NewRDom("r", halide.Range(0, 7))
			rx := halide.NewRVar("rx")
			f, g := halide.NewFunc("f"), halide.NewFunc("g")
			f.Define(x).Is(x)
			f.Define(x).PlusEq(in.At(x, r))
			g.Define(x).Is(f.At(x).Mul(2))
			f.ComputeRoot()
			u := f.Update(0).Reorder(x, r).Fuse(x, r, rx).Atomic()
			if target == "cpu" {
				u.Vectorize(rx, 8) // 70 iterations: a tail of 6
			} else {
				f.GPUTile1D(x, halide.NewVar("bx"), halide.NewVar("tx"), 8)
				u.GPUTile1D(rx, halide.NewRVar("ro"), halide.NewRVar("ri"), 16)
			}
			out := halide.NewBuffer[int32](10)
			if err := halide.NewPipeline(g).Realize(out); err != nil {
				t.Fatal(err)
			}
			for i := 0; i < 10; i++ {
				want := int32(i)
				for j := 0; j < 7; j++ {
					want += in.Get(i, j)
				}
				if got := out.Get(i); got != 2*want {
					t.Fatalf("g(%d) = %d, want %d", i, got, 2*want)
				}
			}
		})
	}
}

// RoundUp on the fused loop would run r past the RDom: refused, as on an
// RVar.
func TestFusePureVarWithRVarRoundUp(t *testing.T) {
	err := sumRows(t, sumRowsInput(), func(f *halide.Func, x halide.Var, r *halide.RDom) {
		f.Update(0).Reorder(x, r).Fuse(x, r, halide.NewRVar("rx")).
			Split(halide.NewRVar("rx"), halide.NewRVar("ro"), halide.NewRVar("ri"), 8, halide.RoundUp)
	})
	var he *halide.Error
	if !errors.As(err, &he) || he.Code != halide.ErrSchedule || !strings.Contains(err.Error(), "RoundUp") {
		t.Fatalf("got %v, want the RoundUp refusal", err)
	}
}

// A producer computed at the fused loop is computed once per iteration,
// at the point of x that iteration reads.
func TestFusePureVarWithRVarComputeAt(t *testing.T) {
	in := sumRowsInput()
	x := halide.NewVar("x")
	r := halide.NewRDom("r", halide.Range(0, 7))
	rx := halide.NewRVar("rx")
	f, g := halide.NewFunc("f"), halide.NewFunc("g")
	g.Define(x).Is(in.At(x, 0).Mul(5))
	f.Define(x).Is(x)
	f.Define(x).PlusEq(in.At(x, r).Add(g.At(x)))
	f.Update(0).Reorder(x, r).Fuse(x, r, rx)
	g.ComputeAtStage(f.Update(0), rx)
	out := halide.NewBuffer[int32](10)
	if err := halide.NewPipeline(f).Realize(out); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 10; i++ {
		want := int32(i)
		for j := 0; j < 7; j++ {
			want += in.Get(i, j) + 5*in.Get(i, 0)
		}
		if got := out.Get(i); got != want {
			t.Fatalf("f(%d) = %d, want %d", i, got, want)
		}
	}
}
