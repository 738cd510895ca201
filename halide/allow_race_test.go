package halide_test

import (
	"errors"
	"math/rand"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/halide"
	"github.com/gohalide/gohalide/ir"
)

// AllowRaceConditions lets an update's RVar loop run in parallel (CPU) or
// as GPU blocks and threads (emulator) without Atomic(). Where the points
// written are distinct the values are exact: checked against plain Go. A
// colliding write keeps one writer's value: on the CPU any of them, on
// the emulator (blocks and threads one at a time, x fastest) the last.

// raceSchedule runs update 0 of f's RVar r in parallel (tasks of 8) on the
// CPU, or as blocks of 8 threads on the emulator (the pure definition too,
// so that f lives in global memory).
func raceSchedule(f *halide.Func, x halide.Var, r *halide.RDom, target string) {
	u := f.Update(0).AllowRaceConditions()
	if target == "cpu" {
		u.Parallel(r.X(), 8)
		return
	}
	f.GPUTile1D(x, halide.NewVar("bx"), halide.NewVar("tx"), 8, halide.GuardWithIf)
	u.GPUTile1D(r.X(), halide.NewRVar("ro"), halide.NewRVar("ri"), 8, halide.GuardWithIf)
}

func TestAllowRaceConditionsDistinctPoints(t *testing.T) {
	for _, target := range []string{"cpu", "emulator"} {
		// Stream compaction: out(pos(r)) = r where keep(r), pos the
		// number of kept indexes before r (distinct for the kept ones).
		t.Run("compaction_"+target, func(t *testing.T) {
			const n = 203 // not a multiple of the task or block size 8
			rng := rand.New(rand.NewSource(7))
			keep, pos := halide.NewBuffer[int32](n), halide.NewBuffer[int32](n)
			want := make([]int32, n)
			for i := range want {
				want[i] = -1
			}
			k := 0
			for i := 0; i < n; i++ {
				keep.Set(int32(rng.Intn(2)), i)
				pos.Set(int32(k), i)
				if keep.Get(i) == 1 {
					want[k] = int32(i)
					k++
				}
			}
			x := halide.NewVar("x")
			r := halide.NewRDom("r", halide.Range(0, n))
			f := halide.NewFunc("out")
			f.Define(x).Is(-1)
			f.Define(halide.Clamp(pos.At(r), 0, n-1)).Is(halide.Select(keep.At(r).Eq(1), r, halide.Undef(halide.Int32)))
			raceSchedule(f, x, r, target)
			out := halide.NewBuffer[int32](n)
			if err := halide.NewPipeline(f).Realize(out); err != nil {
				t.Fatal(err)
			}
			for i, w := range want {
				if got := out.Get(i); got != w {
					t.Fatalf("out(%d) = %d, want %d", i, got, w)
				}
			}
		})
		// A permutation update that reads the point it writes:
		// f(p(r)) = 3*f(p(r)) + r with p(r) = 37*r mod 256, a bijection
		// of [0, 256) since 37 is odd.
		t.Run("permutation_"+target, func(t *testing.T) {
			const n = 256
			x := halide.NewVar("x")
			r := halide.NewRDom("r", halide.Range(0, n))
			f := halide.NewFunc("f")
			f.Define(x).Is(x.Mul(x))
			p := r.X().Mul(37).Mod(n)
			f.Define(p).Is(f.At(p).Mul(3).Add(r))
			raceSchedule(f, x, r, target)
			out := halide.NewBuffer[int32](n)
			if err := halide.NewPipeline(f).Realize(out); err != nil {
				t.Fatal(err)
			}
			want := make([]int32, n)
			for i := range want {
				want[i] = int32(i * i)
			}
			for i := 0; i < n; i++ {
				q := i * 37 % n
				want[q] = want[q]*3 + int32(i)
			}
			for i, w := range want {
				if got := out.Get(i); got != w {
					t.Fatalf("f(%d) = %d, want %d", i, got, w)
				}
			}
		})
	}
}

// Without the directive the same schedules are refused, as in Halide.
func TestAllowRaceConditionsNeeded(t *testing.T) {
	x := halide.NewVar("x")
	r := halide.NewRDom("r", halide.Range(0, 16))
	f := halide.NewFunc("f")
	f.Define(x).Is(0)
	f.Define(r.X().Mul(3).Mod(16)).Is(r)
	f.Update(0).Parallel(r.X())
	err := halide.NewPipeline(f).Realize(halide.NewBuffer[int32](16))
	var he *halide.Error
	if !errors.As(err, &he) || he.Code != halide.ErrSchedule {
		t.Fatalf("got %v, want an ErrSchedule refusal", err)
	}
}

