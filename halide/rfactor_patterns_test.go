package halide_test

import (
	"errors"
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// RFactor of the reductions that are not one op per value
// (lower.ProveReduction): argmin and argmax, whose index must be the one
// the serial update finds even where keys tie; complex products; a
// saturating add written with a select; a max that keeps NaN. Each is
// checked against the serial update in plain Go, on the CPU and on the
// GPU emulator, with random inputs.

const (
	patW, patH = 13, 11 // the RDom
	patNX      = 4      // f's extent
)

// patSchedule factors f's update (over the RDom r) and schedules it.
type patSchedule struct {
	name  string
	apply func(f *halide.Func, r *halide.RDom, x halide.Var) *halide.Func
}

var patSchedules = []patSchedule{
	{"keep_ry_root", func(f *halide.Func, r *halide.RDom, x halide.Var) *halide.Func {
		u := halide.NewVar("u")
		return f.Update(0).RFactor(halide.RFactorPair{R: r.Y(), V: u}).ComputeRoot()
	}},
	{"keep_ryo_at_f", func(f *halide.Func, r *halide.RDom, x halide.Var) *halide.Func {
		ryo, ryi := halide.NewRVar("ryo"), halide.NewRVar("ryi")
		u := halide.NewVar("u")
		f.Update(0).Split(r.Y(), ryo, ryi, 4) // 11 = 4+4+3: a guarded tail
		intm := f.Update(0).RFactor(halide.RFactorPair{R: ryo, V: u})
		intm.ComputeAt(f, x)
		intm.Update(0).Parallel(u)
		return intm
	}},
	{"gpu", func(f *halide.Func, r *halide.RDom, x halide.Var) *halide.Func {
		u := halide.NewVar("u")
		intm := f.Update(0).RFactor(halide.RFactorPair{R: r.Y(), V: u})
		intm.ComputeRoot().GPUBlocks(u).GPUThreads(x)
		intm.Update(0).Reorder(x, u).GPUBlocks(u).GPUThreads(x)
		return intm
	}},
}

func patInput(rng *rand.Rand, lim int) *halide.Buffer[int32] {
	b := halide.NewBuffer[int32](patW, patH)
	b.Fill(func([]int) int32 { return int32(1 + rng.Intn(lim)) })
	return b
}

func patLower(t *testing.T, f *halide.Func, gpu bool) {
	t.Helper()
	if !gpu {
		return
	}
	l, err := halide.NewPipeline(f).Lower()
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Kernels()) == 0 {
		t.Fatal("a GPU schedule made no kernel")
	}
}

// argmin and argmax over keys with many ties: the index found must be the
// serial update's, the first or the last of the equal keys as its
// comparison says, whatever the schedule.
func TestRFactorArgminTies(t *testing.T) {
	type form struct {
		name   string
		isMax  bool
		strict bool // ties take the new index (the last); else keep the first
		tuple  bool // written as one SelectTuple
	}
	var forms []form
	for _, isMax := range []bool{false, true} {
		for _, strict := range []bool{false, true} {
			for _, tuple := range []bool{false, true} {
				n := map[bool]string{false: "argmin", true: "argmax"}[isMax] +
					map[bool]string{false: "_first", true: "_last"}[strict] +
					map[bool]string{false: "", true: "_tuple"}[tuple]
				forms = append(forms, form{n, isMax, strict, tuple})
			}
		}
	}
	for _, fm := range forms {
		for _, sc := range patSchedules {
			t.Run(fm.name+"/"+sc.name, func(t *testing.T) {
				rng := rand.New(rand.NewSource(int64(len(fm.name)*31 + len(sc.name))))
				buf := patInput(rng, 1000)
				in := halide.NewImageParam("in", halide.Int32, 2)
				in.Set(buf)
				x := halide.NewVar("x")
				r := halide.NewRDom("r", halide.Range(0, patW), halide.Range(0, patH))
				f := halide.NewFunc("f")
				start := int32(math.MaxInt32)
				if fm.isMax {
					start = math.MinInt32
				}
				f.Define(x).Is(halide.NewTuple(start, int32(-1), int32(-1)))
				old := f.AtTuple(x)
				key := in.At(r.X(), r.Y()).Add(x).BitAnd(3) // four keys: ties everywhere
				// better: where the new key replaces the old one.
				var better halide.Expr
				switch {
				case !fm.isMax && fm.strict:
					better = key.Le(old.Elem(0))
				case !fm.isMax:
					better = key.Lt(old.Elem(0))
				case fm.strict:
					better = key.Ge(old.Elem(0))
				default:
					better = key.Gt(old.Elem(0))
				}
				if fm.tuple {
					f.Define(x).Is(halide.SelectTuple(better, halide.NewTuple(key, r.X(), r.Y()), old))
				} else {
					k := halide.Min(old.Elem(0), key)
					if fm.isMax {
						k = halide.Max(key, old.Elem(0))
					}
					f.Define(x).Is(halide.NewTuple(k,
						halide.Select(better, r.X(), old.Elem(1)),
						halide.Select(better, r.Y(), old.Elem(2))))
				}
				intm := sc.apply(f, r, x)
				if err := intm.Err(); err != nil {
					t.Fatal(err)
				}
				patLower(t, f, sc.name == "gpu")
				k, ix, iy := halide.NewBuffer[int32](patNX), halide.NewBuffer[int32](patNX), halide.NewBuffer[int32](patNX)
				if err := halide.NewPipeline(f).RealizeTuple(k, ix, iy); err != nil {
					t.Fatal(err)
				}
				for xv := 0; xv < patNX; xv++ {
					wk, wx, wy := start, int32(-1), int32(-1)
					for ry := 0; ry < patH; ry++ {
						for rx := 0; rx < patW; rx++ {
							kv := (buf.Get(rx, ry) + int32(xv)) & 3
							var b bool
							switch {
							case !fm.isMax && fm.strict:
								b = kv <= wk
							case !fm.isMax:
								b = kv < wk
							case fm.strict:
								b = kv >= wk
							default:
								b = kv > wk
							}
							if b {
								wk, wx, wy = kv, int32(rx), int32(ry)
							}
						}
					}
					if k.Get(xv) != wk || ix.Get(xv) != wx || iy.Get(xv) != wy {
						t.Errorf("f(%d) = (%d, %d, %d), want (%d, %d, %d)", xv, k.Get(xv), ix.Get(xv), iy.Get(xv), wk, wx, wy)
					}
				}
			})
		}
	}
}

