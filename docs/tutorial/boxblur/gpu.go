package boxblur

import (
	"os"

	"github.com/gohalide/gohalide/halide"
)

// GPU defines the blur with step 3's GPU schedule, which steps 5 to 7 use
// again, and returns its pipeline and its input.
func GPU(tile int) (*halide.Pipeline, *halide.ImageParam) {
	out, blur, padded, in, x, y := Algorithm()
	// One block of tile x tile threads per tile of out, one thread per
	// point.
	bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
	out.GPUTile(x, y, bx, by, tx, ty, tile, tile)
	// Each thread accumulates its blur point in a register.
	blur.ComputeAt(out, tx)
	// blur reads padded through a wrapper, computed once per block (at the
	// block loop bx) and stored in shared memory.
	padded.In(blur).ComputeAt(out, bx).StoreIn(halide.GPUShared)
	return halide.NewPipeline(out), in
}

// PrintReport prints the kernel report of p as a table: for each kernel,
// its grid and block, its allocations and its barriers.
func PrintReport(p *halide.Pipeline) error {
	r, err := p.Report()
	if err != nil {
		return err
	}
	return halide.WriteTable(os.Stdout, r)
}
