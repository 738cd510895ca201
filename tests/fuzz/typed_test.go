package fuzz

import (
	"testing"
)

// TestTypedOps runs one program per "typed" expression (every type and
// operator, float32 and int32 operands, with a constant the 16-bit floats
// round) on the CPU and checks it against the evaluator: the reference of
// the types' arithmetic and conversions agrees with the library.
func TestTypedOps(t *testing.T) {
	for _, tn := range typedTypes {
		for _, op := range typedOps {
			for _, float := range []bool{false, true} {
				k := &PExpr{Op: "c", V: 13}
				if float {
					k = &PExpr{Op: "c", F: true, V: float64(float32(1.0 / 3))}
				}
				x := cast(float, &PExpr{Op: "*", A: []*PExpr{{Op: "v", N: "x"}, {Op: "c", V: 37}}})
				p := &Prog{
					Funcs:  []*PFunc{{Name: "f", Float: float, Dims: 1, Pure: &PExpr{Op: "typed", F: float, N: tn + ":" + op, A: []*PExpr{x, k}}}},
					OutMin: []int{-20},
				}
				if e := p.typeErr(); e != "" {
					t.Fatal(e)
				}
				r := Run(Case{Algo: "prog", Prog: p, Sizes: []int{41}, Seed: 1}, Options{Verify: true})
				if r.Class != OK {
					t.Errorf("%s (float %v): %s: %s\n%s", tn+":"+op, float, r.Class, r.Msg, p.algoSource([]int{41}))
				}
			}
		}
	}
}
