package halide_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/gohalide/gohalide/halide"
)

// The GPU examples print the loop nest a GPU directive makes (block and
// thread loops are marked), the kernel report of a pipeline, or the lines
// of a lowered kernel that show its memory and barriers.

func ExampleStage_GPUBlocks() {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	xo, xi := halide.NewVar("xo"), halide.NewVar("xi")
	in := halide.NewImageParam("in", halide.Float32, 2)
	f := halide.NewFunc("f")
	f.Define(x, y).Is(in.At(x, y).Mul(2))
	// Rows are blocks of the grid (y is block y, x.xo block x); the 32
	// columns of each block are its threads.
	f.Split(x, xo, xi, 32).GPUBlocks(xo, y).GPUThreads(xi)
	s, err := halide.NewPipeline(f).LoopNest()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(s)
	// Output:
	// produce f:
	//   gpu_block y:
	//     gpu_block x.xo:
	//       gpu_thread x.xi in [0, 31]:
	//         f(...) = ...
}

func ExampleStage_GPUThreads() {
	x := halide.NewVar("x")
	bx, tx := halide.NewVar("bx"), halide.NewVar("tx")
	ro, ri := halide.NewRVar("ro"), halide.NewRVar("ri")
	idx := halide.NewImageParam("idx", halide.Int32, 1)
	r := halide.NewRDom("r", halide.Range(0, idx.Dim(0).Extent()))
	hist := halide.NewFunc("hist")
	hist.Define(x).Is(0)
	hist.Define(halide.Clamped(idx.At(r), 0, 15)).PlusEq(1)
	// The 16 bins are the threads of one block; the update runs r on
	// blocks of 64 threads, with atomic stores since bins collide.
	hist.Split(x, bx, tx, 16).GPUBlocks(bx).GPUThreads(tx)
	hist.Update(0).Atomic().Split(r.X(), ro, ri, 64).GPUBlocks(ro).GPUThreads(ri)
	s, err := halide.NewPipeline(hist).LoopNest()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(s)
	// Output:
	// produce hist:
	//   gpu_block x.bx:
	//     gpu_thread x.tx in [0, 15]:
	//       hist(...) = ...
	//   gpu_block r$x.ro:
	//     gpu_thread r$x.ri in [0, 63]:
	//       hist(...) = ...
}

func ExampleFunc_GPUTile() {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
	in := halide.NewImageParam("in", halide.Float32, 2)
	f := halide.NewFunc("f")
	f.Define(x, y).Is(in.At(x, y).Add(in.At(x.Add(1), y)))
	// 16 x 8 tiles: one block per tile, one thread per point.
	f.GPUTile(x, y, bx, by, tx, ty, 16, 8)
	s, err := halide.NewPipeline(f).LoopNest()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(s)
	// Output:
	// produce f:
	//   gpu_block y.by:
	//     gpu_block x.bx:
	//       gpu_thread y.ty in [0, 7]:
	//         gpu_thread x.tx in [0, 15]:
	//           f(...) = ...
}

func ExampleFunc_GPUTile1D() {
	x := halide.NewVar("x")
	bx, tx := halide.NewVar("bx"), halide.NewVar("tx")
	in := halide.NewImageParam("in", halide.Float32, 1)
	f := halide.NewFunc("f")
	f.Define(x).Is(in.At(x).Mul(in.At(x)))
	// Blocks of 256 threads; GuardWithIf handles a partial last block.
	f.GPUTile1D(x, bx, tx, 256, halide.GuardWithIf)
	s, err := halide.NewPipeline(f).LoopNest()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(s)
	// Output:
	// produce f:
	//   gpu_block x.bx:
	//     gpu_thread x.tx in [0, 255]:
	//       f(...) = ...
}

