package algo

import "github.com/gohalide/gohalide/halide"

// The two schedules of Halide 14's local_laplacian_generator.cpp, written
// as its generator writes them (the Hexagon and autoscheduler branches
// left out).

// GPUSchedule is the generator's GPU schedule ("3.19ms on an RTX 2060"):
// the LUT at the root, the output in 16 x 8 tiles, and at each level j
// the output pyramid, and for j > 0 the input pyramid and the processed
// pyramid (its k loop innermost, inside each thread), at the root in
// tiles of 16 x 8 for j <= 3 and 2 x 2 below. Everything else is inline.
//
// Halide's gpu_tile(x, y, xi, yi, 16, 8) names the block loops x and y;
// here GPUTile(x, y, x, y, xi, yi, 16, 8) does the same.
func (v *LocalLaplacian) GPUSchedule() {
	x, y, k := v.X, v.Y, v.K
	xi, yi := halide.NewVar("xi"), halide.NewVar("yi")
	v.Remap.ComputeRoot()
	v.Output.ComputeRoot().GPUTile(x, y, x, y, xi, yi, 16, 8)
	for j := 0; j < v.J; j++ {
		blockw, blockh := 16, 8
		if j > 3 {
			blockw, blockh = 2, 2
		}
		if j > 0 {
			v.InGPyramid[j].ComputeRoot().GPUTile(x, y, x, y, xi, yi, blockw, blockh)
			v.GPyramid[j].ComputeRoot().Reorder(k, x, y).GPUTile(x, y, x, y, xi, yi, blockw, blockh)
		}
		v.OutGPyramid[j].ComputeRoot().GPUTile(x, y, x, y, xi, yi, blockw, blockh)
	}
}

// CPUSchedule is the generator's CPU schedule ("21.4ms on an Intel
// i9-9960X using 32 threads"): the output in strips of 64 rows in
// parallel, its channel loop innermost and x vectorized by 8; the gray
// image and levels 1 to 4 of the input and processed pyramids at the root
// in parallel over rows (the processed ones stored x, k, y); levels 1 to 4
// of the output pyramid stored per strip and computed per output row with
// their storage folded to 4 rows (a sliding window), level 0 per output
// row; levels 5 and up at the root (the processed ones parallel over k).
func (v *LocalLaplacian) CPUSchedule() {
	x, y, c, k := v.X, v.Y, v.C, v.K
	yo := halide.NewVar("yo")
	v.Remap.ComputeRoot()
	v.Output.Reorder(c, x, y).Split(y, yo, y, 64).Parallel(yo).Vectorize(x, 8)
	v.Gray.ComputeRoot().Parallel(y, 32).Vectorize(x, 8)
	for j := 1; j < 5 && j < v.J; j++ {
		v.InGPyramid[j].ComputeRoot().Parallel(y, 32).Vectorize(x, 8)
		v.GPyramid[j].ComputeRoot().ReorderStorage(x, k, y).Reorder(k, y).Parallel(y, 8).Vectorize(x, 8)
		v.OutGPyramid[j].StoreAt(v.Output, yo).ComputeAt(v.Output, y).FoldStorage(y, 4).Vectorize(x, 8)
	}
	v.OutGPyramid[0].ComputeAt(v.Output, y).Vectorize(x, 8)
	for j := 5; j < v.J; j++ {
		v.InGPyramid[j].ComputeRoot()
		v.GPyramid[j].ComputeRoot().Parallel(k)
		v.OutGPyramid[j].ComputeRoot()
	}
}
