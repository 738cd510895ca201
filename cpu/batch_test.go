package cpu

import (
	"errors"
	"fmt"
	"math"
	"math/rand"
	"testing"

	"github.com/gohalide/gohalide/ir"
)

// runBoth runs s with and without batched loops on copies of the same
// buffers and returns both outputs and errors.
func runBoth(t *testing.T, s ir.Stmt, scalars map[string]any, mk func() map[string]any) (batched, plain map[string]any, errB, errP error) {
	t.Helper()
	run := func(on bool) (map[string]any, error) {
		batching = on
		defer func() { batching = true }()
		p, err := Compile(s)
		if err != nil {
			t.Fatal(err)
		}
		bufs := mk()
		return bufs, p.Run(scalars, bufs)
	}
	batched, errB = run(true)
	plain, errP = run(false)
	return
}

// TestBatchedLoopsMatchScalar compares batched innermost loops with the
// scalar closures on random data: contiguous, strided and clamped
// loads (gathered, or a run with its edges filled), int32 wrapping, float min/max, casts, loops of 0 to
// 1000 iterations (batches of 256 and their tails), a read of the stored
// buffer at the store's index, and out-of-bounds accesses (the same error
// and the same writes before it).
func TestBatchedLoopsMatchScalar(t *testing.T) {
	x := v32("x")
	n := v32("n")
	lo, hi := v32("lo"), v32("hi")
	f32 := func(buf string, i ir.Expr) ir.Expr { return load(ir.Float32, buf, i) }
	i32 := func(buf string, i ir.Expr) ir.Expr { return load(ir.Int32, buf, i) }
	clamp := func(e ir.Expr) ir.Expr { return ir.MinE(ir.MaxE(e, lo), hi) }
	cases := []struct {
		name string
		body ir.Stmt
	}{
		{"contiguous", store("outf", x, ir.AddE(f32("a", x), ir.MulE(f32("b", ir.AddE(x, ir.Int(1))), ir.Const(ir.Float32, 0.5))))},
		{"strided and invariant", store("outf", ir.MulE(x, ir.Int(2)), ir.SubE(f32("a", ir.AddE(ir.MulE(x, ir.Int(3)), n)), f32("b", n)))},
		{"clamped gather", store("outf", x, ir.AddE(ir.AddE(f32("a", clamp(ir.SubE(x, ir.Int(1)))), f32("a", clamp(x))), f32("a", ir.AddE(ir.MulE(ir.SubE(clamp(ir.AddE(x, ir.Int(1))), lo), ir.Int(1)), lo))))},
		{"accumulate into the output", store("outf", x, ir.AddE(f32("outf", x), ir.MulE(f32("a", x), f32("b", n))))},
		{"float min max div", store("outf", x, ir.MinE(ir.MaxE(f32("a", x), f32("b", x)), ir.DivE(f32("a", x), ir.AddE(f32("b", x), ir.Const(ir.Float32, 3)))))},
		{"int32 wrap", store("outi", x, ir.MulE(ir.AddE(i32("ia", x), ir.Int(2147483000)), i32("ib", x)))},
		{"int gather through an index buffer", store("outi", x, i32("ia", clamp(i32("ib", x))))},
		{"int to float", store("outf", x, &ir.Cast{T: ir.Float32, X: ir.SubE(i32("ia", x), x)})},
		{"clamped loaded index, scaled", store("outf", x, f32("a", ir.AddE(ir.MulE(clamp(i32("ib", x)), ir.Int(2)), ir.Int(3))))},
		{"min before max", store("outf", x, f32("a", ir.MaxE(ir.MinE(ir.AddE(x, ir.Int(3)), hi), lo)))},
		{"constant minus a clamp", store("outf", x, f32("b", ir.SubE(hi, clamp(ir.SubE(x, ir.Int(2))))))},
		{"invariant load times lanes", store("outf", x, ir.SubE(ir.MulE(f32("b", n), f32("a", x)), f32("a", ir.Int(1))))},
		{"clamped affine, strided and scaled", store("outf", x, f32("a", ir.AddE(ir.MulE(clamp(ir.SubE(ir.MulE(x, ir.Int(2)), ir.Int(3))), ir.Int(2)), ir.Int(1))))},
		{"narrow clamp window", store("outf", x, ir.AddE(f32("a", ir.MinE(ir.MaxE(x, ir.Int(5)), ir.Int(20))), f32("b", ir.MaxE(ir.SubE(x, ir.Int(300)), ir.Int(1)))))},
		{"decreasing clamped", store("outf", x, f32("a", clamp(ir.SubE(ir.Int(300), x))))},
		{"clamp with lo above hi", store("outf", x, f32("a", ir.MinE(ir.MaxE(x, ir.Int(20)), ir.Int(5))))},
		{"clamped out of bounds", store("outf", x, f32("a", ir.AddE(clamp(x), ir.Int(700))))},
		{"clamped below zero", store("outf", x, f32("a", ir.SubE(clamp(ir.SubE(x, ir.Int(5))), ir.Int(3))))},
		{"clamped past the end", store("outf", x, f32("a", ir.AddE(ir.MulE(clamp(ir.AddE(x, ir.Int(5))), ir.Int(4)), ir.Int(70))))},
		{"clamped edge below zero", store("outf", x, f32("a", ir.SubE(clamp(ir.SubE(ir.MulE(x, ir.Int(2)), ir.Int(5))), ir.Int(1))))},
		{"clamped edge past the end", store("outf", x, f32("a", ir.AddE(clamp(ir.MulE(x, ir.Int(2))), ir.AddE(ir.MulE(hi, ir.Int(3)), ir.Int(68)))))},
		{"clamped index wrapping", store("outf", x, f32("a", ir.AddE(ir.MulE(clamp(x), ir.Int(1<<30)), ir.Int(5))))},
		{"product first in a sum", store("outf", x, ir.AddE(ir.MulE(f32("b", n), f32("a", x)), f32("outf", x)))},
		{"sum of products", store("outf", x, ir.AddE(ir.MulE(f32("a", x), f32("b", n)), ir.MulE(ir.Const(ir.Float32, 3), f32("b", x))))},
		{"product out of bounds in a sum", store("outf", x, ir.AddE(f32("a", x), ir.MulE(f32("b", ir.AddE(x, ir.Int(1100))), f32("b", n))))},
		{"term out of bounds in a sum", store("outf", x, ir.AddE(f32("a", ir.AddE(x, ir.Int(1100))), ir.MulE(f32("b", x), f32("b", n))))},
		{"scale out of bounds in a sum", store("outf", x, ir.AddE(f32("a", x), ir.MulE(f32("b", x), f32("b", ir.AddE(n, ir.Int(2000))))))},
		{"out of bounds at the end", store("outf", ir.AddE(x, ir.Int(1)), f32("a", x))},
		{"out of bounds load", store("outf", x, f32("a", ir.AddE(x, ir.Int(5))))},
	}
	rng := rand.New(rand.NewSource(9))
	for _, c := range cases {
		for _, ext := range []int64{0, 1, 255, 256, 257, 1000} {
			t.Run(fmt.Sprintf("%s/%d", c.name, ext), func(t *testing.T) {
				size := int(ext) + 8
				if c.name == "out of bounds at the end" || c.name == "out of bounds load" {
					size = int(ext) // the last iterations are out of bounds
				}
				af, bf := make([]float32, 4*size+64), make([]float32, 4*size+64)
				for i := range af {
					af[i], bf[i] = rng.Float32()*4-2, rng.Float32()*4-2
				}
				bf[3] = float32(math.NaN())
				ia, ib := make([]int32, size+8), make([]int32, size+8)
				for i := range ia {
					ia[i], ib[i] = rng.Int31n(1<<30)-1<<29, rng.Int31n(int32(size+8))
				}
				outf0 := make([]float32, 2*size+2)
				for i := range outf0 {
					outf0[i] = rng.Float32()
				}
				mk := func() map[string]any {
					return map[string]any{"a": af, "b": bf, "ia": ia, "ib": ib,
						"outf": append([]float32(nil), outf0...), "outi": make([]int32, size+8)}
				}
				scalars := map[string]any{"n": int32(7), "lo": int32(0), "hi": int32(size - 1)}
				s := loop("x", ir.Int(0), ir.Int(ext), c.body)
				b, p, eb, ep := runBoth(t, s, scalars, mk)
				if (eb == nil) != (ep == nil) || eb != nil && eb.Error() != ep.Error() {
					t.Fatalf("errors differ: batched %v, scalar %v", eb, ep)
				}
				var e *Error
				if eb != nil && !errors.As(eb, &e) {
					t.Fatalf("error %v is not an *Error", eb)
				}
				for _, name := range []string{"outf", "outi"} {
					switch bv := b[name].(type) {
					case []float32:
						pv := p[name].([]float32)
						for i := range bv {
							if math.Float32bits(bv[i]) != math.Float32bits(pv[i]) {
								t.Fatalf("%s[%d] = %v batched, %v scalar", name, i, bv[i], pv[i])
							}
						}
					case []int32:
						pv := p[name].([]int32)
						for i := range bv {
							if bv[i] != pv[i] {
								t.Fatalf("%s[%d] = %v batched, %v scalar", name, i, bv[i], pv[i])
							}
						}
					}
				}
			})
		}
	}
}

