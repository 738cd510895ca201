package cfamily

import (
	"strings"
	"testing"

	"github.com/gohalide/gohalide/ir"
)

// TestCUDAPrefetch prints the three shapes of a flat prefetch: a dense
// row (one prefetch.global.L2 per 128-byte line, from the line of its
// first element to that of its last), a row of a constant stride other
// than 1 (one per element), a row whose stride is known only at launch
// (both, chosen by it), and a box of one element; and a prefetch of a
// buffer the kernel does not have, which is left out with a comment. The
// kernel compiles with nvcc when it is installed.
func TestCUDAPrefetch(t *testing.T) {
	v := ir.NewVar
	k := &ir.Kernel{
		Name:  "k",
		Grid:  [3]ir.Expr{ir.Int(1), ir.Int(1), ir.Int(1)},
		Block: [3]ir.Expr{ir.Int(32), ir.Int(1), ir.Int(1)},
		Args: []ir.KernelArg{
			{Name: "in", T: ir.Float32, IsBuffer: true},
			{Name: "out", T: ir.Float32, IsBuffer: true, Written: true},
			{Name: "in.stride.0", T: ir.Int32},
			{Name: "n", T: ir.Int32},
		},
		Body: &ir.Block{Stmts: []ir.Stmt{
			ir.PrefetchFlat("in", ir.Float32, v(ir.ThreadID[0]), []ir.Expr{v("n"), ir.Int(3)}, []ir.Expr{ir.Int(1), ir.Int(1024)}),
			ir.PrefetchFlat("in", ir.Float32, ir.Int(0), []ir.Expr{ir.Int(8)}, []ir.Expr{ir.Int(64)}),
			ir.PrefetchFlat("in", ir.Float32, ir.Int(0), []ir.Expr{v("n")}, []ir.Expr{v("in.stride.0")}),
			ir.PrefetchFlat("in", ir.Float32, ir.Int(5), []ir.Expr{ir.Int(1)}, []ir.Expr{v("in.stride.0")}),
			ir.PrefetchFlat("elsewhere", ir.Float32, ir.Int(0), []ir.Expr{ir.Int(4)}, []ir.Expr{ir.Int(1)}),
			&ir.Store{Buf: "out", Index: v(ir.ThreadID[0]), Value: &ir.Load{T: ir.Float32, Buf: "in", Index: v(ir.ThreadID[0])}},
		}},
	}
	src, err := CUDASource(k)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"for (int in_prefetch_i1 = 0; in_prefetch_i1 < 3; in_prefetch_i1++) {",
		"const int in_prefetch_row1 = in_prefetch_index + in_prefetch_i1 * 1024;",
		"& ~127ull;",
		"in_prefetch_line += 128) {",
		"(const void *)(in + in_prefetch_index + in_prefetch_i0 * 64);",
		"if (in_stride_0 == 1 && n > 0) {",
		"(const void *)(in + in_prefetch_index);",
		`asm volatile("prefetch.global.L2 [%0];" :: "l"(`,
		"// prefetch of elsewhere left out",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("the CUDA source has no %q:\n%s", want, src)
		}
	}
	if _, ok := NVCCPath(); !ok {
		t.Skip("nvcc not found")
	}
	if _, err := CheckWithNVCC(src); err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
}
