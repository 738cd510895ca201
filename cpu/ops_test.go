package cpu

import (
	"fmt"
	"math"
	"math/big"
	"math/rand"
	"testing"

	"github.com/gohalide/gohalide/ir"
)

var (
	abs       = math.Abs
	sqrt      = math.Sqrt
	exp       = math.Exp
	log       = math.Log
	pow       = math.Pow
	floor     = math.Floor
	ceil      = math.Ceil
	roundEven = math.RoundToEven
)

var allOps = []ir.BinOp{ir.Add, ir.Sub, ir.Mul, ir.Div, ir.Mod, ir.Min, ir.Max, ir.EQ, ir.NE, ir.LT, ir.LE, ir.GT, ir.GE}

// toBig interprets the carried int64 value v of integer type t exactly.
func toBig(t ir.Type, v int64) *big.Int {
	if t.IsUInt() {
		return new(big.Int).SetUint64(uint64(v))
	}
	return big.NewInt(v)
}

// fromBig reduces an exact integer modulo 2^bits into the carried
// representation of t.
func fromBig(t ir.Type, x *big.Int) int64 {
	if t.IsBool() {
		return b2i(x.Sign() != 0)
	}
	m := new(big.Int).Lsh(big.NewInt(1), uint(t.Bits))
	r := new(big.Int).Mod(x, m) // in [0, 2^bits)
	if t.IsInt() {
		half := new(big.Int).Rsh(m, 1)
		if r.Cmp(half) >= 0 {
			r.Sub(r, m)
		}
		return r.Int64()
	}
	return int64(r.Uint64())
}

// refInt is the reference semantics of integer op on exact integers.
func refInt(t ir.Type, op ir.BinOp, av, bv int64) int64 {
	a, b := toBig(t, av), toBig(t, bv)
	cmp := a.Cmp(b)
	switch op {
	case ir.Add:
		return fromBig(t, new(big.Int).Add(a, b))
	case ir.Sub:
		return fromBig(t, new(big.Int).Sub(a, b))
	case ir.Mul:
		return fromBig(t, new(big.Int).Mul(a, b))
	case ir.Div, ir.Mod:
		if b.Sign() == 0 {
			return 0
		}
		// Halide's division is Euclidean (the remainder is in
		// [0, |b|)), which is what big.Int's DivMod computes.
		q, m := new(big.Int).DivMod(a, b, new(big.Int))
		if op == ir.Div {
			return fromBig(t, q)
		}
		return fromBig(t, m)
	case ir.Min:
		if cmp <= 0 {
			return av
		}
		return bv
	case ir.Max:
		if cmp >= 0 {
			return av
		}
		return bv
	case ir.EQ:
		return b2i(cmp == 0)
	case ir.NE:
		return b2i(cmp != 0)
	case ir.LT:
		return b2i(cmp < 0)
	case ir.LE:
		return b2i(cmp <= 0)
	case ir.GT:
		return b2i(cmp > 0)
	case ir.GE:
		return b2i(cmp >= 0)
	}
	panic("bad op")
}

// randInts returns n values of type t (carried representation), starting
// with edge cases.
func randInts(t ir.Type, n int, rng *rand.Rand) []int64 {
	vs := []int64{0, 1, -1, 2, -2, 3, 7, -7, t.Min(), t.Max(), t.Min() + 1, t.Max() - 1}
	for len(vs) < n {
		var v int64
		switch rng.Intn(3) {
		case 0:
			v = rng.Int63n(21) - 10
		case 1:
			v = rng.Int63n(2001) - 1000
		default:
			v = int64(rng.Uint64())
		}
		vs = append(vs, v)
	}
	for i := range vs {
		vs[i] = t.Wrap(vs[i])
	}
	return vs
}