// Keeping an inner RVar of an argmin in the update would combine partial
// results out of the serial order: refused, naming the loops.
func TestRFactorArgminInnerRefused(t *testing.T) {
	x, u := halide.NewVar("x"), halide.NewVar("u")
	r := halide.NewRDom("r", halide.Range(0, patW), halide.Range(0, patH))
	in := halide.NewImageParam("in", halide.Int32, 2)
	f := halide.NewFunc("f")
	f.Define(x).Is(halide.NewTuple(int32(math.MaxInt32), int32(0)))
	old, v := f.AtTuple(x), in.At(r.X(), r.Y())
	f.Define(x).Is(halide.NewTuple(halide.Min(old.Elem(0), v), halide.Select(old.Elem(0).Le(v), old.Elem(1), r.X())))
	intm := f.Update(0).RFactor(halide.RFactorPair{R: r.X(), V: u})
	var he *halide.Error
	if err := intm.Err(); !errors.As(err, &he) || he.Code != halide.ErrNotAssociative ||
		!strings.Contains(err.Error(), "not commutative") || !strings.Contains(err.Error(), "r$y") {
		t.Fatalf("want ErrNotAssociative naming the order and r$y, got %v", err)
	}
	if err := halide.NewPipeline(f).Compile(); err == nil {
		t.Fatal("the pipeline compiled after a refused rfactor")
	}
}

