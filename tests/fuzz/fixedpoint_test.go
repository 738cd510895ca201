package fuzz

import (
	"testing"
)

// TestFixedPointDrawn runs one program per "fx" expression (every
// operation and type, with a variable operand sweeping the type's range
// and a constant or variable second one) and per Trunc and Fract on the
// CPU and on the GPU emulator and checks it against the evaluator: the
// evaluator's reading of Halide's definitions agrees with the library.
func TestFixedPointDrawn(t *testing.T) {
	// x * 1237 - 20000 over x in [-20, 21) covers both signs of every
	// type and, wrapped, values near the ends of the narrow ones.
	x := &PExpr{Op: "-", A: []*PExpr{{Op: "*", A: []*PExpr{{Op: "v", N: "x"}, {Op: "c", V: 1237}}}, {Op: "c", V: 20000}}}
	// 1 - 3x: never 0 (a signed division by 0 is undefined in Halide).
	y := &PExpr{Op: "+", A: []*PExpr{{Op: "*", A: []*PExpr{{Op: "v", N: "x"}, {Op: "c", V: -3}}}, {Op: "c", V: 1}}}
	var exprs []*PExpr
	for _, op := range fxOps {
		for _, tn := range fxTypes {
			for _, b := range []*PExpr{{Op: "c", V: 7}, {Op: "c", V: -3}, y} {
				e := &PExpr{Op: "fx", N: op + ":" + tn, A: []*PExpr{x, b}}
				if op == "mulshr" {
					e.V = 7
				}
				exprs = append(exprs, e)
			}
		}
	}
	xf := &PExpr{Op: "*", F: true, A: []*PExpr{cast(true, &PExpr{Op: "v", N: "x"}), {Op: "c", F: true, V: 0.75}}}
	exprs = append(exprs, &PExpr{Op: "trunc", F: true, A: []*PExpr{xf}}, &PExpr{Op: "fract", F: true, A: []*PExpr{xf}})
	for _, e := range exprs {
		for _, target := range []string{"cpu", "gpu"} {
			p := &Prog{Funcs: []*PFunc{{Name: "f", Float: e.F, Dims: 1, Pure: e}}, OutMin: []int{-20}}
			if msg := p.typeErr(); msg != "" {
				t.Fatal(msg)
			}
			c := Case{Algo: "prog", Prog: p, Sizes: []int{41}, Seed: 1}
			if target == "gpu" {
				c.Sched = []Directive{{Op: OpGPUTile1D, Func: "f", Vars: []string{"x", "xb", "xt"}, Ints: []int{8}, Tail: NoTail}}
			}
			r := Run(c, Options{Verify: true})
			if r.Class != OK {
				t.Errorf("%s %s (V %v) on %s: %s: %s\n%s", e.Op, e.N, e.V, target, r.Class, r.Msg, p.algoSource([]int{41}))
			}
		}
	}
}
