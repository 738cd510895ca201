package halide_test

// Ports of a fifth set of Halide's test/correctness files: operators,
// types and tuples. Each TestFifthPortedXxx is one C++ file (xxx.cpp),
// each subtest one of its test cases, with the same algorithm and the
// same schedule directives (GPU schedules that Halide takes under
// target.has_gpu_feature() run on the GPU emulator, as subtests named
// <case>_gpu; evaluate_may_gpu is a zero-dimensional Func, with
// GPUSingleThread in the _gpu subtest). Each output is compared with a
// plain-Go reference: integers exactly, floats with the tolerance stated
// at the check. Inputs are random (never all zeros) where Halide's are.
// Every Lower and Realize runs under a 20 s context deadline and fails
// past 5 s. Where Halide only compiles (compile_jit) or only defines, the
// port lowers and, where it can, realizes and checks values too.
// Halide's extern call_counter (concat.cpp) is replaced by store traces.
//
// Subtests named after the C++ case pass as Halide writes them. Where the
// faithful port is refused, the subtest asserts that the refusal is a
// typed *halide.Error (mpRefused) and a subtest <name>_variant changes
// the fewest things for it to pass. Library bugs have a minimal
// reproduction TestFifthPortedBugN, skipped.
//
// Refusals:
//   - unroll_huge_mux: "unroll: cannot unroll loop f.s0.x: 5000
//     iterations is more than 1024" (a limit of the library); the variant
//     splits x by 8 and unrolls the inner loop. Split by 1000 it took
//     13 s; the simplifier now folds each unrolled x == i that x's
//     remainder rules out (TestFifthPortedBug3, a regression test).
//   - reduction_predicate_racing, third case (f(2r+1) = 2 where
//     f(2r) == 1, parallel over r): was refused as a possible race; runs
//     as written since the race check proves 2r+1 one-to-one
//     (TestFifthPortedBug1, now a regression test). The variant with
//     AllowRaceConditions() is kept.
//   - indexing_access_undef, second case: "Input buffer ... is accessed
//     in an unbounded way": the clamp to input.dim(0).min()/max() in the
//     compute_root f does not bound the read input(f(x) + c); the variant
//     clamps to the constants 0 and 1023 (TestFifthPortedBug2). Halide's
//     bound_extent is not in the API: g is computed at h's x without it.
//
// Not in the API: cast.cpp's broadcast-of-ramp case (Internal::Ramp and
// Broadcast), cse_nan's Target::StrictFloat (no reassociation here
// anyway), typed_func's Func(Type, dims), types() of an undefined Func,
// required_types and output_buffer() (the update cases are ported on
// untyped Funcs, with _variant casts where the implicit init takes the
// right-hand side's type), float16_t_comparison's host-side float16_t
// operators (the bit checks use F16/BF16 bits, the comparisons run in a
// pipeline on Float16/BFloat16 Exprs).
//
// Library changes made for this file: halide/expr.go matchTypes (an int
// and a uint operand become Int of the wider width, as Halide's
// match_types: cast.cpp asserts uint16 + int8 is int16, we gave uint16),
// halide/shared_exprs.go bindShared (shared nodes over Func or image
// reads were never bound, so many_inlined_selects' 500-long chain stayed
// a tree of exponential size and Lower ran for minutes).
//
// Files skipped as duplicates: argmax, tuple_reduction,
// tuple_vector_reduce (tuple_ported_test.go), implicit_args
// (tuple_ported_test.go). Not reached before the deadline: associativity,
// bitwise_ops, float16_t, float16_t_constants, transpose_idioms,
// transposed_vector_reduce, fit_function, register_shuffle,
// gpu_f16_intrinsics, cuda_8_bit_dot_product, lossless_cast.

import (
	"context"
	"errors"
	"math"
	"math/bits"
	"math/rand"
	"sort"
	"testing"
	"time"

	"github.com/gohalide/gohalide/halide"
)

var _ = errors.As
var _ = sort.Ints
var _ = bits.OnesCount

// t5Lower lowers p under the deadline, failing if it takes more than
// 5 s (Halide's compile_jit-only tests).
func t5Lower(t *testing.T, p *halide.Pipeline) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), t3Deadline)
	defer cancel()
	start := time.Now()
	_, err := p.LowerContext(ctx)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Lower took %v", d)
	}
	return err
}

func t5Check1[T halide.Number](t *testing.T, name string, b *halide.Buffer[T], x0, x1 int, ref func(x int) T) {
	t.Helper()
	m2Check1(t, name, b, x0, x1, ref)
}

func t5Check2[T halide.Number](t *testing.T, name string, b *halide.Buffer[T], x0, x1, y0, y1 int, ref func(x, y int) T) {
	t.Helper()
	m2Check2(t, name, b, x0, x1, y0, y1, ref)
}

func t5v(n string) halide.Var { return halide.NewVar(n) }

// t5Modes runs fn for the CPU schedule and, named "gpu", for the one
// Halide takes under target.has_gpu_feature() (on the emulator).
func t5Modes(t *testing.T, name string, fn func(t *testing.T, gpu bool)) {
	t.Run(name, func(t *testing.T) { fn(t, false) })
	t.Run(name+"_gpu", func(t *testing.T) { fn(t, true) })
}

// bool_compute_root_vectorize.cpp
func TestFifthPortedBoolComputeRootVectorize(t *testing.T) {
	t5Modes(t, "sum_of_selector", func(t *testing.T, gpu bool) {
		x, y := t5v("x"), t5v("y")
		pred, selector := halide.NewFunc("pred"), halide.NewFunc("selector")
		pred.Define(x, y).Is(x.Lt(y))
		selector.Define(x, y).Is(halide.Select(pred.At(x, y), 1, 0))
		pred.ComputeRoot()
		selector.ComputeRoot().Vectorize(x, 8)
		r := halide.NewRDom("range", halide.Range(0, 100), halide.Range(0, 100))
		ev := halide.NewFunc("ev")
		ev.Define().Is(halide.Sum(selector.At(r.X(), r.Y())))
		if gpu {
			ev.GPUSingleThread()
		}
		out := halide.NewBuffer[int32]()
		t3Realize(t, ev, out)
		if out.Get() != 4950 {
			t.Fatalf("result = %d, want 4950", out.Get())
		}
	})
}

