package fuzz

import "testing"

// TestStoreTypesDrawn checks that the program generator stores some Funcs
// in each of the other types, and that such programs run right: built
// with the library on the CPU and the emulator (as the case
// draws) and compared with the evaluator, as progfuzz does.
func TestStoreTypesDrawn(t *testing.T) {
	seen, classes := map[string]int{}, map[string]int{}
	ran := 0
	for i := 0; i < 400; i++ {
		c := MakeProgCase(5, i)
		types := map[string]bool{}
		for _, f := range c.Prog.Funcs {
			walkPExpr(f.Pure, func(e *PExpr) {
				if e.Op == "tostore" {
					types[e.N] = true
				}
			})
		}
		for ty := range types {
			seen[ty]++
		}
		if len(types) == 0 || ran >= 60 {
			continue
		}
		ran++
		r := Run(c, Options{Verify: true})
		classes[r.Class.String()]++
		if r.Class.IsDefect() {
			t.Errorf("program %d of seed 5 (gpu %v), Funcs stored in %v: %s %s: %s", i, c.GPU, types, r.Class, r.Code, r.Msg)
		}
	}
	for _, ty := range storeTypes {
		if seen[ty] == 0 {
			t.Errorf("no program stores a Func in %s (of 400)", ty)
		}
	}
	t.Logf("programs with a Func stored in each type (of 400): %v; %d of them run: %v", seen, ran, classes)
}

func walkPExpr(e *PExpr, f func(*PExpr)) {
	if e == nil {
		return
	}
	f(e)
	for _, a := range e.A {
		walkPExpr(a, f)
	}
}
