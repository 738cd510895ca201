package ir

import "testing"

// TestScalarConstsBool: a dynamic size that selects on a bool Param (a
// specialization's condition) evaluates to a constant once the Param's
// value is known (schedfuzz -seed 21 on the H100: "dynamic shared memory
// size ... does not evaluate to a constant").
func TestScalarConstsBool(t *testing.T) {
	spec := &Var{T: Bool, Name: "spec"}
	size := AddE(MulE(&Select{Cond: spec, True: Int(12), False: Int(20)}, Int(4)), Int(8))
	for _, c := range []struct {
		v    bool
		want int64
	}{{true, 56}, {false, 88}} {
		got, ok := AsInt(Simplify(Substitute(size, ScalarConsts(map[string]any{"spec": c.v}))))
		if !ok || got != c.want {
			t.Errorf("spec = %v: size %v (constant %v), want %d", c.v, got, ok, c.want)
		}
	}
}