// bool_predicate_cast.cpp
func TestFifthPortedBoolPredicateCast(t *testing.T) {
	t5Modes(t, "cast_of_predicate", func(t *testing.T, gpu bool) {
		x, y := t5v("x"), t5v("y")
		input, test := halide.NewFunc("input"), halide.NewFunc("test")
		input.Define(x, y).Is(halide.Cast(halide.UInt8, x.Add(y)))
		test.Define(x, y).Is(halide.Cast(halide.UInt8, input.At(x, y).Ge(32)))
		if gpu {
			xi, yi := t5v("xi"), t5v("yi")
			test.GPUTile(x, y, x, y, xi, yi, 8, 8)
		}
		out := halide.NewBuffer[uint8](96, 96)
		t3Realize(t, test, out)
		t5Check2(t, "test", out, 0, 96, 0, 96, func(x, y int) uint8 {
			if x+y >= 32 {
				return 1
			}
			return 0
		})
	})
}

// cast.cpp (the broadcast-of-ramp case builds Internal::Ramp and
// Broadcast nodes: no counterpart in the API).
func TestFifthPortedCast(t *testing.T) {
	t.Run("type_promotion", func(t *testing.T) {
		x := t5v("x")
		var intE, uintE [4]halide.Expr
		for i, b := range []halide.Type{halide.Int8, halide.Int16, halide.Int32, halide.Int64} {
			intE[i] = halide.Cast(b, x)
		}
		for i, b := range []halide.Type{halide.UInt8, halide.UInt16, halide.UInt32, halide.UInt64} {
			uintE[i] = halide.Cast(b, x)
		}
		floatE, doubleE := halide.Cast(halide.Float32, x), halide.Cast(halide.Float64, x)
		chk := func(what string, e halide.Expr, want halide.Type) {
			t.Helper()
			if err := e.Err(); err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			if e.Type() != want {
				t.Errorf("%s has type %v, want %v", what, e.Type(), want)
			}
		}
		for i := 0; i < 4; i++ {
			for j := 0; j < i; j++ {
				chk("int_i + int_j", intE[i].Add(intE[j]), intE[i].Type())
				chk("uint_i + uint_j", uintE[i].Add(uintE[j]), uintE[i].Type())
				chk("int_i + uint_j", intE[i].Add(uintE[j]), intE[i].Type())
				chk("uint_i + int_j", uintE[i].Add(intE[j]), intE[i].Type())
			}
			chk("int + 1", intE[i].Add(1), intE[i].Type())
			chk("1 + int", halide.E(1).Add(intE[i]), intE[i].Type())
			chk("int + 1.0f", intE[i].Add(float32(1)), halide.Float32)
			chk("uint + 1.0f", uintE[i].Add(float32(1)), halide.Float32)
			// a += 1.0f + uint_expr[i]: Halide's += casts the right-hand
			// side to a's type.
			a := intE[i]
			a = a.Add(halide.Cast(a.Type(), halide.E(float32(1)).Add(uintE[i])))
			chk("a += 1.0f + uint", a, intE[i].Type())
		}
		chk("float", floatE, halide.Float32)
		chk("double", doubleE, halide.Float64)
	})
}

// concat.cpp: Halide's extern call_counter is replaced by store traces
// of f and g.
func TestFifthPortedConcat(t *testing.T) {
	t.Run("select_of_two_funcs", func(t *testing.T) {
		x := t5v("x")
		f, g, h := halide.NewFunc("f"), halide.NewFunc("g"), halide.NewFunc("h")
		f.Define(x).Is(x.Add(1))
		g.Define(x).Is(x.Add(2))
		h.Define(x).Is(halide.Select(x.Lt(100), f.At(x), g.At(x)))
		f.ComputeRoot().TraceStores()
		g.ComputeRoot().TraceStores()
		h.ComputeRoot()
		counts := map[string]int{}
		out := halide.NewBuffer[int32](200)
		if err := t3Run(t, t3Pipe(counts, h), out); err != nil {
			t.Fatal(err)
		}
		t5Check1(t, "h", out, 0, 200, func(i int) int32 {
			if i < 100 {
				return int32(i + 1)
			}
			return int32(i + 2)
		})
		if counts["f"] != 100 || counts["g"] != 100 {
			t.Errorf("counts f=%d g=%d, Halide computes 100 each", counts["f"], counts["g"])
		}
	})
}

// cse_nan.cpp (Target::StrictFloat: our CPU and emulator do not
// reassociate floats, so it has no counterpart).
func TestFifthPortedCseNan(t *testing.T) {
	t.Run("select_is_nan", func(t *testing.T) {
		xyz := halide.NewImageParam("xyz", halide.Float32, 3)
		col, row := t5v("col"), t5v("row")
		f := halide.NewFunc("nan_or_one")
		f.Define(col, row).Is(halide.Select(halide.IsNaN(xyz.At(col, row, 0)), float32(math.NaN()), float32(1)))
		tb := halide.NewBuffer[float32](1, 1, 1)
		tb.Set(float32(math.NaN()), 0, 0, 0)
		fb := halide.NewBuffer[float32](1, 1, 1)
		fb.Set(2, 0, 0, 0)
		tr, fr := halide.NewBuffer[float32](1, 1), halide.NewBuffer[float32](1, 1)
		xyz.Set(tb)
		t3Realize(t, f, tr)
		xyz.Set(fb)
		t3Realize(t, f, fr)
		if !math.IsNaN(float64(tr.Get(0, 0))) || fr.Get(0, 0) != 1 {
			t.Fatalf("TR = %v, FR = %v", tr.Get(0, 0), fr.Get(0, 0))
		}
	})
}

