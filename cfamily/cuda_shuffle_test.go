package cfamily

import (
	"strings"
	"testing"

	"github.com/gohalide/gohalide/ir"
)

// A warp shuffle prints as __shfl_down_sync with the full mask; the
// intrinsic has no form for narrower integers or bools, which go through
// int.
func TestShuffleDown(t *testing.T) {
	for _, c := range []struct {
		t    ir.Type
		want string
	}{
		{ir.Float32, "__shfl_down_sync(0xffffffffu, v, 4)"},
		{ir.Float64, "__shfl_down_sync(0xffffffffu, v, 4)"},
		{ir.Int64, "__shfl_down_sync(0xffffffffu, v, 4)"},
		{ir.UInt8, "(unsigned char)__shfl_down_sync(0xffffffffu, (int)(v), 4)"},
		{ir.Bool, "(bool)__shfl_down_sync(0xffffffffu, (int)(v), 4)"},
	} {
		k := &ir.Kernel{
			Name:  "k",
			Grid:  [3]ir.Expr{ir.Int(1), ir.Int(1), ir.Int(1)},
			Block: [3]ir.Expr{ir.Int(32), ir.Int(1), ir.Int(1)},
			Args:  []ir.KernelArg{{Name: "out", T: c.t, IsBuffer: true, Written: true}, {Name: "v", T: c.t}},
			Body: &ir.LetStmt{Name: "s", Value: ir.ShuffleDown(&ir.Var{T: c.t, Name: "v"}, 4),
				Body: &ir.Store{Buf: "out", Index: ir.NewVar(ir.ThreadID[0]), Value: &ir.Var{T: c.t, Name: "s"}}},
		}
		src, err := CUDASource(k)
		if err != nil {
			t.Fatalf("%v: %v", c.t, err)
		}
		if !strings.Contains(src, c.want) {
			t.Errorf("%v: no %q in\n%s", c.t, c.want, src)
		}
	}
}
