package errors_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gohalide/gohalide/emulator"
	"github.com/gohalide/gohalide/halide"
	"github.com/gohalide/gohalide/ir"
)

// Issue 11: user mistakes that were panics, internal errors or silently
// accepted each have a code of their own; the emulator's findings keep
// their kind (errors.As reaches the *emulator.EmulatorError, errors.Is the
// code); a Pipeline recompiles when a Func changed since it compiled.

// definedBlur is newBlur with its input set to a 9 x 2 buffer.
func definedBlur() blur {
	b := newBlur()
	b.set(9, 2)
	return b
}

func TestErrNilObject(t *testing.T) {
	runCases(t, []errCase{
		{
			name: "Realize of a nil Pipeline",
			run: func() error {
				var p *halide.Pipeline
				return p.Realize(halide.NewBuffer[float32](8, 2))
			},
			code: halide.ErrNilObject, directive: "Compile", mentions: []string{"nil *Pipeline"},
			legal: []string{"NewPipeline"},
		},
		{
			name: "Realize of a nil Lowered",
			run: func() error {
				var l *halide.Lowered
				return l.Realize(halide.NewBuffer[float32](8, 2))
			},
			code: halide.ErrNilObject, directive: "Realize", mentions: []string{"nil *Lowered"},
			legal: []string{"Pipeline.Lower"},
		},
		{
			name: "Realize of a zero Lowered",
			run: func() error {
				return (&halide.Lowered{}).Realize(halide.NewBuffer[float32](8, 2))
			},
			code: halide.ErrNilObject, directive: "Realize", mentions: []string{"zero Lowered"},
		},
		{
			name: "WithStmt(nil).Realize",
			run: func() error {
				b := definedBlur()
				l, err := halide.NewPipeline(b.f).Lower()
				if err != nil {
					return err
				}
				return l.WithStmt(nil).Realize(halide.NewBuffer[float32](8, 2))
			},
			code: halide.ErrNilObject, fn: "f", directive: "WithStmt", mentions: []string{"nil", "nothing"},
		},
		{
			name: "ImageParam.In(nil)",
			run: func() error {
				b := definedBlur()
				b.in.In(nil)
				return lowerErr(b.f)
			},
			code: halide.ErrNilObject, directive: "in", mentions: []string{"in", "nil"},
			legal: []string{"reads the input"},
		},
		{
			name: "Func.In(nil)",
			run: func() error {
				b := definedBlur()
				b.g.In(nil)
				return lowerErr(b.f)
			},
			code: halide.ErrNilObject, fn: "g", directive: "in", mentions: []string{"g", "nil"},
		},
	})
}

func TestErrBadType(t *testing.T) {
	bogus := halide.Type{Code: 9, Bits: 13}
	runCases(t, []errCase{
		{
			name: "Cast to a bogus Type",
			run: func() error {
				f := halide.NewFunc("f")
				f.Define(x).Is(halide.Cast(bogus, x))
				return lowerErr(f)
			},
			code: halide.ErrBadType, fn: "f", directive: "Cast", mentions: []string{"not a scalar type"},
			legal: []string{"Int32", "Float64", "Bool"},
		},
		{
			name: "Lit of the zero Type",
			run: func() error {
				f := halide.NewFunc("f")
				f.Define(x).Is(halide.Lit(halide.Type{}, 1))
				return lowerErr(f)
			},
			code: halide.ErrBadType, fn: "f", directive: "Lit", mentions: []string{"int0"},
		},
		{
			name: "NewImageParam of a bogus Type",
			run: func() error {
				in := halide.NewImageParam("in", halide.Type{Code: halide.Int32.Code, Bits: 24}, 1)
				f := halide.NewFunc("f")
				f.Define(x).Is(in.At(x))
				return lowerErr(f)
			},
			code: halide.ErrBadType, fn: "f", directive: "NewImageParam", mentions: []string{"int24"},
		},
		{
			name: "NewImageParam of a bogus Type, read through a boundary condition",
			run: func() error {
				in := halide.NewImageParam("in", halide.Type{Code: halide.Int32.Code, Bits: 24}, 1)
				f := halide.NewFunc("f")
				f.Define(x).Is(halide.RepeatEdge(in).At(x))
				return lowerErr(f)
			},
			code: halide.ErrBadType, fn: "f", directive: "NewImageParam", mentions: []string{"int24"},
		},
	})
}

