package types_test

import (
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// TestReportTypes: the kernel report names each type and sizes its
// allocations by its bytes (a Bool one byte, a 16-bit float two), in
// shared memory and in registers.
func TestReportTypes(t *testing.T) {
	for _, ty := range allTypes {
		t.Run(ty.String(), func(t *testing.T) {
			x := halide.NewVar("x")
			bx, tx := halide.NewVar("bx"), halide.NewVar("tx")
			a := halide.NewImageParam("a", ty, 1)
			g, h := halide.NewFunc("g"), halide.NewFunc("h")
			g.Define(x).Is(a.At(x))
			h.Define(x).Is(a.At(x))
			f := halide.NewFunc("f")
			f.Define(x).Is(halide.Select(g.At(x).Eq(g.At(halide.E(x).Add(1))), h.At(x), h.At(halide.E(x).Add(2))))
			f.GPUTile1D(x, bx, tx, 32, halide.GuardWithIf)
			g.ComputeAt(f, bx).StoreIn(halide.GPUShared).GPUThreads(x)
			h.ComputeAt(f, tx)
			r, err := halide.NewPipeline(f).Report()
			if err != nil {
				t.Fatal(err)
			}
			if len(r) != 1 || len(r[0].Shared) != 1 || len(r[0].Registers) != 1 {
				t.Fatalf("want one kernel with one shared and one register allocation: %+v", r)
			}
			for _, al := range []halide.AllocReport{r[0].Shared[0], r[0].Registers[0]} {
				if al.Type != ty.String() || al.Bytes != al.Elements*int64(ty.Bytes()) {
					t.Errorf("%s: type %s, %d elements, %d bytes; want %s, %d bytes each", al.Func, al.Type, al.Elements, al.Bytes, ty, ty.Bytes())
				}
			}
			if s := r[0].Shared[0]; s.Elements != 33 {
				t.Errorf("shared g has %d elements, want 33 (32 threads and one more)", s.Elements)
			}
		})
	}
}