// blur3x3 is a 3x3 box sum of a RepeatEdge input, tiled 8x8 on the GPU; the
// input is read through a wrapper staged in shared memory once per block.
func blur3x3() (*halide.Func, *halide.ImageParam) {
	x, y := halide.NewVar("x"), halide.NewVar("y")
	bx, by, tx, ty := halide.NewVar("bx"), halide.NewVar("by"), halide.NewVar("tx"), halide.NewVar("ty")
	in := halide.NewImageParam("in", halide.Float32, 2)
	padded := halide.RepeatEdge(in)
	f := halide.NewFunc("blur")
	var sum halide.Expr
	for j := -1; j <= 1; j++ {
		for i := -1; i <= 1; i++ {
			t := padded.At(x.Add(i), y.Add(j))
			if i == -1 && j == -1 {
				sum = t
			} else {
				sum = sum.Add(t)
			}
		}
	}
	f.Define(x, y).Is(sum)
	f.GPUTile(x, y, bx, by, tx, ty, 8, 8)
	// The block's 8x8 threads read a 10x10 tile of the input (a halo of 1).
	padded.In(f).ComputeAt(f, bx).StoreIn(halide.GPUShared)
	return f, in
}

// The kernel report of the blur: one kernel, its grid in terms of the
// output's size (and its value in the last Realize), 8x8 threads, the
// wrapper's 10x10 floats in shared memory (one copy for all the threads of
// the block, across x and y, at byte 0 of the kernel's 400-byte shared
// pool) and one barrier between writing them and reading them.
func ExamplePipeline_Report() {
	f, in := blur3x3()
	p := halide.NewPipeline(f)
	// A 20x12 output is 3x2 tiles of 8x8 (the last ones shifted inwards).
	ib := halide.NewBuffer[float32](20, 12)
	ib.Fill(func(c []int) float32 { return float32(c[0] + c[1]) })
	in.Set(ib)
	if err := p.Realize(halide.NewBuffer[float32](20, 12)); err != nil {
		fmt.Println(err)
		return
	}
	r, err := p.Report()
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := halide.WriteTable(os.Stdout, r); err != nil {
		fmt.Println(err)
	}
	// Output:
	// kernel          grid                                                                                     block  memory  func                    type     elements  bytes  offset  shared across  bank conflicts  barriers  shared total
	// kernel_blur_s0  (((blur.s0.x.max - blur.min.0) / 8) + 1)=3 x (((blur.s0.y.max - blur.min.1) / 8) + 1)=2  8 x 8  shared  in_repeat_edge_in_blur  float32  100       400    0       x,y            2-way           1         400
}

// The lines of the lowered blur that show the kernel's memory and
// barriers.
func ExampleLowered_Kernels() {
	f, _ := blur3x3()
	l, err := halide.NewPipeline(f).Lower()
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, k := range l.Kernels() {
		fmt.Println(k.Name, "barriers:", k.Barriers)
	}
	for _, line := range strings.Split(fmt.Sprint(l), "\n") {
		if strings.Contains(line, "allocate") || strings.Contains(line, "gpu_thread_barrier") {
			fmt.Println(strings.TrimSpace(line))
		}
	}
	// Output:
	// kernel_blur_s0 barriers: 1
	// allocate in_repeat_edge_in_blur[float32 * 100] in GPUShared
	// gpu_thread_barrier(2)  // in_repeat_edge_in_blur was just written by other threads of the block
}

// VThread cuts a block's work into strided parts that each thread computes
// in turn (TVM's vthread): the loop moves just inside the thread loop and
// is unrolled.
func ExampleStage_VThread() {
	x := halide.NewVar("x")
	in := halide.NewImageParam("in", halide.Float32, 1)
	f := halide.NewFunc("f")
	f.Define(x).Is(in.At(x).Mul(2))
	bx, vx, tx, xi := halide.NewVar("bx"), halide.NewVar("vx"), halide.NewVar("tx"), halide.NewVar("xi")
	// 64 points per block; 2 virtual threads of 32 points; 8 threads of 4.
	f.Split(x, bx, x, 64).Split(x, vx, x, 32).Split(x, tx, xi, 4).
		GPUBlocks(bx).GPUThreads(tx).VThread(vx)
	nest, err := halide.NewPipeline(f).LoopNest()
	if err != nil {
		fmt.Println(err)
	}
	fmt.Print(nest)
	// Output:
	// produce f:
	//   gpu_block x.bx:
	//     gpu_thread x.x.x.tx in [0, 7]:
	//       unrolled x.x.vx in [0, 1]:
	//         for x.x.x.xi in [0, 3]:
	//           f(...) = ...
}