// unroll_huge_mux.cpp: Halide only compiles it; the port also realizes
// it (over 5000 points).
func TestFifthPortedUnrollHugeMux(t *testing.T) {
	t.Run("mux_5000", func(t *testing.T) {
		const n = 5000
		x := t5v("x")
		f := halide.NewFunc("f")
		exprs := make([]any, n)
		for i := range exprs {
			exprs[i] = x.BitAnd(int32(i))
		}
		f.Define(x).Is(halide.Mux(x, exprs...))
		f.Bound(x, 0, n)
		f.Unroll(x)
		mpRefused(t, t5Lower(t, t3Pipe(nil, f)))
	})
	t.Run("mux_5000_variant", func(t *testing.T) {
		// Unroll is limited to 1024 iterations: x is split by 8 and the
		// inner loop unrolled (by 1000 it takes 13 s, see the header).
		const n = 5000
		x, xo, xi := t5v("x"), t5v("xo"), t5v("xi")
		f := halide.NewFunc("f")
		exprs := make([]any, n)
		for i := range exprs {
			exprs[i] = x.BitAnd(int32(i))
		}
		f.Define(x).Is(halide.Mux(x, exprs...))
		f.Bound(x, 0, n)
		f.Split(x, xo, xi, 8).Unroll(xi)
		out := halide.NewBuffer[int32](n)
		t3Realize(t, f, out)
		t5Check1(t, "f", out, 0, n, func(i int) int32 { return int32(i & i) })
	})
}

// vectorize_mixed_widths.cpp
func TestFifthPortedVectorizeMixedWidths(t *testing.T) {
	t.Run("mixed_widths", func(t *testing.T) {
		x, xo, xi := t5v("x"), t5v("xo"), t5v("xi")
		f, g := halide.NewFunc("f"), halide.NewFunc("g")
		f.Define(x).Is(halide.E(2).Mul(x))
		g.Define(x).Is(f.At(x).Div(2))
		f.ComputeAt(g, x).Split(x, xo, xi, 16).Vectorize(xi, 8).Unroll(xi)
		g.ComputeRoot().Vectorize(x, 16)
		out := halide.NewBuffer[int32](16)
		t3Realize(t, g, out)
		t5Check1(t, "g", out, 0, 16, func(i int) int32 { return int32(i) })
	})
}

// multi_way_select.cpp (Halide's select(c0, v0, c1, v1, ..., default) is
// the nested two-way select, written nested here).
func TestFifthPortedMultiWaySelect(t *testing.T) {
	t5Modes(t, "select_vs_reduction", func(t *testing.T, gpu bool) {
		x := t5v("x")
		cases := []int32{3, 7, 24, 5, 37, 91, 33, 14}
		var sel halide.Expr = halide.E(cases[7])
		for i := 6; i >= 0; i-- {
			sel = halide.Select(halide.E(x).Eq(int32(i)), cases[i], sel)
		}
		f, g := halide.NewFunc("f"), halide.NewFunc("g")
		f.Define(x).Is(sel)
		g.Define(x).Is(0)
		for i := 0; i < 8; i++ {
			g.Define(int32(i)).Is(cases[i])
		}
		r := halide.NewRDom("r", halide.Range(0, 8))
		ev := halide.NewFunc("ev")
		ev.Define().Is(halide.Sum(halide.Cast(halide.UInt32, halide.Abs(g.At(r).Sub(f.At(r))))))
		if gpu {
			ev.GPUSingleThread()
		}
		out := halide.NewBuffer[uint32]()
		t3Realize(t, ev, out)
		if out.Get() != 0 {
			t.Fatalf("err = %d", out.Get())
		}
		// And f itself, point by point.
		fb := halide.NewBuffer[int32](8)
		t3Realize(t, f, fb)
		t5Check1(t, "f", fb, 0, 8, func(i int) int32 { return cases[i] })
	})
}

// bound_small_allocations.cpp: Halide checks only that it compiles; the
// port also checks the values.
func TestFifthPortedBoundSmallAllocations(t *testing.T) {
	t.Run("int64_overflow_chain", func(t *testing.T) {
		calc := func(a halide.Expr) halide.Expr {
			prod := halide.Cast(halide.Int64, a).Mul(halide.Cast(halide.Int64, a))
			scaled := prod.Add(int64(1) << 30).Shr(31)
			clamped := halide.Clamp(scaled, int64(math.MinInt32), int64(math.MaxInt32))
			return halide.Cast(halide.Int32, clamped)
		}
		ref := func(a int32) int32 {
			p := int64(a) * int64(a)
			s := (p + 1<<30) >> 31
			if s > math.MaxInt32 {
				s = math.MaxInt32
			}
			if s < math.MinInt32 {
				s = math.MinInt32
			}
			return int32(s)
		}
		x, y := t5v("x"), t5v("y")
		f, g, h := halide.NewFunc("f"), halide.NewFunc("g"), halide.NewFunc("h")
		f.Define(x, y).Is(calc(halide.Max(x.Add(int32(1)<<28), int32(-(1<<29)+(1<<28)))))
		g.Define(x, y).Is(calc(f.At(x, y)).Add(f.At(x, y).Div(4)).Add(int32(1) << 30))
		h.Define(x, y).Is(calc(g.At(x, y)).Add(g.At(x, y).Div(4)).Add(int32(1) << 30))
		h.Vectorize(x, 8).ComputeRoot()
		out := halide.NewBuffer[int32](32, 32)
		t3Realize(t, h, out)
		div4 := func(v int32) int32 { // Euclidean, as Halide's /.
			q := v / 4
			if v%4 < 0 {
				q--
			}
			return q
		}
		t5Check2(t, "h", out, 0, 32, 0, 32, func(x, y int) int32 {
			a := int32(x) + 1<<28
			if a < -(1<<29)+(1<<28) {
				a = -(1 << 29) + (1 << 28)
			}
			fv := ref(a)
			gv := ref(fv) + div4(fv) + 1<<30
			return ref(gv) + div4(gv) + 1<<30
		})
	})
}