// makeSlice builds a Go slice of the element type of t from carried values.
func makeSlice(t ir.Type, vs []int64, fs []float64) any {
	n := max(len(vs), len(fs))
	switch t {
	case ir.Bool:
		return conv(vs, func(v int64) bool { return v != 0 })
	case ir.Int8:
		return conv(vs, func(v int64) int8 { return int8(v) })
	case ir.Int16:
		return conv(vs, func(v int64) int16 { return int16(v) })
	case ir.Int32:
		return conv(vs, func(v int64) int32 { return int32(v) })
	case ir.Int64:
		return conv(vs, func(v int64) int64 { return v })
	case ir.UInt8:
		return conv(vs, func(v int64) uint8 { return uint8(v) })
	case ir.UInt16:
		return conv(vs, func(v int64) uint16 { return uint16(v) })
	case ir.UInt32:
		return conv(vs, func(v int64) uint32 { return uint32(v) })
	case ir.UInt64:
		return conv(vs, func(v int64) uint64 { return uint64(v) })
	case ir.Float32:
		if fs == nil {
			return make([]float32, n)
		}
		return conv(fs, func(v float64) float32 { return float32(v) })
	case ir.Float64:
		if fs == nil {
			return make([]float64, n)
		}
		return conv(fs, func(v float64) float64 { return v })
	}
	panic("bad type")
}

func conv[S, T any](vs []S, f func(S) T) []T {
	out := make([]T, len(vs))
	for i, v := range vs {
		out[i] = f(v)
	}
	return out
}

// carried reads element i of a slice as a carried int64 or float64.
func carried(s any, i int) (int64, float64) {
	switch s := s.(type) {
	case []bool:
		return b2i(s[i]), 0
	case []int8:
		return int64(s[i]), 0
	case []int16:
		return int64(s[i]), 0
	case []int32:
		return int64(s[i]), 0
	case []int64:
		return s[i], 0
	case []uint8:
		return int64(s[i]), 0
	case []uint16:
		return int64(s[i]), 0
	case []uint32:
		return int64(s[i]), 0
	case []uint64:
		return int64(s[i]), 0
	case []float32:
		return 0, float64(s[i])
	case []float64:
		return 0, s[i]
	}
	panic(fmt.Sprintf("bad slice %T", s))
}

func outSlice(t ir.Type, n int) any {
	if t.IsFloat() {
		return makeSlice(t, nil, make([]float64, n))
	}
	return makeSlice(t, make([]int64, n), nil)
}

// binaryProgram computes out[i] = a[i] op b[i] for i in [0, n). When bConst
// is set, b is the constant instead (exercising the constant forms).
func binaryProgram(t testing.TB, typ ir.Type, op ir.BinOp, bConst ir.Expr) *Program {
	i := v32("i")
	rt := typ
	if op.IsComparison() {
		rt = ir.Bool
	}
	b := bConst
	if b == nil {
		b = load(typ, "b", i)
	}
	e := ir.Bin(op, load(typ, "a", i), b)
	if e.Type() != rt {
		t.Fatalf("type of %s is %v", ir.ExprString(e), e.Type())
	}
	return mustCompile(t, loop("i", ir.Int(0), v32("n"), store("out", i, e)))
}

func TestIntBinaryOps(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	types := []ir.Type{ir.Int8, ir.Int16, ir.Int32, ir.Int64, ir.UInt8, ir.UInt16, ir.UInt32, ir.UInt64, ir.Bool}
	const n = 400
	for _, typ := range types {
		as, bs := randInts(typ, n, rng), randInts(typ, n, rng)
		rng.Shuffle(n, func(i, j int) { bs[i], bs[j] = bs[j], bs[i] })
		for _, op := range allOps {
			rt := typ
			if op.IsComparison() {
				rt = ir.Bool
			}
			// All pairs from the buffers, then each edge constant as b.
			p := binaryProgram(t, typ, op, nil)
			out := outSlice(rt, n)
			mustRun(t, p, map[string]any{"n": n}, map[string]any{"a": makeSlice(typ, as, nil), "b": makeSlice(typ, bs, nil), "out": out})
			for k := 0; k < n; k++ {
				got, _ := carried(out, k)
				if want := refInt(typ, op, as[k], bs[k]); got != want {
					t.Fatalf("%v: %d %v %d = %d, want %d", typ, as[k], op, bs[k], got, want)
				}
			}
			for _, c := range bs[:12] {
				p := binaryProgram(t, typ, op, &ir.IntImm{T: typ, V: c})
				out := outSlice(rt, n)
				mustRun(t, p, map[string]any{"n": n}, map[string]any{"a": makeSlice(typ, as, nil), "out": out})
				for k := 0; k < n; k++ {
					got, _ := carried(out, k)
					if want := refInt(typ, op, as[k], c); got != want {
						t.Fatalf("%v: %d %v const %d = %d, want %d", typ, as[k], op, c, got, want)
					}
				}
			}
		}
	}
}

