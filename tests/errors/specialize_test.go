package errors_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// TestErrSpecialize checks the mistakes Specialize and SpecializeFail
// refuse, and the run-time error of a specialize_fail.
func TestErrSpecialize(t *testing.T) {
	w := halide.NewParam[int32]("w")
	runCases(t, []errCase{
		{
			name:      "a condition that is not a bool",
			run:       func() error { b := newBlur(); b.f.Specialize(w); return lowerErr(b.f) },
			code:      halide.ErrType,
			fn:        "f",
			directive: "specialize",
			mentions:  []string{"the condition w is int32, not bool"},
			legal:     []string{"a bool expression of Params and input shapes"},
		},
		{
			name: "a condition on a loop variable",
			run: func() error {
				b := newBlur()
				b.f.Specialize(halide.E(x).Lt(4))
				return lowerErr(b.f)
			},
			code:      halide.ErrSchedule,
			fn:        "f",
			directive: "specialize",
			mentions:  []string{"reads the loop variable x", "tested once per production"},
			legal:     []string{"a condition on Params (int, float or bool) and input shapes"},
		},
		{
			name: "a condition that reads a Func",
			run: func() error {
				b := newBlur()
				b.f.Specialize(b.g.At(0, 0).Gt(float32(1)))
				return lowerErr(b.f)
			},
			code: halide.ErrSchedule, fn: "f", directive: "specialize",
			mentions: []string{"reads the Func g"},
		},
		{
			name: "a condition that reads an input's element",
			run: func() error {
				b := newBlur()
				b.f.Specialize(b.in.At(0, 0).Gt(float32(1)))
				return lowerErr(b.f)
			},
			code: halide.ErrSchedule, fn: "f", directive: "specialize",
			mentions: []string{"reads an element of in"},
		},
		{
			name: "specialize after specialize_fail",
			run: func() error {
				b := newBlur()
				b.f.SpecializeFail("no case")
				b.f.Specialize(w.Expr().Eq(1))
				return lowerErr(b.f)
			},
			code: halide.ErrSchedule, fn: "f", directive: "specialize",
			mentions: []string{"comes after specialize_fail"},
			legal:    []string{"every specialize before the stage's one specialize_fail"},
		},
		{
			name: "two specialize_fail",
			run: func() error {
				b := newBlur()
				b.f.Specialize(w.Expr().Eq(1))
				b.f.SpecializeFail("no case")
				b.f.SpecializeFail("again")
				return lowerErr(b.f)
			},
			code: halide.ErrSchedule, fn: "f", directive: "specialize_fail",
			mentions: []string{"already has a specialize_fail"},
			legal:    []string{"one specialize_fail per stage"},
		},
		{
			name:      "an empty specialize_fail message",
			run:       func() error { b := newBlur(); b.f.SpecializeFail(""); return lowerErr(b.f) },
			code:      halide.ErrBadArgument,
			fn:        "f",
			directive: "specialize_fail",
			mentions:  []string{"message of specialize_fail on f is empty"},
		},
		{
			name: "compute_at a loop only one case has",
			run: func() error {
				b := newBlur()
				b.f.Specialize(w.Expr().Eq(1)).Split(y, yo, yi, 4)
				b.g.ComputeAt(b.f, yo)
				return lowerErr(b.f)
			},
			code: halide.ErrComputeAt, fn: "g", directive: "compute_at",
			mentions: []string{"stage 0 of f is specialized, and the loop yo is not in every case"},
			legal:    []string{"a loop every case of stage 0 of f has, outermost first: x"},
		},
		{
			name: "store_at a loop only one case has",
			run: func() error {
				b := newBlur()
				b.f.Split(y, yo, yi, 4)
				b.f.Specialize(w.Expr().Eq(1)).Fuse(yi, yo, y)
				b.g.ComputeAt(b.f, x).StoreAt(b.f, yi)
				return lowerErr(b.f)
			},
			code: halide.ErrComputeAt, fn: "g", directive: "store_at",
			mentions: []string{"the loop yi is not in every case"},
			legal:    []string{"x"},
		},
		{
			name: "compute_inline of a specialized Func",
			run: func() error {
				b := newBlur()
				b.g.Specialize(w.Expr().Eq(1)).Vectorize(x, 4)
				b.g.ComputeInline()
				return lowerErr(b.f)
			},
			code: halide.ErrSchedule, fn: "g", directive: "compute_inline",
			mentions: []string{"g has specializations"},
			legal:    []string{"compute_root or compute_at"},
		},
		{
			name: "a case's schedule is checked like the stage's",
			run: func() error {
				b := newBlur()
				r := halide.NewRDom("r", halide.Range(0, 4))
				b.f.Define(x, y).PlusEq(b.in.At(r, y))
				b.f.Define(r, y).Is(b.f.At(r, y).Add(b.f.At(halide.E(r).Add(1), y)))
				b.f.Update(1).Specialize(w.Expr().Eq(1)).Parallel(r)
				return lowerErr(b.f)
			},
			code: halide.ErrSchedule, fn: "f", directive: "parallel",
			mentions: []string{"race condition"},
		},
		{
			// schedfuzz -seed 16002, schedule 81233: only the last case
			// is parallel; the check looked for the compute loop inside
			// the first case's copy of the store loop alone (a race on the
			// CPU before).
			name: "stored outside a parallel loop of a later case",
			run: func() error {
				b := newBlur()
				b.f.Specialize(w.Expr().Eq(1)).Vectorize(x, 4)
				b.f.Specialize(w.Expr().Eq(2))
				b.f.Parallel(x)
				b.g.ComputeAt(b.f, x).StoreAt(b.f, y)
				return lowerErr(b.f)
			},
			code: halide.ErrSchedule, fn: "g", directive: "store_at",
			mentions: []string{"stored outside the parallel loop f.s0.x but computed inside it"},
			legal:    []string{"store g at x"},
		},
		{
			name: "a thread loop without a block loop in one case",
			run: func() error {
				b := newBlur()
				b.f.Specialize(w.Expr().Eq(1)).GPUThreads(x)
				return lowerErr(b.f)
			},
			code: halide.ErrSchedule, fn: "f", directive: "gpu_threads",
		},
	})
}