func TestErrBadArgument(t *testing.T) {
	runCases(t, []errCase{
		{
			name: "Benchmark with a negative run count",
			run: func() error {
				b := definedBlur()
				_, err := halide.NewPipeline(b.f).Benchmark(halide.NewBuffer[float32](8, 2), -3)
				return err
			},
			code: halide.ErrBadArgument, directive: "Benchmark", mentions: []string{"-3"},
			legal: []string{"at least 1"},
		},
		{
			name: "an unknown Target",
			run: func() error {
				b := definedBlur()
				return halide.NewPipeline(b.f).WithTarget(halide.Target(7)).Realize(halide.NewBuffer[float32](8, 2))
			},
			code: halide.ErrBadArgument, directive: "target", mentions: []string{"Target(7)"},
			legal: []string{"Emulator", "CUDA"},
		},
		{
			name: "an unknown TailStrategy",
			run: func() error {
				b := definedBlur()
				b.f.Split(x, xo, xi, 4, halide.TailStrategy(9))
				return lowerErr(b.f)
			},
			code: halide.ErrBadArgument, fn: "f", directive: "split", mentions: []string{"TailStrategy(9)"},
			legal: []string{"GuardWithIf", "RoundUp"},
		},
		{
			name: "an unknown MemoryType",
			run: func() error {
				b := definedBlur()
				b.g.ComputeRoot().StoreIn(halide.MemoryType(42))
				return lowerErr(b.f)
			},
			code: halide.ErrBadArgument, fn: "g", directive: "store_in", mentions: []string{"MemoryType(42)"},
			legal: []string{"Heap", "GPUShared"},
		},
		{
			name: "StopAfter names no pass",
			run: func() error {
				b := definedBlur()
				_, err := halide.NewPipeline(b.f).WithOptions(halide.Options{StopAfter: "no_such_pass"}).Lower()
				return err
			},
			code: halide.ErrBadArgument, directive: "Options.StopAfter", mentions: []string{"no_such_pass"},
			legal: []string{"schedule_functions"},
		},
		{
			name: "StopAfter names no pass, at Realize",
			run: func() error {
				b := definedBlur()
				return halide.NewPipeline(b.f).WithOptions(halide.Options{StopAfter: "no_such_pass"}).Realize(halide.NewBuffer[float32](8, 2))
			},
			code: halide.ErrBadArgument, directive: "Options.StopAfter",
		},
	})
}

// TestErrRedefinition: a second definition with the pure Vars is an
// update, as in Halide's FuncRef::operator= (define_update whenever a pure
// definition exists), even one that does not read the Func; ErrRedefinition
// is no longer reported. Updates that read f, reduce over an RDom or
// write at other coordinates stay legal too.
func TestErrRedefinition(t *testing.T) {
	f := halide.NewFunc("f")
	f.Define(x).Is(x)
	f.Define(x).Is(x.Mul(2)) // an update that does not read f
	f.Define(x).Is(f.At(x).Mul(2))
	f.Define(0).Is(7)
	r := halide.NewRDom("r", halide.Range(0, 2))
	f.Define(x).PlusEq(r)
	out := halide.NewBuffer[int32](3)
	if err := f.Realize(out); err != nil {
		t.Fatal(err)
	}
	for i, want := range []int32{7 + 1, 4 + 1, 8 + 1} { // 2x then 2f, f(0) = 7, + 0 + 1
		if got := out.Get(i); got != want {
			t.Errorf("f(%d) = %d, want %d", i, got, want)
		}
	}
	b := newBlur()
	b.g.Define(x, y).Is(0.0) // g's update: g is 0 everywhere
	b.set(9, 2)
	o := halide.NewBuffer[float32](8, 2)
	if err := b.f.Realize(o); err != nil {
		t.Fatal(err)
	}
	for yy := 0; yy < 2; yy++ {
		for xx := 0; xx < 8; xx++ {
			if o.Get(xx, yy) != 0 {
				t.Fatalf("f(%d, %d) = %v, want 0 (g's update stores 0)", xx, yy, o.Get(xx, yy))
			}
		}
	}
}

func TestErrCycle(t *testing.T) {
	runCases(t, []errCase{
		{
			name: "f -> g -> f through an update",
			run: func() error {
				f, g := halide.NewFunc("f"), halide.NewFunc("g")
				f.Define(x).Is(0)
				g.Define(x).Is(f.At(x).Add(1))
				f.Define(x).PlusEq(g.At(x))
				return lowerErr(f)
			},
			code: halide.ErrCycle, fn: "f", directive: "pipeline", mentions: []string{"f calls g calls f"},
		},
		{
			name: "a longer cycle, seen from its output",
			run: func() error {
				f, g, h := halide.NewFunc("f"), halide.NewFunc("g"), halide.NewFunc("h")
				g.Define(x).Is(x)
				h.Define(x).Is(g.At(x))
				g.Define(x).MaxEq(h.At(x))
				f.Define(x).Is(h.At(x))
				return lowerErr(f)
			},
			code: halide.ErrCycle, fn: "h", directive: "pipeline", mentions: []string{"h calls g calls h"},
		},
	})
}