// TestBatchedLoopsUsed checks that the loops above are batched (the
// comparison would pass trivially otherwise), and that a loop reading the
// stored buffer elsewhere than the store's index is not.
func TestBatchedLoopsUsed(t *testing.T) {
	x := v32("x")
	for _, c := range []struct {
		body ir.Stmt
		want bool
	}{
		{store("o", x, ir.AddE(load(ir.Float32, "a", x), load(ir.Float32, "o", x))), true},
		{store("o", x, ir.AddE(load(ir.Float32, "a", x), load(ir.Float32, "o", ir.SubE(x, ir.Int(1))))), false},
		{store("o", ir.Int(0), ir.AddE(load(ir.Float32, "a", x), load(ir.Float32, "o", ir.Int(0)))), true}, // stride 0: batched form, each batch falls back
		{&ir.Store{Buf: "o", Index: x, Value: load(ir.Float32, "a", x), Atomic: true}, false},
		{store("o", x, &ir.Select{Cond: ir.LTE(x, ir.Int(3)), True: load(ir.Float32, "a", x), False: ir.Const(ir.Float32, 0)}), false},
	} {
		c0 := &compiler{vars: map[string]*binding{}, bufs: map[string]*bufInfo{}, params: map[string]*paramSlot{}, extBufs: map[string]*bufInfo{}}
		b, _ := c0.bind("x", ir.Int32)
		c0.stmt(c.body)
		got := c0.batchLoop(&ir.For{Name: "x", Min: ir.Int(0), Extent: ir.Int(10), Body: c.body}, b.slot) != nil
		if got != c.want {
			t.Errorf("%s: batched %v, want %v", ir.StmtString(c.body), got, c.want)
		}
	}
}
