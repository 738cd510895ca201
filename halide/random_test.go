package halide

import (
	"errors"
	"math"
	"testing"

	"github.com/gohalide/gohalide/ir"
)

// refRandom is Halide's random_int of args, written from its definition
// in plain Go: the polynomial permutation folded over the arguments, the
// high half xored into the low.
func refRandom(args ...int32) uint32 {
	perm := func(x uint32) uint32 { return (randomC2*x+randomC1)*x + randomC0 }
	r := perm(uint32(args[0]))
	for _, a := range args[1:] {
		r = perm(r + uint32(a))
	}
	return r ^ r>>16
}

// refRandomFloat is Halide's random_float from the same hash.
func refRandomFloat(args ...int32) float32 {
	bits := uint32(127<<23) | refRandom(args...)>>9
	return min(max(math.Float32frombits(bits)-1, 0), 1)
}

func realizeOn(t *testing.T, f *Func, out BufferRef) {
	t.Helper()
	if err := NewPipeline(f).WithOptions(Options{Verify: true}).Realize(out); err != nil {
		t.Fatal(err)
	}
}

// TestRandomValues checks RandomFloat, RandomUint and RandomInt against
// Halide's algorithm in Go, with the definition's free variables in
// Halide's order (the call's number, the definition's, then y and x),
// under a CPU schedule and a GPU schedule (on the emulator), bit for bit.
func TestRandomValues(t *testing.T) {
	const W, H = 37, 23
	for _, gpu := range []bool{false, true} {
		x, y := NewVar("x"), NewVar("y")
		id, tag := randomCalls.Load(), randomDefs.Load()
		f := NewFunc("f")
		f.Define(x, y).Is(RandomFloat())
		g := NewFunc("g") // two calls, and a seed
		g.Define(x, y).Is(Cast(Int64, RandomUint()).Sub(Cast(Int64, RandomInt(y.Mul(3)))))
		if gpu {
			xo, yo, xi, yi := NewVar("xo"), NewVar("yo"), NewVar("xi"), NewVar("yi")
			f.GPUTile(x, y, xo, yo, xi, yi, 8, 4)
			g.GPUTile(x, y, xo, yo, xi, yi, 16, 2)
		} else {
			f.Vectorize(x, 4)
			g.Parallel(y)
		}
		fb, gb := NewBuffer[float32](W, H), NewBuffer[int64](W, H)
		realizeOn(t, f, fb)
		realizeOn(t, g, gb)
		for yy := 0; yy < H; yy++ {
			for xx := 0; xx < W; xx++ {
				want := refRandomFloat(id, tag, int32(yy), int32(xx))
				if got := fb.Get(xx, yy); math.Float32bits(got) != math.Float32bits(want) || got < 0 || got >= 1 {
					t.Fatalf("gpu %v: f(%d, %d) = %v, want %v in [0, 1)", gpu, xx, yy, got, want)
				}
				u := refRandom(id+1, tag+1, int32(yy), int32(xx))
				i := int32(refRandom(int32(yy*3), id+2, tag+1, int32(yy), int32(xx)))
				if got, want := gb.Get(xx, yy), int64(u)-int64(i); got != want {
					t.Fatalf("gpu %v: g(%d, %d) = %d, want %d", gpu, xx, yy, got, want)
				}
			}
		}
	}
}