// TestIntVarForms exercises the variable-operand closures: out[i] = i op c and
// out[i] = i op j for loop variables.
func TestIntVarForms(t *testing.T) {
	i, j := v32("i"), v32("j")
	for _, op := range allOps {
		for _, c := range []int64{-3, 0, 1, 4} {
			fi := ir.MulE(i, ir.Int(1)) // a non-variable operand equal to i
			forms := []struct {
				e       ir.Expr
				swapped bool // c op i rather than i op c
			}{
				{ir.Bin(op, i, ir.Int(c)), false},
				{ir.Bin(op, ir.Int(c), i), true},
				{ir.Bin(op, i, j), false},
				{ir.Bin(op, j, i), true},
				{ir.Bin(op, fi, j), false},
				{ir.Bin(op, j, fi), true},
				{ir.Bin(op, fi, ir.Int(c)), false},
				{ir.Bin(op, ir.Int(c), fi), true},
			}
			for _, form := range forms {
				e := form.e
				s := loop("i", ir.Int(-6), ir.Int(12), loop("j", ir.Int(c), ir.Int(1),
					store("out", ir.AddE(i, ir.Int(6)), &ir.Cast{T: ir.Int32, X: e})))
				out := make([]int32, 12)
				mustRun(t, mustCompile(t, s), nil, map[string]any{"out": out})
				for k := range out {
					iv := int64(k - 6)
					want := refInt(ir.Int32, op, iv, c)
					if form.swapped {
						want = refInt(ir.Int32, op, c, iv)
					}
					if int64(out[k]) != want {
						t.Fatalf("%s at i=%d: got %d, want %d", ir.ExprString(e), iv, out[k], want)
					}
				}
			}
		}
	}
}

func refFloat(t ir.Type, op ir.BinOp, a, b float64) (float64, int64) {
	r := func(v float64) float64 {
		if t.Bits == 32 {
			return float64(float32(v))
		}
		return v
	}
	if t.Bits == 32 {
		x, y := float32(a), float32(b)
		switch op {
		case ir.Add:
			return float64(x + y), 0
		case ir.Sub:
			return float64(x - y), 0
		case ir.Mul:
			return float64(x * y), 0
		case ir.Div:
			return float64(x / y), 0
		}
	} else {
		switch op {
		case ir.Add:
			return a + b, 0
		case ir.Sub:
			return a - b, 0
		case ir.Mul:
			return a * b, 0
		case ir.Div:
			return a / b, 0
		}
	}
	switch op {
	case ir.Mod:
		return r(a - b*math.Floor(a/b)), 0
	case ir.Min:
		return math.Min(a, b), 0
	case ir.Max:
		return math.Max(a, b), 0
	case ir.EQ:
		return 0, b2i(a == b)
	case ir.NE:
		return 0, b2i(a != b)
	case ir.LT:
		return 0, b2i(a < b)
	case ir.LE:
		return 0, b2i(a <= b)
	case ir.GT:
		return 0, b2i(a > b)
	case ir.GE:
		return 0, b2i(a >= b)
	}
	panic("bad op")
}