// reduction_predicate_racing.cpp: Halide only defines the Funcs (the
// race checks are at definition); the port realizes them too.
func TestFifthPortedReductionPredicateRacing(t *testing.T) {
	t.Run("where_reads_point_outside_rdom", func(t *testing.T) {
		x := t5v("x")
		f := halide.NewFunc("f")
		r := halide.NewRDom("r", halide.Range(1, 10))
		f.Define(x).Is(1)
		r.Where(f.At(0).Eq(1))
		f.Define(r).Is(2)
		f.Update(0).Parallel(r.X())
		out := halide.NewBuffer[int32](12)
		t3Realize(t, f, out)
		t5Check1(t, "f", out, 0, 12, func(i int) int32 {
			if i >= 1 && i < 11 {
				return 2
			}
			return 1
		})
	})
	t.Run("where_reads_own_point", func(t *testing.T) {
		x := t5v("x")
		f := halide.NewFunc("f")
		r := halide.NewRDom("r", halide.Range(0, 10))
		f.Define(x).Is(1)
		r.Where(f.At(r).Eq(1))
		f.Define(r).Is(2)
		f.Update(0).Parallel(r.X())
		out := halide.NewBuffer[int32](12)
		t3Realize(t, f, out)
		t5Check1(t, "f", out, 0, 12, func(i int) int32 {
			if i < 10 {
				return 2
			}
			return 1
		})
	})
	t.Run("where_reads_evens_writes_odds", func(t *testing.T) {
		x := t5v("x")
		f := halide.NewFunc("f")
		r := halide.NewRDom("r", halide.Range(0, 10))
		f.Define(x).Is(1)
		r.Where(f.At(halide.E(2).Mul(r)).Eq(1))
		f.Define(halide.E(2).Mul(r).Add(1)).Is(2)
		f.Update(0).Parallel(r.X())
		// Accepted since the race check proves 2r+1 one-to-one and the
		// reads at 2r never at a point written (lower/rvar_order.go).
		out := halide.NewBuffer[int32](22)
		t3Realize(t, f, out)
		t5Check1(t, "f", out, 0, 22, func(i int) int32 {
			if i%2 == 1 && i < 20 {
				return 2
			}
			return 1
		})
	})
	t.Run("where_reads_evens_writes_odds_variant", func(t *testing.T) {
		// AllowRaceConditions() on the update (the race check does not
		// see that 2r+1 is injective and 2r never equals 2r'+1).
		x := t5v("x")
		f := halide.NewFunc("f")
		r := halide.NewRDom("r", halide.Range(0, 10))
		f.Define(x).Is(1)
		r.Where(f.At(halide.E(2).Mul(r)).Eq(1))
		f.Define(halide.E(2).Mul(r).Add(1)).Is(2)
		f.Update(0).AllowRaceConditions().Parallel(r.X())
		out := halide.NewBuffer[int32](22)
		t3Realize(t, f, out)
		t5Check1(t, "f", out, 0, 22, func(i int) int32 {
			if i%2 == 1 && i < 20 {
				return 2
			}
			return 1
		})
	})
}

// legal_race_condition.cpp
func TestFifthPortedLegalRaceCondition(t *testing.T) {
	t.Run("same_value_race", func(t *testing.T) {
		x := t5v("x")
		f := halide.NewFunc("f")
		r := halide.NewRDom("r", halide.Range(0, 100))
		f.Define(x).Is(0)
		f.Define(halide.E(r).Div(2)).Is(halide.E(r).Div(2))
		f.Update(0).AllowRaceConditions().Parallel(r.X())
		out := halide.NewBuffer[int32](100)
		t3Realize(t, f, out)
		t5Check1(t, "f", out, 0, 100, func(i int) int32 {
			if i < 50 {
				return int32(i)
			}
			return 0
		})
	})
	t.Run("permutation_polynomial", func(t *testing.T) {
		x := t5v("x")
		f := halide.NewFunc("f")
		r := halide.NewRDom("r", halide.Range(0, 256))
		re := halide.E(r)
		permuted := halide.E(38).Mul(re).Mul(re).Add(halide.E(193).Mul(re)).Add(32).Mod(256)
		f.Define(x).Is(-1)
		f.Define(permuted).Is(r)
		f.Update(0).AllowRaceConditions().Vectorize(r.X(), 4).Parallel(r.X())
		out := halide.NewBuffer[int32](256)
		t3Realize(t, f, out)
		vals := make([]int, 256)
		for i := range vals {
			vals[i] = int(out.Get(i))
		}
		sort.Ints(vals)
		for i, v := range vals {
			if v != i {
				t.Fatalf("after sorting, out(%d) = %d", i, v)
			}
		}
	})
}

// implicit_pure_def_with_rvar_args.cpp
func TestFifthPortedImplicitPureDefWithRVarArgs(t *testing.T) {
	want := func(i int) int32 {
		e := 0
		for j := 0; j < 8; j++ {
			e += (i + j + 1) * (2*j + 3)
		}
		return int32(e)
	}
	for _, explicit := range []bool{false, true} {
		name := "implicit_pure_def"
		if explicit {
			name = "explicit_pure_def"
		}
		t.Run(name, func(t *testing.T) {
			x := t5v("x")
			r := halide.NewRDom("r", halide.Range(0, 16), halide.Range(0, 8))
			f, g, h := halide.NewFunc("f"), halide.NewFunc("g"), halide.NewFunc("h")
			f.Define(x).Is(x.Add(1))
			g.Define(x).Is(halide.E(2).Mul(x).Add(3))
			if explicit {
				h.Define(x).Is(0)
			}
			h.Define(r.X()).PlusEq(f.At(halide.E(r.X()).Add(r.Y())).Mul(g.At(r.Y())))
			f.ComputeRoot()
			g.ComputeRoot()
			h.Update(0).Atomic().Vectorize(r.X()).Unroll(r.Y())
			out := halide.NewBuffer[int32](16)
			t3Realize(t, h, out)
			t5Check1(t, "h", out, 0, 16, want)
		})
	}
	t.Run("rdom_narrower_than_output", func(t *testing.T) {
		r := halide.NewRDom("r", halide.Range(2, 5))
		h := halide.NewFunc("h3")
		h.Define(r).PlusEq(halide.Cast(halide.Int32, r).Mul(10))
		h.Update(0).VectorizeTail(r.X(), 4, halide.GuardWithIf)
		out := halide.NewBuffer[int32](10)
		t3Realize(t, h, out)
		t5Check1(t, "h3", out, 0, 10, func(i int) int32 {
			if i >= 2 && i < 7 {
				return int32(i * 10)
			}
			return 0
		})
	})
}