// TestRandomSemantics: one call is one value (a + a is 2a), two calls
// differ, a Func of random numbers read at a shifted point gives its value
// there, an update's numbers depend on its RVars, and the values are
// spread over [0, 1) (mean and variance of a uniform distribution).
func TestRandomSemantics(t *testing.T) {
	const n = 4096
	x := NewVar("x")
	a := RandomFloat()
	same, diff := NewFunc("same"), NewFunc("diff")
	same.Define(x).Is(a.Add(a).Sub(a.Mul(2)))
	diff.Define(x).Is(RandomFloat().Sub(RandomFloat()))
	sb, db := NewBuffer[float32](n), NewBuffer[float32](n)
	realizeOn(t, same, sb)
	realizeOn(t, diff, db)
	nonzero := 0
	for i := 0; i < n; i++ {
		if sb.Get(i) != 0 {
			t.Fatalf("a + a - 2a = %v at %d, want 0", sb.Get(i), i)
		}
		if db.Get(i) != 0 {
			nonzero++
		}
	}
	if nonzero < n*99/100 {
		t.Errorf("two calls of RandomFloat differ at %d of %d points", nonzero, n)
	}

	g, h := NewFunc("g"), NewFunc("h")
	g.Define(x).Is(RandomFloat())
	h.Define(x).Is(g.At(x.Add(5)))
	gb, hb := NewBuffer[float32](n+5), NewBuffer[float32](n)
	realizeOn(t, g, gb)
	realizeOn(t, h, hb)
	var sum, sq float64
	for i := 0; i < n; i++ {
		if hb.Get(i) != gb.Get(i+5) {
			t.Fatalf("h(%d) = %v, want g(%d) = %v", i, hb.Get(i), i+5, gb.Get(i+5))
		}
		v := float64(gb.Get(i))
		sum += v
		sq += v * v
	}
	mean, variance := sum/n, sq/n-(sum/n)*(sum/n)
	if math.Abs(mean-0.5) > 0.02 || math.Abs(variance-1.0/12) > 0.01 {
		t.Errorf("mean %.4f, variance %.4f of %d values; want about 0.5 and 1/12", mean, variance, n)
	}

	// Updates: the numbers depend on the update's pure Vars, and on its
	// RVars where it has an RDom.
	u := NewFunc("u")
	r := NewRDom("r", Range(0, 8))
	u.Define(x).Is(float32(0))
	id, tag := randomCalls.Load(), randomDefs.Load()
	u.Define(x).PlusEq(RandomFloat())
	ub := NewBuffer[float32](16)
	realizeOn(t, u, ub)
	for xx := 0; xx < 16; xx++ {
		if want := refRandomFloat(id, tag, int32(xx)); ub.Get(xx) != want {
			t.Fatalf("u(%d) = %v, want %v", xx, ub.Get(xx), want)
		}
	}
	w := NewFunc("w")
	w.Define(x).Is(float32(0))
	id, tag = randomCalls.Load(), randomDefs.Load()
	w.Define(x).PlusEq(RandomFloat().Mul(r.X()).Add(0))
	wb := NewBuffer[float32](4)
	realizeOn(t, w, wb)
	for xx := 0; xx < 4; xx++ {
		var want float32
		for rr := 0; rr < 8; rr++ {
			// free variables: x, then r's; last to first after the tag.
			want += refRandomFloat(id, tag, int32(rr), int32(xx)) * float32(rr)
		}
		if math.Abs(float64(wb.Get(xx)-want)) > 1e-5 {
			t.Fatalf("w(%d) = %v, want %v", xx, wb.Get(xx), want)
		}
	}
}

// TestRandomErrors: a seed of another type, or two seeds, is a typed error
// naming the function.
func TestRandomErrors(t *testing.T) {
	for _, e := range []Expr{RandomFloat(float32(1)), RandomFloat(Cast(UInt32, 1)), RandomUint(Cast(Int16, 1)), RandomInt(1, 2)} {
		var he *ir.Error
		if !errors.As(e.Err(), &he) || he.Code != ir.ErrType {
			t.Errorf("error %v, want an *ir.Error with code %v", e.Err(), ir.ErrType)
		}
	}
	x := NewVar("x")
	f := NewFunc("f")
	f.Define(x).Is(RandomFloat(float32(2)))
	err := f.Realize(NewBuffer[float32](4))
	var he *ir.Error
	if !errors.As(err, &he) || he.Code != ir.ErrType || he.Func != "f" {
		t.Errorf("Realize: %v, want an ErrType naming f", err)
	}
}