// Colliding writes: every iteration writes f(0). The run is not refused
// and not reported by the emulator (its race check is of shared memory;
// f is in global memory); the value is one of the writers'.
func TestAllowRaceConditionsColliding(t *testing.T) {
	const n = 100
	for _, target := range []string{"cpu", "emulator"} {
		t.Run(target, func(t *testing.T) {
			x := halide.NewVar("x")
			r := halide.NewRDom("r", halide.Range(0, n))
			f := halide.NewFunc("f")
			f.Define(x).Is(0)
			f.Define(0).Is(r.X().Add(1))
			raceSchedule(f, x, r, target)
			out := halide.NewBuffer[int32](1)
			if err := halide.NewPipeline(f).Realize(out); err != nil {
				t.Fatal(err)
			}
			got := out.Get(0)
			if got < 1 || got > n {
				t.Fatalf("f(0) = %d, want one of the writes 1..%d", got, n)
			}
			if target == "emulator" && got != n {
				// The emulator's order: the last thread of the last block.
				t.Fatalf("f(0) = %d on the emulator, want %d (the last writer)", got, n)
			}
		})
	}
}

// On the emulator with f in GPU shared memory (computed per block of its
// consumer, the update's RVar over the block's threads): distinct points,
// so the shared-memory race check finds nothing and the values are exact.
func TestAllowRaceConditionsSharedMemory(t *testing.T) {
	const w, h = 16, 4
	x, y := halide.NewVar("x"), halide.NewVar("y")
	r := halide.NewRDom("r", halide.Range(0, w))
	f, g := halide.NewFunc("f"), halide.NewFunc("g")
	f.Define(x, y).Is(x.Add(y))
	p := r.X().Mul(5).Mod(w) // 5 is odd: a bijection of [0, 16)
	f.Define(p, y).Is(f.At(p, y).Mul(3).Add(r))
	g.Define(x, y).Is(f.At(x, y))
	g.GPUBlocks(y).GPUThreads(x)
	f.ComputeAt(g, y).GPUThreads(x)
	f.Update(0).AllowRaceConditions().GPUThreads(r.X())
	l, err := halide.NewPipeline(g).Lower()
	if err != nil {
		t.Fatal(err)
	}
	shared := false
	for _, k := range l.Kernels() {
		for _, a := range k.Allocs {
			shared = shared || a.Func == "f" && a.Memory == ir.GPUShared
		}
	}
	if !shared {
		t.Fatalf("f is not in GPU shared memory:\n%s", l)
	}
	out := halide.NewBuffer[int32](w, h)
	if err := halide.NewPipeline(g).Realize(out); err != nil {
		t.Fatal(err)
	}
	for j := 0; j < h; j++ {
		want := make([]int32, w)
		for i := range want {
			want[i] = int32(i + j)
		}
		for i := 0; i < w; i++ {
			q := i * 5 % w
			want[q] = want[q]*3 + int32(i)
		}
		for i, v := range want {
			if got := out.Get(i, j); got != v {
				t.Fatalf("g(%d, %d) = %d, want %d", i, j, got, v)
			}
		}
	}
}

// Colliding writes to GPU shared memory by threads of one block are what
// the emulator's shared-memory race check reports, directive or not: the
// run fails with its SharedRace error (documented on AllowRaceConditions).
func TestAllowRaceConditionsSharedCollision(t *testing.T) {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	r := halide.NewRDom("r", halide.Range(0, 16))
	f, g := halide.NewFunc("f"), halide.NewFunc("g")
	f.Define(x, y).Is(x.Add(y))
	f.Define(0, y).Is(r.X().Add(y))
	g.Define(x, y).Is(f.At(x, y))
	g.GPUBlocks(y).GPUThreads(x)
	f.ComputeAt(g, y).GPUThreads(x)
	f.Update(0).AllowRaceConditions().GPUThreads(r.X())
	err := halide.NewPipeline(g).Realize(halide.NewBuffer[int32](16, 4))
	if err == nil || !strings.Contains(err.Error(), "shared memory race") {
		t.Fatalf("got %v, want the emulator's shared memory race", err)
	}
}