// bit_counting.cpp
func TestFifthPortedBitCounting(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	vals := make([]uint32, 256)
	for i := range vals {
		switch {
		case i < 16:
			vals[i] = uint32(i)
		case i < 32:
			vals[i] = 0xffffffff - uint32(i)
		default:
			vals[i] = rng.Uint32()
		}
	}
	x := t5v("x")
	t.Run("uint16", func(t *testing.T) {
		in := halide.NewBuffer[uint16](256)
		for i, v := range vals {
			in.Set(uint16(v), i)
		}
		for _, op := range []struct {
			name string
			fn   func(any) halide.Expr
			ref  func(uint16) uint16
		}{
			{"popcount", halide.Popcount, func(v uint16) uint16 { return uint16(bits.OnesCount16(v)) }},
			{"ctlz", halide.CountLeadingZeros, func(v uint16) uint16 { return uint16(bits.LeadingZeros16(v)) }},
			{"cttz", halide.CountTrailingZeros, func(v uint16) uint16 { return uint16(bits.TrailingZeros16(v)) }},
		} {
			f := halide.NewFunc(op.name + "_test")
			f.Define(x).Is(op.fn(in.At(x)))
			f.Vectorize(x, 16)
			out := halide.NewBuffer[uint16](256)
			t3Realize(t, f, out)
			t5Check1(t, op.name, out, 0, 256, func(i int) uint16 { return op.ref(in.Get(i)) })
		}
	})
	t.Run("uint32", func(t *testing.T) {
		in := halide.NewBuffer[uint32](256)
		for i, v := range vals {
			in.Set(v, i)
		}
		for _, op := range []struct {
			name string
			fn   func(any) halide.Expr
			ref  func(uint32) uint32
		}{
			{"popcount", halide.Popcount, func(v uint32) uint32 { return uint32(bits.OnesCount32(v)) }},
			{"ctlz", halide.CountLeadingZeros, func(v uint32) uint32 { return uint32(bits.LeadingZeros32(v)) }},
			{"cttz", halide.CountTrailingZeros, func(v uint32) uint32 { return uint32(bits.TrailingZeros32(v)) }},
		} {
			f := halide.NewFunc(op.name + "_test")
			f.Define(x).Is(op.fn(in.At(x)))
			f.Vectorize(x, 16)
			out := halide.NewBuffer[uint32](256)
			t3Realize(t, f, out)
			t5Check1(t, op.name, out, 0, 256, func(i int) uint32 { return op.ref(in.Get(i)) })
		}
	})
}

// popc_clz_ctz_bounds.cpp
func TestFifthPortedPopcClzCtzBounds(t *testing.T) {
	mapping := halide.NewBuffer[uint8](9)
	for i, v := range []uint8{4, 2, 8, 5, 1, 7, 0, 3, 6} {
		mapping.Set(v, i)
	}
	rng := rand.New(rand.NewSource(0))
	data := halide.NewBuffer[uint8](16)
	data.Fill(func([]int) uint8 { return uint8(rng.Intn(256)) })
	for _, vec := range []bool{false, true} {
		name := "scalar"
		if vec {
			name = "vectorized"
		}
		t.Run(name, func(t *testing.T) {
			in := halide.NewImageParam("in", halide.UInt8, 1)
			x := t5v("x")
			f := halide.NewFunc("f")
			f.Define(x).Is(halide.NewTuple(
				mapping.At(halide.Popcount(in.At(x))),
				mapping.At(halide.CountLeadingZeros(in.At(x))),
				mapping.At(halide.CountTrailingZeros(in.At(x)))))
			if vec {
				f.Vectorize(x, 8)
			}
			in.Set(data)
			p, c, z := halide.NewBuffer[uint8](16), halide.NewBuffer[uint8](16), halide.NewBuffer[uint8](16)
			t3Realize(t, f, p, c, z)
			t5Check1(t, "popc", p, 0, 16, func(i int) uint8 { return mapping.Get(bits.OnesCount8(data.Get(i))) })
			t5Check1(t, "clz", c, 0, 16, func(i int) uint8 { return mapping.Get(bits.LeadingZeros8(data.Get(i))) })
			t5Check1(t, "ctz", z, 0, 16, func(i int) uint8 { return mapping.Get(bits.TrailingZeros8(data.Get(i))) })
		})
	}
}

// many_inlined_selects.cpp: Halide only compiles it (skip_stages on a
// 500-long let chain of selects); the port lowers it under 5 s and
// realizes a small output.
func TestFifthPortedManyInlinedSelects(t *testing.T) {
	t.Run("chain_500", func(t *testing.T) {
		x, y, c := t5v("x"), t5v("y"), t5v("c")
		src := halide.NewImageParam("src", halide.Float32, 3)
		const numParams = 8
		conds := make([]*halide.Param[bool], numParams)
		for i := range conds {
			conds[i] = halide.NewParam[bool]("cond" + string(rune('0'+i)))
			conds[i].Set(i%3 == 0)
		}
		f := halide.NewFunc("f")
		f.Define(x, y, c).Is(src.At(x, y, c).Mul(float32(1.5)).Add(float32(0.5)))
		f.Define(x, y, c).Is(halide.Clamp(f.At(x, y, c), float32(0), float32(1)))
		const chainLen = 500
		chain := []halide.Expr{f.At(x, y, 0), f.At(x, y, 1), f.At(x, y, 2)}
		for i := 0; i < chainLen; i++ {
			a := chain[len(chain)-1]
			b := chain[(i*5+1)%len(chain)]
			d := chain[(i*7+2)%len(chain)]
			e := halide.Select(conds[i%numParams].Expr(), a.Mul(b).Add(d), a.Sub(d).Mul(b)).
				Add(halide.Cast(halide.Float32, int32(i)).Mul(float32(0.0001)))
			chain = append(chain, e)
		}
		out := halide.NewFunc("out")
		out.Define(x, y).Is(chain[len(chain)-1])
		if err := t5Lower(t, t3Pipe(nil, out)); err != nil {
			t.Fatal(err)
		}
		// And the values, against the same chain in Go.
		rng := rand.New(rand.NewSource(7))
		in := halide.NewBuffer[float32](4, 3, 3)
		in.Fill(func([]int) float32 { return 0.1 + 0.8*rng.Float32() })
		src.Set(in)
		res := halide.NewBuffer[float32](4, 3)
		t3Realize(t, out, res)
		for yy := 0; yy < 3; yy++ {
			for xx := 0; xx < 4; xx++ {
				fv := func(c int) float32 {
					v := in.Get(xx, yy, c)*1.5 + 0.5
					return float32(math.Min(math.Max(float64(v), 0), 1))
				}
				ch := []float32{fv(0), fv(1), fv(2)}
				for i := 0; i < chainLen; i++ {
					a, b, d := ch[len(ch)-1], ch[(i*5+1)%len(ch)], ch[(i*7+2)%len(ch)]
					var e float32
					if conds[i%numParams].Get() {
						e = a*b + d
					} else {
						e = (a - d) * b
					}
					ch = append(ch, e+float32(i)*float32(0.0001))
				}
				got, want := float64(res.Get(xx, yy)), float64(ch[len(ch)-1])
				if !(got == want || math.IsNaN(got) && math.IsNaN(want) || math.Abs(got-want) <= 1e-3*math.Max(1, math.Abs(want))) {
					t.Fatalf("out(%d, %d) = %v, want %v", xx, yy, got, want)
				}
			}
		}
	})
}