// A complex product (int32, which wraps as Go does) and an unsigned
// saturating add written with a select.
func TestRFactorComplexAndSaturating(t *testing.T) {
	for _, sc := range patSchedules {
		t.Run("complex/"+sc.name, func(t *testing.T) {
			rng := rand.New(rand.NewSource(int64(len(sc.name))))
			re, im := patInput(rng, 7), patInput(rng, 7)
			inRe, inIm := halide.NewImageParam("re", halide.Int32, 2), halide.NewImageParam("im", halide.Int32, 2)
			inRe.Set(re)
			inIm.Set(im)
			x := halide.NewVar("x")
			r := halide.NewRDom("r", halide.Range(0, patW), halide.Range(0, patH))
			f := halide.NewFunc("f")
			f.Define(x).Is(halide.NewTuple(x.Add(1), int32(2)))
			old := f.AtTuple(x)
			a, b := inRe.At(r.X(), r.Y()), inIm.At(r.X(), r.Y()).Sub(x)
			f.Define(x).Is(halide.NewTuple(
				old.Elem(0).Mul(a).Sub(old.Elem(1).Mul(b)),
				b.Mul(old.Elem(0)).Add(old.Elem(1).Mul(a))))
			if err := sc.apply(f, r, x).Err(); err != nil {
				t.Fatal(err)
			}
			patLower(t, f, sc.name == "gpu")
			o0, o1 := halide.NewBuffer[int32](patNX), halide.NewBuffer[int32](patNX)
			if err := halide.NewPipeline(f).RealizeTuple(o0, o1); err != nil {
				t.Fatal(err)
			}
			for xv := 0; xv < patNX; xv++ {
				p, q := int32(xv+1), int32(2)
				for ry := 0; ry < patH; ry++ {
					for rx := 0; rx < patW; rx++ {
						av, bv := re.Get(rx, ry), im.Get(rx, ry)-int32(xv)
						p, q = p*av-q*bv, bv*p+q*av
					}
				}
				if o0.Get(xv) != p || o1.Get(xv) != q {
					t.Errorf("f(%d) = (%d, %d), want (%d, %d)", xv, o0.Get(xv), o1.Get(xv), p, q)
				}
			}
		})
		t.Run("saturating/"+sc.name, func(t *testing.T) {
			rng := rand.New(rand.NewSource(int64(7 + len(sc.name))))
			buf := halide.NewBuffer[uint8](patW, patH)
			buf.Fill(func([]int) uint8 { return uint8(1 + rng.Intn(6)) })
			in := halide.NewImageParam("in", halide.UInt8, 2)
			in.Set(buf)
			x := halide.NewVar("x")
			r := halide.NewRDom("r", halide.Range(0, patW), halide.Range(0, patH))
			f := halide.NewFunc("f")
			f.Define(x).Is(halide.Cast(halide.UInt8, x.Mul(20)))
			old, v := f.At(x), in.At(r.X(), r.Y())
			top := halide.E(uint8(255))
			f.Define(x).Is(halide.Select(old.Gt(top.Sub(v)), top, v.Add(old)))
			if err := sc.apply(f, r, x).Err(); err != nil {
				t.Fatal(err)
			}
			patLower(t, f, sc.name == "gpu")
			out := halide.NewBuffer[uint8](patNX)
			if err := halide.NewPipeline(f).Realize(out); err != nil {
				t.Fatal(err)
			}
			for xv := 0; xv < patNX; xv++ {
				acc := xv * 20
				for ry := 0; ry < patH; ry++ {
					for rx := 0; rx < patW; rx++ {
						acc = min(acc+int(buf.Get(rx, ry)), 255)
					}
				}
				if int(out.Get(xv)) != acc {
					t.Errorf("f(%d) = %d, want %d", xv, out.Get(xv), acc)
				}
			}
		})
	}
}

// A max that keeps NaN: select(f > v || is_nan(f), f, v), over rows some
// of which hold a NaN.
func TestRFactorMaxKeepingNaN(t *testing.T) {
	for _, sc := range patSchedules {
		t.Run(sc.name, func(t *testing.T) {
			rng := rand.New(rand.NewSource(int64(11 + len(sc.name))))
			buf := halide.NewBuffer[float32](patW, patH)
			buf.Fill(func([]int) float32 { return float32(rng.Intn(2000)-1000) / 8 })
			buf.Set(float32(math.NaN()), 5, 7) // f(x) reads it for x = 1 (below)
			in := halide.NewImageParam("in", halide.Float32, 2)
			in.Set(buf)
			x := halide.NewVar("x")
			r := halide.NewRDom("r", halide.Range(0, patW), halide.Range(0, patH))
			f := halide.NewFunc("f")
			f.Define(x).Is(float32(math.Inf(-1)))
			old := f.At(x)
			// Only x = 1 reads the NaN; the others read x in its place.
			val := in.At(r.X(), r.Y())
			v := halide.Select(x.Eq(1).Or(halide.Not(halide.IsNaN(val))), val, halide.Cast(halide.Float32, x))
			f.Define(x).Is(halide.Select(old.Gt(v).Or(halide.IsNaN(old)), old, v))
			if err := sc.apply(f, r, x).Err(); err != nil {
				t.Fatal(err)
			}
			patLower(t, f, sc.name == "gpu")
			out := halide.NewBuffer[float32](patNX)
			if err := halide.NewPipeline(f).Realize(out); err != nil {
				t.Fatal(err)
			}
			for xv := 0; xv < patNX; xv++ {
				acc := float32(math.Inf(-1))
				for ry := 0; ry < patH; ry++ {
					for rx := 0; rx < patW; rx++ {
						val := buf.Get(rx, ry)
						if xv != 1 && val != val {
							val = float32(xv)
						}
						if !(acc > val || acc != acc) {
							acc = val
						}
					}
				}
				got := out.Get(xv)
				if (got != got) != (acc != acc) || acc == acc && got != acc {
					t.Errorf("f(%d) = %g, want %g", xv, got, acc)
				}
			}
		})
	}
}
