package algo

import "github.com/gohalide/gohalide/halide"

// The two schedules of bilateral_grid_generator.cpp (Halide v14.0.0), as
// written there, directive for directive. Halide's gpu_tile(x, y, xi, yi,
// 8, 8) keeps the names x and y for the block loops; GPUTile(x, y, x, y,
// xi, yi, 8, 8) does the same here. Halide's 3-D gpu_tile is GPUTile3D,
// and unroll(y, 2, TailStrategy::RoundUp) is UnrollTail(y, 2, RoundUp).

// GPUSchedule is the generator's GPU schedule ("0.50ms on an RTX 2060"):
//
//	blurz.compute_root().reorder(c, z, x, y).gpu_tile(x, y, xi, yi, 8, 8);
//	histogram.reorder(c, z, x, y).compute_at(blurz, x).gpu_threads(x, y);
//	histogram.update().reorder(c, r.x, r.y, x, y).gpu_threads(x, y).unroll(c);
//	blurx.compute_root().reorder(c, x, y, z).reorder_storage(c, x, y, z).vectorize(c)
//	     .unroll(y, 2, TailStrategy::RoundUp)
//	     .gpu_tile(x, y, z, xi, yi, zi, 32, 8, 1, TailStrategy::RoundUp);
//	blury: as blurx
//	bilateral_grid.compute_root().gpu_tile(x, y, xi, yi, 32, 8);
//	interpolated.compute_at(bilateral_grid, xi).vectorize(c);
//
// blurz is one kernel of 8x8 grid cells per block (64x64 pixels at
// s_sigma 8): the block zeroes the cells' histograms in shared memory,
// each thread scatters its cell's s x s samples into its own histogram
// (the data-dependent z; no two threads write one point), then blurs them
// along z. blurx and blury are a kernel each, 32x8 threads per block, two
// rows of the grid and both channels (a vector of 2) per thread; the
// sampling is a kernel of 32x8 pixels per block.
func (v *BilateralGrid) GPUSchedule() {
	x, y, z, c := v.X, v.Y, v.Z, v.C
	xi, yi, zi := halide.NewVar("xi"), halide.NewVar("yi"), halide.NewVar("zi")
	r := v.R

	v.BlurZ.ComputeRoot().Reorder(c, z, x, y).GPUTile(x, y, x, y, xi, yi, 8, 8)

	v.Histogram.Reorder(c, z, x, y).ComputeAt(v.BlurZ, x).GPUThreads(x, y)
	v.Histogram.Update(0).Reorder(c, r.X(), r.Y(), x, y).GPUThreads(x, y).Unroll(c)

	for _, f := range []*halide.Func{v.BlurX, v.BlurY} {
		f.ComputeRoot().
			Reorder(c, x, y, z).
			ReorderStorage(c, x, y, z).
			Vectorize(c).
			UnrollTail(y, 2, halide.RoundUp).
			GPUTile3D(x, y, z, x, y, z, xi, yi, zi, 32, 8, 1, halide.RoundUp)
	}
	v.Output.ComputeRoot().GPUTile(x, y, x, y, xi, yi, 32, 8)
	v.Interpolated.ComputeAt(v.Output, xi).Vectorize(c)
}

// CPUSchedule is the generator's CPU schedule ("3.98ms on an Intel
// i9-9960X using 32 threads"):
//
//	blurz.compute_root().reorder(c, z, x, y).parallel(y).vectorize(x, 8).unroll(c);
//	histogram.compute_at(blurz, y);
//	histogram.update().reorder(c, r.x, r.y, x, y).unroll(c);
//	blurx.compute_root().reorder(c, x, y, z).parallel(z).vectorize(x, 8).unroll(c);
//	blury.compute_root().reorder(c, x, y, z).parallel(z).vectorize(x, 8).unroll(c);
//	bilateral_grid.compute_root().parallel(y).vectorize(x, 8);
func (v *BilateralGrid) CPUSchedule() {
	x, y, z, c := v.X, v.Y, v.Z, v.C
	r := v.R

	v.BlurZ.ComputeRoot().Reorder(c, z, x, y).Parallel(y).Vectorize(x, 8).Unroll(c)
	v.Histogram.ComputeAt(v.BlurZ, y)
	v.Histogram.Update(0).Reorder(c, r.X(), r.Y(), x, y).Unroll(c)
	for _, f := range []*halide.Func{v.BlurX, v.BlurY} {
		f.ComputeRoot().Reorder(c, x, y, z).Parallel(z).Vectorize(x, 8).Unroll(c)
	}
	v.Output.ComputeRoot().Parallel(y).Vectorize(x, 8)
}