// typed_func.cpp: Func(Type, dims, name), Func::types() of an undefined
// Func, required_types and output_buffer() have no counterpart (a Func
// is typed by its definition). The update cases are ported on untyped
// Funcs: an update's right-hand side of another type is cast to the
// Func's type (+=), with and without the pure definition.
func TestFifthPortedTypedFunc(t *testing.T) {
	x, y := t5v("x"), t5v("y")
	t.Run("undefined_func", func(t *testing.T) {
		f := halide.NewFunc("f")
		if f.Defined() {
			t.Fatal("a new Func is defined")
		}
	})
	t.Run("update_rhs_other_type", func(t *testing.T) {
		f := halide.NewFunc("f")
		f.Define(x, y).Is(halide.Cast(halide.Int32, 1))
		f.Define(x, y).PlusEq(halide.Cast(halide.UInt8, x.Add(y)))
		out := halide.NewBuffer[int32](10, 10)
		t3Realize(t, f, out)
		t5Check2(t, "f", out, 0, 10, 0, 10, func(x, y int) int32 { return 1 + int32(uint8(x+y)) })
	})
	t.Run("update_rhs_other_type_implicit_init", func(t *testing.T) {
		f := halide.NewFunc("f")
		f.Define(x, y).PlusEq(halide.Cast(halide.UInt8, x.Add(y)))
		out := halide.NewBuffer[int32](10, 10)
		err := t3Try(t, f, out)
		if err == nil {
			t5Check2(t, "f", out, 0, 10, 0, 10, func(x, y int) int32 { return int32(uint8(x + y)) })
			return
		}
		// Without a type-and-dims Func the implicit init takes the
		// right-hand side's type (uint8).
		mpRefused(t, err)
	})
	t.Run("update_rhs_other_type_implicit_init_variant", func(t *testing.T) {
		// The right-hand side cast to int32 (Func(Int(32), 2) fixes the
		// type in Halide).
		f := halide.NewFunc("f")
		f.Define(x, y).PlusEq(halide.Cast(halide.Int32, halide.Cast(halide.UInt8, x.Add(y))))
		out := halide.NewBuffer[int32](10, 10)
		t3Realize(t, f, out)
		t5Check2(t, "f", out, 0, 10, 0, 10, func(x, y int) int32 { return int32(uint8(x + y)) })
	})
	t.Run("tuple_update_rhs_other_type", func(t *testing.T) {
		f := halide.NewFunc("f")
		f.Define(x, y).Is(halide.NewTuple(halide.Cast(halide.Int32, 1), halide.Cast(halide.Int8, 2)))
		f.Define(x, y).PlusEq(halide.NewTuple(halide.Cast(halide.UInt8, x.Add(y)), halide.Cast(halide.Int8, x.Sub(y))))
		b0, b1 := halide.NewBuffer[int32](10, 10), halide.NewBuffer[int8](10, 10)
		t3Realize(t, f, b0, b1)
		t5Check2(t, "f.0", b0, 0, 10, 0, 10, func(x, y int) int32 { return 1 + int32(uint8(x+y)) })
		t5Check2(t, "f.1", b1, 0, 10, 0, 10, func(x, y int) int8 { return 2 + int8(x-y) })
	})
	t.Run("tuple_update_implicit_init_variant", func(t *testing.T) {
		// The first value cast to int32 (its type in Halide's typed Func).
		f := halide.NewFunc("f")
		f.Define(x, y).PlusEq(halide.NewTuple(halide.Cast(halide.Int32, halide.Cast(halide.UInt8, x.Add(y))), halide.Cast(halide.Int8, x.Sub(y))))
		b0, b1 := halide.NewBuffer[int32](10, 10), halide.NewBuffer[int8](10, 10)
		t3Realize(t, f, b0, b1)
		t5Check2(t, "f.0", b0, 0, 10, 0, 10, func(x, y int) int32 { return int32(uint8(x + y)) })
		t5Check2(t, "f.1", b1, 0, 10, 0, 10, func(x, y int) int8 { return int8(x - y) })
	})
}

