package halide_test

import (
	"errors"
	"math/rand"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// Pipelines with several outputs (Halide's multiple_outputs.cpp, with
// random inputs added): outputs of different sizes, types and
// dimensionalities, Tuples among them, outputs that read one another (in
// any order given), on the CPU and on the GPU emulator.

func TestOutputsOfDifferentSizes(t *testing.T) {
	for _, gpu := range []bool{false, true} {
		t.Run(map[bool]string{false: "cpu", true: "gpu"}[gpu], func(t *testing.T) {
			rng := rand.New(rand.NewSource(3))
			in := halide.NewBuffer[int32](100)
			in.Fill(func([]int) int32 { return int32(rng.Intn(1000) - 500) })
			f, g := halide.NewFunc("f"), halide.NewFunc("g")
			x, xi := halide.NewVar("x"), halide.NewVar("xi")
			f.Define(x).Is(in.At(x).Mul(100))
			g.Define(x).Is(in.At(x).Add(x))
			if gpu {
				f.GPUTile1D(x, x, xi, 8)
				g.GPUTile1D(x, x, xi, 8)
			}
			fIm, gIm := halide.NewBuffer[int32](100), halide.NewBuffer[int32](10)
			p := halide.NewPipeline(f, g)
			if err := p.RealizeTuple(fIm, gIm); err != nil {
				t.Fatal(err)
			}
			for i := 0; i < 100; i++ {
				if fIm.Get(i) != in.Get(i)*100 {
					t.Fatalf("f(%d) = %d, want %d", i, fIm.Get(i), in.Get(i)*100)
				}
			}
			for i := 0; i < 10; i++ {
				if gIm.Get(i) != in.Get(i)+int32(i) {
					t.Fatalf("g(%d) = %d, want %d", i, gIm.Get(i), in.Get(i)+int32(i))
				}
			}
			l, err := p.Lower()
			if err != nil {
				t.Fatal(err)
			}
			if s := l.String(); !strings.Contains(s, "// output f\n") || !strings.Contains(s, "// output g\n") {
				t.Errorf("the lowered statement does not name its outputs:\n%s", s)
			}
			if gpu && len(l.Kernels()) != 2 {
				t.Errorf("%d kernels, want 2 (one per output)", len(l.Kernels()))
			}
		})
	}
}

func TestOutputsTupleAndTypes(t *testing.T) {
	f, g := halide.NewFunc("f"), halide.NewFunc("g")
	x := halide.NewVar("x")
	f.Define(x).Is(halide.Cast(halide.Float32, x.Mul(100)))
	g.Define(x).Is(halide.NewTuple(halide.Cast(halide.UInt8, x), halide.Cast(halide.Int16, x.Add(1))))
	fIm, g0, g1 := halide.NewBuffer[float32](100), halide.NewBuffer[uint8](100), halide.NewBuffer[int16](100)
	if err := halide.NewPipeline(f, g).RealizeTuple(fIm, g0, g1); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 100; i++ {
		if fIm.Get(i) != float32(100*i) || g0.Get(i) != uint8(i) || g1.Get(i) != int16(i+1) {
			t.Fatalf("at %d: f = %g, g = (%d, %d)", i, fIm.Get(i), g0.Get(i), g1.Get(i))
		}
	}
}

// Outputs of different dimensionalities that call each other, some of them
// Tuples, given in an order where a consumer comes first: each is computed
// once, and the later ones read the earlier ones' buffers.
func TestOutputsThatReadEachOther(t *testing.T) {
	for _, gpu := range []bool{false, true} {
		t.Run(map[bool]string{false: "cpu", true: "gpu"}[gpu], func(t *testing.T) {
			rng := rand.New(rand.NewSource(5))
			in := halide.NewBuffer[int32](100)
			in.Fill(func([]int) int32 { return int32(rng.Intn(1000) - 500) })
			f, g, h := halide.NewFunc("f"), halide.NewFunc("g"), halide.NewFunc("h")
			x, y, xi, yi := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("xi"), halide.NewVar("yi")
			f.Define(x).Is(in.At(x).Add(x))
			h.Define(x).Is(halide.NewTuple(f.At(x).Add(17), f.At(x).Sub(17)))
			g.Define(x, y).Is(halide.NewTuple(f.At(x.Add(y)).Mul(2), h.AtTuple(x).Elem(0).Mul(y), h.AtTuple(x).Elem(1).Sub(2)))
			if gpu {
				g.GPUTile(x, y, x, y, xi, yi, 4, 4)
			}
			fIm := halide.NewBuffer[int32](100)
			g0, g1, g2 := halide.NewBuffer[int32](20, 20), halide.NewBuffer[int32](20, 20), halide.NewBuffer[int32](20, 20)
			h0, h1 := halide.NewBuffer[int32](50), halide.NewBuffer[int32](50)
			p := halide.NewPipeline(h, g, f)
			if err := p.RealizeTuple(h0, h1, g0, g1, g2, fIm); err != nil {
				t.Fatal(err)
			}
			for i := 0; i < 100; i++ {
				fv := in.Get(i) + int32(i)
				if fIm.Get(i) != fv {
					t.Fatalf("f(%d) = %d, want %d", i, fIm.Get(i), fv)
				}
				if i < 50 && (h0.Get(i) != fv+17 || h1.Get(i) != fv-17) {
					t.Fatalf("h(%d) = (%d, %d), want (%d, %d)", i, h0.Get(i), h1.Get(i), fv+17, fv-17)
				}
			}
			for yy := 0; yy < 20; yy++ {
				for xx := 0; xx < 20; xx++ {
					fxy := in.Get(xx+yy) + int32(xx+yy)
					fx := in.Get(xx) + int32(xx)
					w0, w1, w2 := fxy*2, (fx+17)*int32(yy), fx-17-2
					if g0.Get(xx, yy) != w0 || g1.Get(xx, yy) != w1 || g2.Get(xx, yy) != w2 {
						t.Fatalf("g(%d, %d) = (%d, %d, %d), want (%d, %d, %d)", xx, yy, g0.Get(xx, yy), g1.Get(xx, yy), g2.Get(xx, yy), w0, w1, w2)
					}
				}
			}
			// f runs first, then h, then g; h and g read f (and g reads
			// h) from their buffers rather than computing them again.
			l, err := p.Lower()
			if err != nil {
				t.Fatal(err)
			}
			s := l.String()
			if strings.Count(s, "produce f ") != 1 || strings.Count(s, "produce h ") != 1 {
				t.Errorf("f or h is produced more than once:\n%s", s)
			}
			iF, iH, iG := strings.Index(s, "// output f\n"), strings.Index(s, "// output h\n"), strings.Index(s, "// output g\n")
			if iF < 0 || !(iF < iH && iH < iG) {
				t.Errorf("the outputs do not run in the order f, h, g:\n%s", l.LoopNest)
			}
		})
	}
}

// An output that reads another past its buffer is refused, naming both, as
// an input read out of bounds is; a wrong number of buffers, Realize of
// one buffer, and an output given twice are refused too.
func TestOutputsErrors(t *testing.T) {
	x := halide.NewVar("x")
	f, g := halide.NewFunc("f"), halide.NewFunc("g")
	f.Define(x).Is(x.Mul(3))
	g.Define(x).Is(f.At(x.Add(5)))
	p := halide.NewPipeline(f, g)
	var he *halide.Error
	err := p.RealizeTuple(halide.NewBuffer[int32](10), halide.NewBuffer[int32](10))
	if !errors.As(err, &he) || he.Code != halide.ErrOutOfBounds || !strings.Contains(err.Error(), "reads input f over [5, 14]") {
		t.Errorf("g reading f past its buffer: want ErrOutOfBounds naming f, got %v", err)
	}
	fIm, gIm := halide.NewBuffer[int32](15), halide.NewBuffer[int32](10)
	if err := p.RealizeTuple(fIm, gIm); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 10; i++ {
		if gIm.Get(i) != int32(3*(i+5)) {
			t.Fatalf("g(%d) = %d, want %d", i, gIm.Get(i), 3*(i+5))
		}
	}
	for _, c := range []struct {
		name string
		err  error
		code halide.ErrorCode
	}{
		{"one buffer of two", p.RealizeTuple(fIm), halide.ErrBufferShape},
		{"Realize", p.Realize(fIm), halide.ErrBadArgument},
		{"an output twice", halide.NewPipeline(f, f).Compile(), halide.ErrBadArgument},
		{"compute_with of two outputs", cwOutputs(), halide.ErrSchedule},
		{"an undefined output", halide.NewPipeline(f, halide.NewFunc("u")).Compile(), halide.ErrUndefined},
		{"a nil output", halide.NewPipeline(f, nil).Compile(), halide.ErrNilObject},
	} {
		if !errors.As(c.err, &he) || he.Code != c.code {
			t.Errorf("%s: want %v, got %v", c.name, c.code, c.err)
		}
	}
}

// cwOutputs compiles a pipeline of two outputs fused by ComputeWith,
// which is not built.
func cwOutputs() error {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	f, g := halide.NewFunc("f"), halide.NewFunc("g")
	f.Define(x, y).Is(x.Add(y))
	g.Define(x, y).Is(x.Sub(y))
	g.ComputeWith(f, x)
	return halide.NewPipeline(f, g).Compile()
}

// An output is computed at the root (as in Halide): ComputeAt of an
// output at a loop of another output is refused, with the code of an
// output computed at a loop in a pipeline of one output; ComputeInline
// of an output leaves it computed at the root, into its buffer, as for
// a pipeline of one output.
func TestOutputsComputedAtRoot(t *testing.T) {
	x := halide.NewVar("x")
	rng := rand.New(rand.NewSource(7))
	in := halide.NewBuffer[int32](12)
	in.Fill(func([]int) int32 { return int32(rng.Intn(100) - 50) })
	build := func() (f, g *halide.Func) {
		f, g = halide.NewFunc("f"), halide.NewFunc("g")
		f.Define(x).Is(in.At(x).Mul(3))
		g.Define(x).Is(f.At(x).Add(f.At(x.Add(1))))
		return f, g
	}
	f, g := build()
	f.ComputeAt(g, x)
	var he *halide.Error
	if err := halide.NewPipeline(g, f).RealizeTuple(halide.NewBuffer[int32](10), halide.NewBuffer[int32](11)); !errors.As(err, &he) || he.Code != halide.ErrComputeAt {
		t.Errorf("an output computed at another's loop: want ErrComputeAt, got %v", err)
	}
	f, g = build()
	f.ComputeInline()
	fIm, gIm := halide.NewBuffer[int32](11), halide.NewBuffer[int32](10)
	if err := halide.NewPipeline(g, f).RealizeTuple(gIm, fIm); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 11; i++ {
		if want := 3 * in.Get(i); fIm.Get(i) != want {
			t.Fatalf("f(%d) = %d, want %d", i, fIm.Get(i), want)
		}
		if want := 3*in.Get(i) + 3*in.Get(i+1); i < 10 && gIm.Get(i) != want {
			t.Fatalf("g(%d) = %d, want %d", i, gIm.Get(i), want)
		}
	}
}