// TestErrSpecializeFailAtRun checks the run-time error of a
// specialize_fail: ErrSpecializeFail (a kind of ErrRuntime) naming the Func
// with the message, only when no case holds.
func TestErrSpecializeFailAtRun(t *testing.T) {
	b := newBlur()
	w := halide.NewParam[int32]("w")
	b.f.Specialize(w.Expr().Eq(1)).Vectorize(x, 4)
	b.f.SpecializeFail("w must be 1")
	p := halide.NewPipeline(b.f)
	b.in.Set(halide.NewBuffer[float32](9, 4))
	w.Set(1)
	if err := p.Realize(halide.NewBuffer[float32](8, 4)); err != nil {
		t.Fatalf("w = 1: %v", err)
	}
	w.Set(2)
	err := safely(func() error { return p.Realize(halide.NewBuffer[float32](8, 4)) })
	check(t, err, halide.ErrSpecializeFail, "f", "specialize_fail", "w must be 1")
	if !errors.Is(err, halide.ErrRuntime) {
		t.Errorf("errors.Is(%v, ErrRuntime) is false", err)
	}
}

// TestErrSpecializeFailInKernel checks a specialize_fail of a Func computed
// inside a GPU kernel: the host checks the cases before anything runs, so
// the run fails with the message (a failing assertion in a kernel would
// trap on a GPU).
func TestErrSpecializeFailInKernel(t *testing.T) {
	b := newBlur()
	w := halide.NewParam[int32]("w")
	b.f.GPUTile(x, y, xo, yo, xi, yi, 8, 8)
	b.g.ComputeAt(b.f, xo)
	b.g.Specialize(w.Expr().Eq(1)).GPUThreads(x, y)
	b.g.SpecializeFail("w must be 1")
	p := halide.NewPipeline(b.f)
	l, err := p.Lower()
	if err != nil {
		t.Fatal(err)
	}
	if first := strings.SplitN(l.String(), "\n", 2)[0]; !strings.Contains(first, `"w must be 1"`) {
		t.Errorf("the lowered statement does not check the cases first: %s", first)
	}
	b.in.Set(halide.NewBuffer[float32](17, 16))
	w.Set(1)
	if err := p.Realize(halide.NewBuffer[float32](16, 16)); err != nil {
		t.Fatalf("w = 1: %v", err)
	}
	w.Set(2)
	err = safely(func() error { return p.Realize(halide.NewBuffer[float32](16, 16)) })
	check(t, err, halide.ErrSpecializeFail, "g", "specialize_fail", "w must be 1")
}
