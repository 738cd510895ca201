package gpu_test

// Vectorize in a kernel (vector_access): vectorized loops that store one
// value per lane become vector stores, and their operands read at
// consecutive indexes vector loads, where alignment is proved or tested at
// run time. Each case lowers a pipeline, counts the vector marks in the
// lowered statement and the vector types in the CUDA, and runs it on the
// emulator (which checks every vector's alignment) against a plain-Go
// reference, with inputs whose rows start aligned and misaligned.

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/halide"
	"github.com/gohalide/gohalide/ir"
)

// vectorCase is one pipeline of TestVectorAccess: out(x, y) for x from
// minX and y from 0, over a w x w input.
type vectorCase struct {
	name string
	// build returns the output Func, scheduled, reading in.
	build func(in *halide.ImageParam, x, y halide.Var) *halide.Func
	// ref is out(x, y) from the input's values.
	ref func(in func(x, y int) float32, x, y int) float32
	// outW is the output's width for an input of width w.
	outW func(w int) int
	// stores and loads are the vector stores and loads the lowered
	// statement must have (at least); cuda a vector type its source must
	// use ("" for none); scalar means no vector at all.
	stores, loads int
	cuda          string
}

func TestVectorAccess(t *testing.T) {
	copyRef := func(in func(x, y int) float32, x, y int) float32 { return 2 * in(x, y) }
	same := func(w int) int { return w }
	cases := []vectorCase{
		{
			// The block's tile of the input, 64 x 4, is loaded into shared
			// memory with float4 loads and stores, 4 lanes per thread.
			name: "cooperative tile",
			build: func(in *halide.ImageParam, x, y halide.Var) *halide.Func {
				out := halide.NewFunc("out")
				out.Define(x, y).Is(in.At(x, y).Mul(float32(2)))
				tile := in.In(out)
				bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
				out.GPUTile(x, y, bx, by, tx, ty, 64, 4)
				tile.ComputeAt(out, bx).StoreIn(halide.GPUShared).Vectorize(x, 4)
				return out
			},
			ref: copyRef, outW: same, stores: 1, loads: 1, cuda: "float4",
		},
		{
			// Each thread computes 4 outputs: in(x) is a vector, in(x + 1)
			// is 1 element off it and stays scalar; the store is a vector.
			name: "stencil per thread",
			build: func(in *halide.ImageParam, x, y halide.Var) *halide.Func {
				out := halide.NewFunc("out")
				out.Define(x, y).Is(in.At(x, y).Add(in.At(x.Add(1), y)))
				xo, xv, bx, tx := halide.NewVar("xo"), halide.NewVar("xv"), halide.NewVar("bx"), halide.NewVar("tx")
				out.Split(x, xo, xv, 4).Split(xo, bx, tx, 8).Reorder(xv, tx, bx, y).
					GPUBlocks(bx, y).GPUThreads(tx).Vectorize(xv)
				return out
			},
			ref:  func(in func(x, y int) float32, x, y int) float32 { return in(x, y) + in(x+1, y) },
			outW: func(w int) int { return w - 4 }, stores: 1, loads: 1, cuda: "float4",
		},
		{
			// A transposing tile: the input's rows are columns of the tile,
			// so the loads stay scalar and the tile's rows are stored as
			// vectors.
			name: "transposed tile",
			build: func(in *halide.ImageParam, x, y halide.Var) *halide.Func {
				out := halide.NewFunc("out")
				t := halide.NewFunc("t")
				t.Define(x, y).Is(in.At(y, x))
				out.Define(x, y).Is(t.At(y, x).Mul(float32(2)))
				bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
				out.GPUTile(x, y, bx, by, tx, ty, 16, 16)
				t.ComputeAt(out, bx).StoreIn(halide.GPUShared).Vectorize(x, 4)
				return out
			},
			ref: copyRef, outW: same, stores: 1, loads: 0, cuda: "float4",
		},
		{
			// 8 lanes of float32 are two vectors of 4.
			name: "eight lanes",
			build: func(in *halide.ImageParam, x, y halide.Var) *halide.Func {
				out := halide.NewFunc("out")
				out.Define(x, y).Is(in.At(x, y).Mul(float32(2)))
				xo, xv, bx, tx := halide.NewVar("xo"), halide.NewVar("xv"), halide.NewVar("bx"), halide.NewVar("tx")
				out.Split(x, xo, xv, 8).Split(xo, bx, tx, 4).Reorder(xv, tx, bx, y).
					GPUBlocks(bx, y).GPUThreads(tx).Vectorize(xv)
				return out
			},
			ref:  copyRef,
			outW: func(w int) int { return w / 8 * 8 }, stores: 2, loads: 2, cuda: "float4",
		},
	}
	for _, c := range cases {
		for _, shape := range []struct {
			w, h, minX int
		}{{64, 16, 0}, {67, 20, 0}, {67, 16, 3}} {
			x, y := halide.NewVar("x"), halide.NewVar("y")
			in := halide.NewImageParam("in", halide.Float32, 2)
			out := c.build(in, x, y)
			p := halide.NewPipeline(out)
			l, err := p.Lower()
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			stmt := l.String()
			if got := strings.Count(stmt, "stores store one aligned vector"); got < c.stores {
				t.Errorf("%s: %d vector stores, want %d:\n%s", c.name, got, c.stores, stmt)
			}
			if got := strings.Count(stmt, "lets load one aligned vector"); got < c.loads {
				t.Errorf("%s: %d vector loads, want %d:\n%s", c.name, got, c.loads, stmt)
			}
			src, err := l.CUDA()
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			if c.cuda != "" && !strings.Contains(src, "*("+c.cuda+" *)&") {
				t.Errorf("%s: the CUDA stores no %s:\n%s", c.name, c.cuda, src)
			}
			// Rows of width 67 start misaligned on every row but the
			// first; an output starting at x = 3 makes the first index of
			// every tile misaligned: the run-time tests must take the
			// scalar loops.
			rng := rand.New(rand.NewSource(int64(shape.w*100 + shape.minX)))
			buf := halide.NewBuffer[float32](shape.w, shape.w)
			buf.Fill(func([]int) float32 { return rng.Float32()*2 - 1 })
			in.Set(buf)
			ow := c.outW(shape.w-shape.minX) / 16 * 16
			res := halide.NewBuffer[float32](ow, shape.h).SetMin(shape.minX, 0)
			if err := p.Realize(res); err != nil {
				t.Fatalf("%s %v: %v", c.name, shape, err)
			}
			// With the scalar fallback of each vector branch replaced by a
			// failing assertion, the aligned shape must not reach it, and
			// a misaligned one must.
			forced, branches := withoutFallback(l)
			if branches > 0 {
				err := forced.Realize(halide.NewBuffer[float32](ow, shape.h).SetMin(shape.minX, 0))
				aligned := shape.w%4 == 0 && shape.minX%4 == 0
				if aligned && err != nil {
					t.Errorf("%s %v: the aligned input took a scalar fallback: %v", c.name, shape, err)
				}
				if !aligned && err == nil {
					t.Errorf("%s %v: the misaligned input never took the scalar fallback", c.name, shape)
				}
			}
			get := func(x, y int) float32 { return buf.Get(x, y) }
			for yy := 0; yy < shape.h; yy++ {
				for xx := shape.minX; xx < shape.minX+ow; xx++ {
					// The reference is computed in float32, in the
					// pipeline's order: the results must be equal.
					if got, want := res.Get(xx, yy), c.ref(get, xx, yy); got != want {
						t.Fatalf("%s %v: out(%d, %d) = %v, want %v", c.name, shape, xx, yy, got, want)
					}
				}
			}
		}
	}
}