// loweredStencil lowers stencil3 (its input staged in shared memory per
// block, with barriers) for a 16 x 16 output and returns it with the
// kernel.
func loweredStencil(t *testing.T) (*halide.Lowered, *ir.Kernel) {
	t.Helper()
	f, in := stencil3()
	ib := halide.NewBuffer[float32](16, 16)
	ib.Fill(func(c []int) float32 { return float32(c[0] + 100*c[1]) })
	in.Set(ib)
	l, err := halide.NewPipeline(f).Lower()
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Kernels()) != 1 {
		t.Fatalf("%d kernels, want 1", len(l.Kernels()))
	}
	return l, l.Kernels()[0]
}

// mapKernel replaces the statements of k's body for which fs returns
// non-nil.
func mapKernel(k *ir.Kernel, fs func(ir.Stmt) ir.Stmt) {
	var mut func(ir.Stmt) ir.Stmt
	mut = func(s ir.Stmt) ir.Stmt {
		if r := fs(s); r != nil {
			return r
		}
		return ir.MapStmt(s, mut, nil)
	}
	k.Body = mut(k.Body)
}

// TestEmulatorFindings plants bugs in a kernel the emulator must find, and
// checks that each comes back with its own code (errors.Is) and with the
// emulator's error reachable (errors.As).
func TestEmulatorFindings(t *testing.T) {
	shared := func(k *ir.Kernel) string {
		for _, a := range k.Allocs {
			if a.Memory == ir.GPUShared {
				return a.Func
			}
		}
		t.Fatal("no shared allocation")
		return ""
	}
	cases := []struct {
		name  string
		plant func(k *ir.Kernel)
		code  halide.ErrorCode
		kind  emulator.ErrorKind
	}{
		{"barriers removed: a shared race", func(k *ir.Kernel) {
			mapKernel(k, func(s ir.Stmt) ir.Stmt {
				if _, ok := s.(*ir.Barrier); ok {
					return &ir.Comment{Text: "barrier removed"}
				}
				return nil
			})
		}, halide.ErrSharedRace, emulator.SharedRace},
		{"a barrier only some threads reach", func(k *ir.Kernel) {
			done := false
			mapKernel(k, func(s ir.Stmt) ir.Stmt {
				if b, ok := s.(*ir.Barrier); ok && !done {
					done = true
					tx := &ir.Var{T: ir.Int32, Name: ir.ThreadID[0]}
					return &ir.IfThenElse{Cond: ir.Bin(ir.LT, tx, ir.Int(4)), Then: b}
				}
				return nil
			})
		}, halide.ErrDivergentBarrier, emulator.DivergentBarrier},
		{"the shared tile never written", func(k *ir.Kernel) {
			name := shared(k)
			mapKernel(k, func(s ir.Stmt) ir.Stmt {
				if st, ok := s.(*ir.Store); ok && st.Buf == name {
					return &ir.Comment{Text: "store removed"}
				}
				return nil
			})
		}, halide.ErrUninitializedRead, emulator.UninitializedRead},
		{"a shared store out of bounds", func(k *ir.Kernel) {
			name := shared(k)
			mapKernel(k, func(s ir.Stmt) ir.Stmt {
				if st, ok := s.(*ir.Store); ok && st.Buf == name {
					return &ir.Store{Buf: st.Buf, Index: ir.Bin(ir.Add, st.Index, ir.Int(1<<20)), Value: st.Value}
				}
				return nil
			})
		}, halide.ErrOutOfBounds, emulator.OutOfBounds},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l, k := loweredStencil(t)
			c.plant(k)
			err := safely(func() error { return l.Realize(halide.NewBuffer[float32](16, 16)) })
			if err == nil {
				t.Fatal("the planted bug ran without an error")
			}
			if !errors.Is(err, c.code) {
				t.Errorf("errors.Is(err, %s) is false: %v", c.code, firstLine(err.Error()))
			}
			if !errors.Is(err, halide.ErrRuntime) {
				t.Errorf("errors.Is(err, ErrRuntime) is false: %v", firstLine(err.Error()))
			}
			var ee *emulator.EmulatorError
			if !errors.As(err, &ee) {
				t.Fatalf("errors.As does not reach a *emulator.EmulatorError: %v", firstLine(err.Error()))
			}
			if ee.Kind != c.kind {
				t.Errorf("kind %v, want %v", ee.Kind, c.kind)
			}
			var he *halide.Error
			if errors.As(err, &he) && (he.Code != c.code || he.Func != "f" || he.Directive != "Realize (GPU emulator)") {
				t.Errorf("error %q: want code %s, Func f, Directive %q", firstLine(he.Error()), c.code, "Realize (GPU emulator)")
			}
		})
	}
	t.Run("a broken promise in a kernel", func(t *testing.T) {
		bx, tx := halide.NewVar("bx"), halide.NewVar("tx")
		in := halide.NewImageParam("in", halide.Float32, 1)
		idx := halide.NewImageParam("idx", halide.Int32, 1)
		f := halide.NewFunc("f")
		f.Define(x).Is(in.At(halide.UnsafePromiseClamped(idx.At(x), 0, in.Dim(0).Max())))
		f.GPUTile1D(x, bx, tx, 8)
		in.Set(halide.NewBuffer[float32](16))
		ix := halide.NewBuffer[int32](16)
		ix.Set(1000, 5)
		idx.Set(ix)
		err := safely(func() error { return f.Realize(halide.NewBuffer[float32](16)) })
		var ee *emulator.EmulatorError
		if !errors.Is(err, halide.ErrOutOfBounds) || !errors.As(err, &ee) {
			t.Fatalf("want ErrOutOfBounds from the emulator, got %v", err)
		}
	})
	t.Run("codes are not each other", func(t *testing.T) {
		err := &halide.Error{Code: halide.ErrSharedRace}
		if errors.Is(err, halide.ErrOutOfBounds) || errors.Is(err, halide.ErrSchedule) {
			t.Error("a shared race matches another code")
		}
		if errors.Is(&halide.Error{Code: halide.ErrSchedule}, halide.ErrRuntime) {
			t.Error("a schedule error matches ErrRuntime")
		}
		wrapped := fmt.Errorf("context: %w", err)
		if !errors.Is(wrapped, halide.ErrSharedRace) {
			t.Error("errors.Is does not see through fmt.Errorf's %w")
		}
	})
}

