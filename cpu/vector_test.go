package cpu

import (
	"errors"
	"testing"

	"github.com/gohalide/gohalide/ir"
)

// TestLoadVectorAlignment runs a vector load of 4 lanes, out[i] = in[b+i]
// for i < 4: it loads the lanes like 4 lets when b is a multiple of 4, and
// reports an Internal error (a broken promise of lowering: on a GPU the
// load would be misaligned) when it is not.
func TestLoadVectorAlignment(t *testing.T) {
	b := v32("b")
	names := []string{"l0", "l1", "l2", "l3"}
	var body ir.Stmt
	for i := range names {
		body = ir.MakeBlock(body, store("out", ir.Int(int64(i)), &ir.Var{T: ir.Float32, Name: names[i]}))
	}
	for i := len(names) - 1; i >= 0; i-- {
		body = &ir.LetStmt{Name: names[i], Value: load(ir.Float32, "in", ir.AddE(b, ir.Int(int64(i)))), Body: body}
	}
	p := mustCompile(t, &ir.LoadVector{Lanes: 4, Body: body})
	in := []float32{0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5}
	out := make([]float32, 4)
	mustRun(t, p, map[string]any{"b": int32(4)}, map[string]any{"in": in, "out": out})
	for i, v := range out {
		if v != in[4+i] {
			t.Errorf("out[%d] = %v, want %v", i, v, in[4+i])
		}
	}
	err := p.Run(map[string]any{"b": int32(2)}, map[string]any{"in": in, "out": out})
	var e *Error
	if !errors.As(err, &e) || e.Kind != Internal || e.Buffer != "in" || e.Index != 2 {
		t.Errorf("misaligned vector load: got %v, want an Internal error at in[2]", err)
	}
}