func randFloats(t ir.Type, n int, rng *rand.Rand) []float64 {
	vs := []float64{0, 1, -1, 0.5, -2.5, 3, 1e30, -1e-30, math.Inf(1), math.Inf(-1)}
	for len(vs) < n {
		var v float64
		switch rng.Intn(3) {
		case 0:
			v = float64(rng.Intn(11) - 5)
		case 1:
			v = rng.NormFloat64() * 100
		default:
			v = math.Ldexp(rng.Float64()-0.5, rng.Intn(80)-40)
		}
		vs = append(vs, v)
	}
	if t.Bits == 32 {
		for i := range vs {
			vs[i] = float64(float32(vs[i]))
		}
	}
	return vs
}

func sameFloat(a, b float64) bool { return a == b || (a != a && b != b) }

func TestFloatBinaryOps(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	const n = 400
	for _, typ := range []ir.Type{ir.Float32, ir.Float64} {
		as, bs := randFloats(typ, n, rng), randFloats(typ, n, rng)
		rng.Shuffle(n, func(i, j int) { bs[i], bs[j] = bs[j], bs[i] })
		for _, op := range allOps {
			rt := typ
			if op.IsComparison() {
				rt = ir.Bool
			}
			check := func(out any, k int, b float64, what string) {
				gi, gf := carried(out, k)
				wf, wi := refFloat(typ, op, as[k], b)
				if gi != wi || !sameFloat(gf, wf) {
					t.Fatalf("%v: %v %v %v%s = %v/%v, want %v/%v", typ, as[k], op, b, what, gi, gf, wi, wf)
				}
			}
			p := binaryProgram(t, typ, op, nil)
			out := outSlice(rt, n)
			mustRun(t, p, map[string]any{"n": n}, map[string]any{"a": makeSlice(typ, nil, as), "b": makeSlice(typ, nil, bs), "out": out})
			for k := 0; k < n; k++ {
				check(out, k, bs[k], "")
			}
			// b a scalar parameter, on either side.
			pv := &ir.Var{T: typ, Name: "p"}
			av := load(typ, "a", v32("i"))
			for _, swap := range []bool{false, true} {
				e := ir.Bin(op, av, pv)
				if swap {
					e = ir.Bin(op, pv, av)
				}
				p := mustCompile(t, loop("i", ir.Int(0), v32("n"), store("out", v32("i"), e)))
				for _, c := range bs[:4] {
					out := outSlice(rt, n)
					mustRun(t, p, map[string]any{"n": n, "p": c}, map[string]any{"a": makeSlice(typ, nil, as), "out": out})
					for k := 0; k < n; k++ {
						gi, gf := carried(out, k)
						wf, wi := refFloat(typ, op, as[k], c)
						if swap {
							wf, wi = refFloat(typ, op, c, as[k])
						}
						if gi != wi || !sameFloat(gf, wf) {
							t.Fatalf("%v: %s with a=%v p=%v = %v/%v, want %v/%v", typ, ir.ExprString(e), as[k], c, gi, gf, wi, wf)
						}
					}
				}
			}
			for _, c := range bs[:10] {
				p := binaryProgram(t, typ, op, ir.Const(typ, c))
				out := outSlice(rt, n)
				mustRun(t, p, map[string]any{"n": n}, map[string]any{"a": makeSlice(typ, nil, as), "out": out})
				for k := 0; k < n; k++ {
					check(out, k, c, " (const)")
				}
			}
		}
	}
}