// TestStalePipeline changes a schedule between two Realize calls: the
// second must run the new schedule, as the kernel report shows.
func TestStalePipeline(t *testing.T) {
	bx, by, tx, ty := gpuVars()
	b := newBlur()
	ib := b.set(9, 2)
	b.f.GPUTile(x, y, bx, by, tx, ty, 4, 2)
	p := halide.NewPipeline(b.f)
	out := halide.NewBuffer[float32](8, 2)
	if err := p.Realize(out); err != nil {
		t.Fatal(err)
	}
	rep, err := p.Report()
	if err != nil {
		t.Fatal(err)
	}
	if len(rep) != 1 || fmt.Sprint(rep[0].BlockValues) != "[4 2 1]" {
		t.Fatalf("first run: %d kernels, block %v; want 1 kernel of 4x2 threads", len(rep), rep[0].BlockValues)
	}

	// New schedule: g gets a kernel of its own, of 2x2 threads.
	b.g.ComputeRoot().GPUTile(x, y, bx, by, tx, ty, 2, 2)
	if err := p.Realize(out); err != nil {
		t.Fatal(err)
	}
	rep, err = p.Report()
	if err != nil {
		t.Fatal(err)
	}
	if len(rep) != 2 {
		t.Fatalf("second run: %d kernels, want 2 (g's and f's)", len(rep))
	}
	for _, k := range rep {
		if k.BlockValues == nil {
			t.Errorf("kernel %s did not run in the second Realize", k.Name)
		}
		t.Logf("kernel %s: grid %v block %v", k.Name, k.GridValues, k.BlockValues)
	}
	checkBlur(t, ib, out)

	// A change that makes the schedule wrong is seen too.
	b.g.Bound(x, 0, 4)
	if err := p.Realize(out); !errors.Is(err, halide.ErrRuntime) {
		t.Errorf("after Bound(x, 0, 4) on g, Realize gave %v; want the run-time error of a bound too small", err)
	}
	// And undoing it is not possible, but a fresh Func state recompiles:
	// an input's SetBounds moves the pipeline to a new generation too.
	b2 := definedBlur()
	p2 := halide.NewPipeline(b2.f)
	if err := p2.Realize(out); err != nil {
		t.Fatal(err)
	}
	b2.in.Dim(0).SetBounds(0, 5)
	if err := p2.Realize(out); !errors.Is(err, halide.ErrBufferShape) {
		t.Errorf("after SetBounds(0, 5), Realize gave %v; want ErrBufferShape (the buffer has extent 9)", err)
	}
}