// TestVectorAccessTypes: float64 makes vectors of 2 lanes; uint8 has no
// vector type and stays a loop; the answers are the same.
func TestVectorAccessTypes(t *testing.T) {
	for _, c := range []struct {
		typ     halide.Type
		vectors bool
	}{{halide.Float64, true}, {halide.UInt8, false}, {halide.Int32, true}} {
		x, y := halide.NewVar("x"), halide.NewVar("y")
		in := halide.NewImageParam("in", c.typ, 2)
		out := halide.NewFunc("out")
		out.Define(x, y).Is(in.At(x, y))
		tile := in.In(out)
		bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
		out.GPUTile(x, y, bx, by, tx, ty, 32, 2)
		tile.ComputeAt(out, bx).StoreIn(halide.GPUShared).Vectorize(x, 2)
		p := halide.NewPipeline(out)
		l, err := p.Lower()
		if err != nil {
			t.Fatalf("%v: %v", c.typ, err)
		}
		if got := strings.Contains(l.String(), "aligned vector"); got != c.vectors {
			t.Errorf("%v: vectors %v, want %v:\n%s", c.typ, got, c.vectors, l.String())
		}
		rng := rand.New(rand.NewSource(7))
		switch c.typ {
		case halide.Float64:
			checkCopy(t, p, in, rng.Float64)
		case halide.UInt8:
			checkCopy(t, p, in, func() uint8 { return uint8(rng.Intn(256)) })
		case halide.Int32:
			checkCopy(t, p, in, func() int32 { return rng.Int31() - 1<<30 })
		}
	}
}