// refCast is the reference semantics of Cast from carried values.
func refCast(from, to ir.Type, iv int64, fv float64) (int64, float64) {
	if from.IsFloat() {
		switch {
		case to.IsFloat():
			if to.Bits == 32 {
				return 0, float64(float32(fv))
			}
			return 0, fv
		case to.IsBool():
			return b2i(fv != 0), 0
		case math.IsNaN(fv):
			return 0, 0
		}
		// Truncate, then saturate at the ends of the type.
		tr := new(big.Float).SetFloat64(math.Trunc(fv))
		bi, _ := tr.Int(nil)
		lo, hi := big.NewInt(to.Min()), big.NewInt(to.Max())
		if to == ir.UInt64 {
			hi = new(big.Int).SetUint64(math.MaxUint64)
		}
		if bi.Cmp(lo) < 0 {
			bi = lo
		}
		if bi.Cmp(hi) > 0 {
			bi = hi
		}
		return fromBig(to, bi), 0
	}
	x := toBig(from, iv)
	switch {
	case to.IsFloat():
		f, _ := new(big.Float).SetInt(x).Float64()
		if to.Bits == 32 {
			f32, _ := new(big.Float).SetInt(x).Float32()
			f = float64(f32)
		}
		return 0, f
	case to.IsBool():
		return b2i(x.Sign() != 0), 0
	}
	return fromBig(to, x), 0
}

func TestCasts(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	types := []ir.Type{ir.Bool, ir.Int8, ir.Int16, ir.Int32, ir.Int64, ir.UInt8, ir.UInt16, ir.UInt32, ir.UInt64, ir.Float32, ir.Float64}
	const n = 200
	i := v32("i")
	for _, from := range types {
		var in any
		var ivs []int64
		var fvs []float64
		if from.IsFloat() {
			fvs = randFloats(from, n, rng)[:n]
			fvs = append(fvs[:0:0], fvs...)
			// In-range values, and a few that wrap without saturating.
			for k := range fvs {
				if math.IsInf(fvs[k], 0) || math.Abs(fvs[k]) > 1e15 {
					fvs[k] = -1.5
				}
			}
			fvs[0], fvs[1], fvs[2], fvs[3] = 300.7, -300.7, math.NaN(), 4e9+0.5
			if from.Bits == 32 {
				for k := range fvs {
					fvs[k] = float64(float32(fvs[k]))
				}
			}
			in = makeSlice(from, nil, fvs)
		} else {
			ivs = randInts(from, n, rng)
			in = makeSlice(from, ivs, nil)
		}
		for _, to := range types {
			p := mustCompile(t, loop("i", ir.Int(0), ir.Int(n), store("out", i, &ir.Cast{T: to, X: load(from, "in", i)})))
			out := outSlice(to, n)
			mustRun(t, p, nil, map[string]any{"in": in, "out": out})
			for k := 0; k < n; k++ {
				var iv int64
				var fv float64
				if from.IsFloat() {
					fv = fvs[k]
				} else {
					iv = ivs[k]
				}
				wi, wf := refCast(from, to, iv, fv)
				gi, gf := carried(out, k)
				if gi != wi || !sameFloat(gf, wf) {
					t.Fatalf("cast %v -> %v of %v/%v = %v/%v, want %v/%v", from, to, iv, fv, gi, gf, wi, wf)
				}
			}
		}
	}
}

// TestConstantFolding checks that constant subexpressions, which are folded
// at compile time, agree with the run-time forms.
func TestConstantFolding(t *testing.T) {
	for _, typ := range []ir.Type{ir.Int8, ir.UInt8, ir.Int32, ir.UInt32, ir.Int64, ir.UInt64} {
		for _, op := range allOps {
			for _, a := range []int64{-7, 5, typ.Min(), typ.Max()} {
				for _, b := range []int64{3, -2, 0} {
					av, bv := typ.Wrap(a), typ.Wrap(b)
					e := &ir.Cast{T: ir.Int64, X: ir.Bin(op, &ir.IntImm{T: typ, V: av}, &ir.IntImm{T: typ, V: bv})}
					out := make([]int64, 1)
					mustRun(t, mustCompile(t, store("out", ir.Int(0), e)), nil, map[string]any{"out": out})
					rt := typ
					if op.IsComparison() {
						rt = ir.Bool
					}
					want, _ := refCast(rt, ir.Int64, refInt(typ, op, av, bv), 0)
					if out[0] != want {
						t.Fatalf("%s = %d, want %d", ir.ExprString(e), out[0], want)
					}
				}
			}
		}
	}
}