// logical.cpp (128x64 input with input(x, y) = y*128 + x as uint8).
func TestFifthPortedLogical(t *testing.T) {
	const w, h = 128, 64
	input := halide.NewBuffer[uint8](w, h)
	input.Fill(func(c []int) uint8 { return uint8(c[1]*w + c[0]) })
	u8 := func(e any) halide.Expr { return halide.Cast(halide.UInt8, e) }
	sched := func(f *halide.Func, x, y halide.Var, gpu bool, vec int) {
		if gpu {
			xi, yi := t5v("xi"), t5v("yi")
			f.GPUTile(x, y, x, y, xi, yi, 16, 16)
			f.Vectorize(xi, 4)
		} else {
			f.Vectorize(x, vec)
		}
	}
	b := func(v bool) uint8 {
		if v {
			return 255
		}
		return 0
	}
	t5Modes(t, "and_or_not", func(t *testing.T, gpu bool) {
		x, y := t5v("x"), t5v("y")
		in := input.At(x, y)
		f := halide.NewFunc("f")
		f.Define(x, y).Is(halide.Select(in.Gt(10).And(in.Lt(20)).Or(in.Gt(40).And(halide.Not(in.Gt(50)))), u8(255), u8(0)))
		sched(f, x, y, gpu, 8)
		out := halide.NewBuffer[uint8](w, h)
		t3Realize(t, f, out)
		t5Check2(t, "f", out, 0, w, 0, h, func(x, y int) uint8 {
			v := input.Get(x, y)
			return b(v > 10 && v < 20 || v > 40 && !(v > 50))
		})
	})
	t5Modes(t, "cse_common_cond", func(t *testing.T, gpu bool) {
		x, y := t5v("x"), t5v("y")
		in := input.At(x, y)
		common := in.Gt(10)
		f := halide.NewFunc("f")
		f.Define(x, y).Is(halide.Select(common.And(in.Lt(20)).Or(in.Gt(40).And(halide.Not(common))), u8(255), u8(0)))
		sched(f, x, y, gpu, 8)
		out := halide.NewBuffer[uint8](w, h)
		t3Realize(t, f, out)
		t5Check2(t, "f", out, 0, w, 0, h, func(x, y int) uint8 {
			v := input.Get(x, y)
			return b(v > 10 && v < 20 || v > 40 && !(v > 10))
		})
	})
	t5Modes(t, "vector_and_scalar_inputs", func(t *testing.T, gpu bool) {
		x, y := t5v("x"), t5v("y")
		f := halide.NewFunc("f")
		f.Define(x, y).Is(halide.Select(x.Lt(10).Or(x.Gt(20)).Or(y.Lt(10)).Or(y.Gt(20)), u8(0), input.At(x, y)))
		sched(f, x, y, gpu, 128)
		out := halide.NewBuffer[uint8](w, h)
		t3Realize(t, f, out)
		t5Check2(t, "f", out, 0, w, 0, h, func(x, y int) uint8 {
			if x < 10 || x > 20 || y < 10 || y > 20 {
				return 0
			}
			return input.Get(x, y)
		})
	})
	t5Modes(t, "different_sized_types", func(t *testing.T, gpu bool) {
		x, y := t5v("x"), t5v("y")
		ten := halide.E(10)
		f := halide.NewFunc("f")
		f.Define(x, y).Is(halide.Select(input.At(x, y).Gt(ten), u8(255), u8(0)))
		sched(f, x, y, gpu, 8)
		out := halide.NewBuffer[uint8](w, h)
		t3Realize(t, f, out)
		t5Check2(t, "f", out, 0, w, 0, h, func(x, y int) uint8 { return b(input.Get(x, y) > 10) })
	})
	types := map[int]halide.Type{8: halide.UInt8, 16: halide.UInt16, 32: halide.UInt32}
	for _, gpuSched := range []bool{false, true} {
		for wb := 8; wb <= 32; wb *= 2 {
			for nb := 8; nb < wb; nb *= 2 {
				name := "select_narrow_cond_" + types[nb].String() + "_" + types[wb].String()
				if gpuSched {
					name += "_gpu"
				}
				wb, nb, gpuSched := wb, nb, gpuSched
				t.Run(name, func(t *testing.T) {
					x, y := t5v("x"), t5v("y")
					narrow, wide := types[nb], types[wb]
					inWide, inNarrow := halide.NewFunc("in_wide"), halide.NewFunc("in_narrow")
					inWide.Define(x, y).Is(halide.Cast(wide, y.Add(x.Mul(3))))
					inWide.ComputeRoot()
					inNarrow.Define(x, y).Is(halide.Cast(narrow, x.Mul(y).Add(x).Sub(17)))
					inNarrow.ComputeRoot()
					f := halide.NewFunc("f")
					f.Define(x, y).Is(halide.Select(inNarrow.At(x, y).Gt(10), inWide.At(x, y.Mul(2)), inWide.At(x, y.Mul(2).Add(1))))
					cpu, gpu := halide.NewFunc("cpu"), halide.NewFunc("gpu")
					cpu.Define(x, y).Is(f.At(x, y))
					gpu.Define(x, y).Is(f.At(x, y))
					out := halide.NewFunc("out")
					out.Define(x, y).Is(halide.NewTuple(halide.Cast(halide.UInt32, cpu.At(x, y)), halide.Cast(halide.UInt32, gpu.At(x, y))))
					cpu.ComputeRoot()
					gpu.ComputeRoot()
					sched(gpu, x, y, gpuSched, 8)
					c, g := halide.NewBuffer[uint32](w, h), halide.NewBuffer[uint32](w, h)
					t3Realize(t, out, c, g)
					mask := uint64(1)<<wb - 1
					nmask := uint64(1)<<nb - 1
					ref := func(x, y int) uint32 {
						n := uint64(int64(x*y+x-17)) & nmask
						yy := 2 * y
						if n <= 10 {
							yy++
						}
						return uint32(uint64(int64(yy+x*3)) & mask)
					}
					t5Check2(t, "cpu", c, 0, w, 0, h, ref)
					t5Check2(t, "gpu", g, 0, w, 0, h, ref)
				})
			}
		}
	}
}

// float16_t_comparison.cpp: Halide compares float16_t and bfloat16_t
// host values with C++ operators; our F16 and BF16 are bit patterns, so
// the bit checks are made on them and the comparisons in a pipeline, on
// Float16 and BFloat16 Exprs.
func TestFifthPortedFloat16TComparison(t *testing.T) {
	for _, ty := range []halide.Type{halide.Float16, halide.BFloat16} {
		t.Run(ty.String(), func(t *testing.T) {
			var oneBits, ofBits, expMask uint16
			mant := 10
			if ty == halide.Float16 {
				oneBits, ofBits, expMask = halide.F16FromFloat32(1).Bits(), halide.F16FromFloat32(1.25).Bits(), 0x7c00
			} else {
				mant = 7
				oneBits, ofBits, expMask = halide.BF16FromFloat32(1).Bits(), halide.BF16FromFloat32(1.25).Bits(), 0x7f80
			}
			bitsWant := (expMask >> 1) & expMask
			if oneBits == ofBits || oneBits != bitsWant || ofBits != bitsWant|1<<(mant-2) {
				t.Fatalf("bits of 1.0 = %#x, 1.25 = %#x", oneBits, ofBits)
			}
			lit := func(v float64) halide.Expr { return halide.Lit(ty, v) }
			one, of := lit(1), lit(1.25)
			minusOne := one.Neg()
			nan := lit(math.NaN())
			zp, zn := lit(0), lit(math.Copysign(0, -1))
			ip, in := halide.Inf(ty), halide.Inf(ty).Neg()
			checks := []halide.Expr{
				halide.Not(one.Eq(of)), one.Ne(of), one.Lt(of), one.Le(of), of.Gt(one), of.Ge(one),
				one.Ge(one), one.Eq(one), minusOne.Lt(one), one.Gt(minusOne),
				nan.Ne(nan), halide.Not(nan.Eq(nan)), zp.Eq(zn),
				ip.Gt(in), in.Lt(ip), one.Lt(ip), minusOne.Lt(ip), one.Gt(in), minusOne.Gt(in),
			}
			x := t5v("x")
			f := halide.NewFunc("f")
			var e halide.Expr = halide.Cast(halide.UInt8, 0)
			for i := len(checks) - 1; i >= 0; i-- {
				e = halide.Select(x.Eq(int32(i)), halide.Cast(halide.UInt8, checks[i]), e)
			}
			f.Define(x).Is(e)
			out := halide.NewBuffer[uint8](len(checks))
			t3Realize(t, f, out)
			t5Check1(t, "check", out, 0, len(checks), func(int) uint8 { return 1 })
		})
	}
}