// checkCopy realizes a copy of a 64 x 4 input and compares it exactly.
func checkCopy[T halide.Number](t *testing.T, p *halide.Pipeline, in *halide.ImageParam, draw func() T) {
	t.Helper()
	buf := halide.NewBuffer[T](64, 4)
	buf.Fill(func([]int) T { return draw() })
	in.Set(buf)
	out := halide.NewBuffer[T](64, 4)
	if err := p.Realize(out); err != nil {
		t.Fatal(err)
	}
	for y := 0; y < 4; y++ {
		for x := 0; x < 64; x++ {
			if out.Get(x, y) != buf.Get(x, y) {
				t.Fatalf("%T: out(%d, %d) = %v, want %v", *new(T), x, y, out.Get(x, y), buf.Get(x, y))
			}
		}
	}
}

// withoutFallback returns l with the scalar fallback of each vector branch
// (an if whose then-branch stores a vector) replaced by a failing
// assertion, and the number of branches.
func withoutFallback(l *halide.Lowered) (*halide.Lowered, int) {
	n := 0
	var body func(ir.Stmt) ir.Stmt
	body = func(s ir.Stmt) ir.Stmt {
		s = ir.MapStmt(s, body, func(e ir.Expr) ir.Expr { return e })
		if ite, ok := s.(*ir.IfThenElse); ok && ite.Else != nil && hasStoreVector(ite.Then) {
			n++
			return &ir.IfThenElse{Cond: ite.Cond, Then: ite.Then,
				Else: &ir.AssertStmt{Cond: ir.Const(ir.Bool, 0), Message: "the scalar fallback of a vector branch ran"}}
		}
		return s
	}
	var walk func(ir.Stmt) ir.Stmt
	walk = func(s ir.Stmt) ir.Stmt {
		if ln, ok := s.(*ir.Launch); ok {
			k := *ln.Kernel
			k.Body = body(k.Body)
			c := *ln
			c.Kernel = &k
			return &c
		}
		return ir.MapStmt(s, walk, func(e ir.Expr) ir.Expr { return e })
	}
	return l.WithStmt(walk(l.Stmt)), n
}

func hasStoreVector(s ir.Stmt) bool {
	found := false
	ir.WalkStmt(s, func(x ir.Stmt) bool {
		if _, ok := x.(*ir.StoreVector); ok {
			found = true
		}
		return !found
	}, nil)
	return found
}