// indexing_access_undef.cpp: Halide asserts no crash; the port also
// checks the values.
func TestFifthPortedIndexingAccessUndef(t *testing.T) {
	t.Run("clamped_index_round_up", func(t *testing.T) {
		x := t5v("x")
		f, g, h, out := halide.NewFunc("f"), halide.NewFunc("g"), halide.NewFunc("h"), halide.NewFunc("out")
		const lo = -10000000
		const hi = lo + 20
		h.Define(x).Is(halide.Clamp(x, lo, hi))
		g.Define(x).Is(halide.Sin(halide.Cast(halide.Float32, x)))
		f.Define(x).Is(g.At(h.At(x)))
		f.VectorizeTail(x, 64, halide.RoundUp)
		out.Define(x).Is(f.At(x))
		h.ComputeRoot()
		g.ComputeRoot()
		f.ComputeRoot()
		res := halide.NewBuffer[float32](1)
		t3Realize(t, out, res)
		if want := float32(math.Sin(float64(float32(hi)))); math.Abs(float64(res.Get(0)-want)) > 1e-5 {
			t.Fatalf("out(0) = %v, want %v", res.Get(0), want)
		}
	})
	input := t3Rand[uint8](11, 255, 1024)
	ref := func(i int) uint8 {
		q := 0
		if i != 0 {
			q = 12345234 / i
		}
		if q > 1023 {
			q = 1023
		}
		return input.Get(q)
	}
	build := func(constBounds bool) (*halide.Func, *halide.Func, *halide.Func, halide.Var) {
		x := t5v("x")
		f, g, h := halide.NewFunc("f"), halide.NewFunc("g"), halide.NewFunc("h")
		lo, hi := any(input.DimExpr(0).Min()), any(input.DimExpr(0).Max())
		if constBounds {
			lo, hi = 0, 1023
		}
		f.Define(x).Is(halide.Clamp(halide.E(12345234).Div(x), lo, hi).Sub(1234567890))
		g.Define(x).Is(input.At(f.At(x).Add(1234567890)))
		h.Define(x).Is(g.At(x))
		f.ComputeRoot()
		h.VectorizeTail(x, 8, halide.GuardWithIf)
		return f, g, h, x
	}
	t.Run("input_overcompute", func(t *testing.T) {
		// bound_extent (an extent without a min) is not in the API: g is
		// computed at h's x without it. Refused: the input's region is
		// unbounded (see TestFifthPortedBug2).
		_, g, h, x := build(false)
		g.ComputeAt(h, x)
		mpRefused(t, t3Try(t, h, halide.NewBuffer[uint8](1024)))
	})
	t.Run("input_overcompute_variant", func(t *testing.T) {
		// The clamp's bounds are the constants 0 and 1023 (the input's
		// min and max) instead of input.dim(0).min() and max().
		_, g, h, x := build(true)
		g.ComputeAt(h, x)
		res := halide.NewBuffer[uint8](1024)
		t3Realize(t, h, res)
		t5Check1(t, "h", res, 0, 1024, ref)
	})
}

// TestFifthPortedBug1 (fixed; a regression test): parallel over r of
// f(2r+1) = 2 where r.where(f(2r) == 1) was refused as a possible race;
// Halide accepts it (2r+1 is
// injective in r, and the reads at 2r never meet a write at 2r'+1).
func TestFifthPortedBug1(t *testing.T) {
	x := t5v("x")
	f := halide.NewFunc("f")
	r := halide.NewRDom("r", halide.Range(0, 10))
	f.Define(x).Is(1)
	f.Define(halide.E(2).Mul(r).Add(1)).Is(2)
	f.Update(0).Parallel(r.X())
	t3Realize(t, f, halide.NewBuffer[int32](22))
}

// TestFifthPortedBug2: a read of an input at c + a computed Func's
// value, clamp(x, input.dim(0).min(), max()) - c, is refused as
// unbounded; with constant clamp bounds, or without the offset c, it is
// accepted (likely the symbolic min - c is not proved free of int32
// overflow, so the value bounds are dropped; not diagnosed further).
func TestFifthPortedBug2(t *testing.T) {
	t.Skip("bounds: the value bounds of a Func clamped to an input buffer's symbolic min and max are not used for a read of that input")
	input := t3Rand[uint8](11, 255, 64)
	x := t5v("x")
	f, g := halide.NewFunc("f"), halide.NewFunc("g")
	f.Define(x).Is(halide.Clamp(x, input.DimExpr(0).Min(), input.DimExpr(0).Max()).Sub(1234567890))
	f.ComputeRoot()
	g.Define(x).Is(input.At(f.At(x).Add(1234567890)))
	t3Realize(t, g, halide.NewBuffer[uint8](64))
}

// TestFifthPortedBug3: mux of 5000 values at x, x split by 1000 and the
// inner loop unrolled; took 13 s to realize. SimplifyStmt now knows each
// unrolled copy's x is k mod 1000 in [k, 4000 + k] and keeps five values
// of each mux (ir/simplify_align.go), about 1 s.
func TestFifthPortedBug3(t *testing.T) {
	const n = 5000
	x, xo, xi := t5v("x"), t5v("xo"), t5v("xi")
	f := halide.NewFunc("f")
	exprs := make([]any, n)
	for i := range exprs {
		exprs[i] = x.BitAnd(int32(i))
	}
	f.Define(x).Is(halide.Mux(x, exprs...))
	f.Bound(x, 0, n)
	f.Split(x, xo, xi, 1000).Unroll(xi)
	t3Realize(t, f, halide.NewBuffer[int32](n))
}
