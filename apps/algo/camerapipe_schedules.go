package algo

import "github.com/gohalide/gohalide/halide"

// The two schedules of Halide's camera_pipe generator (v14.0.0), written
// as a Halide user writes them in our API. The auto-scheduler, Hexagon
// and D3D12 branches are not ported. Where the generator's schedule uses
// a directive we lack, the deviation is said at its line.

// CameraPipeCPUVec is the generator's vec on the CPU:
// natural_vector_size(UInt(16)) of an x86-64 AVX2 host (32-byte vectors,
// 16 lanes of uint16), the host target Halide 14 picks on a machine
// without AVX-512. (With AVX-512 it is 32; CPUSchedule takes it.)
const CameraPipeCPUVec = 16

// CameraPipeStrip is the generator's CPU strip_size (32, made even).
const CameraPipeStrip = 32

// GPUSchedule is the generator's GPU schedule (get_target().has_gpu_feature()):
// 28 x 12 blocks of threads, each thread computing two columns of the
// output (three channels); every other stage computed per block in shared
// memory by the block's threads, two columns per thread; the color matrix
// and the sharpening strength in kernels of one thread, the tone curve in
// blocks of 32 threads.
func (p *CameraPipe) GPUSchedule() {
	x, y, c := p.X, p.Y, p.C
	xi, yi := halide.NewVar("xi"), halide.NewVar("yi")
	processed := p.Processed

	// matrix.compute_root().gpu_single_thread()
	p.Matrix.ComputeRoot().GPUSingleThread()
	// curve.compute_root().gpu_tile(x, xi, 32)
	p.Curve.ComputeRoot().GPUTile1D(x, x, xi, 32)
	// sharpen_strength_x32.compute_root().gpu_single_thread()
	p.SharpenX32.ComputeRoot().GPUSingleThread()

	// We can generate slightly better code if we know the output is
	// even-sized.
	outWidth, outHeight := processed.Width(), processed.Height()
	processed.Bound(c, 0, 3).
		Bound(x, 0, outWidth.Div(2).Mul(2)).
		Bound(y, 0, outHeight.Div(2).Mul(2))

	// These tile factors obtain 1391us on a gtx 980.
	const tileX, tileY = 28, 12
	processed.ComputeRoot().
		Reorder(c, x, y).
		Unroll(x, 2).
		GPUTile(x, y, x, y, xi, yi, tileX, tileY)

	p.Curved.ComputeAt(processed, x).
		Unroll(x, 2).
		GPUThreads(x, y)

	p.Corrected.ComputeAt(processed, x).
		Unroll(x, 2).
		GPUThreads(x, y)

	// Demosaic: output_compute_at and intermed_compute_at = {processed, x}.
	for _, f := range []*halide.Func{p.GR, p.GB} {
		f.ComputeAt(processed, x).GPUThreads(x, y)
	}
	p.Demosaiced.ComputeAt(processed, x).
		Unroll(x, 2).
		GPUThreads(x, y).
		Reorder(c, x, y).
		Unroll(c)

	p.Denoised.ComputeAt(processed, x).
		Tile(x, y, x, y, xi, yi, 2, 2).
		Unroll(xi).
		Unroll(yi).
		GPUThreads(x, y)

	p.Deinterleaved.ComputeAt(processed, x).
		Unroll(x, 2).
		GPUThreads(x, y).
		Reorder(c, x, y).
		Unroll(c)
}

// CPUSchedule is the generator's CPU schedule with vector width vec
// (CameraPipeCPUVec on AVX2): strips of 32 rows in parallel, each computed
// two rows at a time with every stage's rows slid down the strip (stored
// per strip, folded to 4 rows), vectors of 2*vec columns.
func (p *CameraPipe) CPUSchedule(vec int) {
	x, y, c := p.X, p.Y, p.C
	xi, yi, yo, yii := halide.NewVar("xi"), halide.NewVar("yi"), halide.NewVar("yo"), halide.NewVar("yii")
	processed := p.Processed

	p.Matrix.ComputeRoot()
	p.Curve.ComputeRoot()
	p.SharpenX32.ComputeRoot()

	outWidth, outHeight := processed.Width(), processed.Height()
	stripSize := (CameraPipeStrip / 2) * 2

	processed.ComputeRoot().
		Reorder(c, x, y).
		Split(y, yi, yii, 2, halide.RoundUp).
		Split(yi, yo, yi, stripSize/2).
		VectorizeTail(x, 2*vec, halide.RoundUp).
		Unroll(c).
		Parallel(yo)

	// Halide: .prefetch(input, y, y, 2) before fold_storage; we have no
	// prefetch (see the app's doc). Halide folds denoised and
	// deinterleaved by 4, which holds at run time because every Func of
	// the strip slides; our storage_folding proves a fold from the
	// regions before sliding (10 rows of denoised, 5 of deinterleaved at
	// one iteration), so it refuses 4, and we fold by the next powers of
	// two, 16 and 8.
	p.Denoised.ComputeAt(processed, yi).
		StoreAt(processed, yo).
		FoldStorage(y, 16).
		Tile(x, y, x, y, xi, yi, 2*vec, 2).
		Vectorize(xi).
		Unroll(yi)

	// Halide: fold_storage(y, 4); we fold by 8 (see denoised).
	p.Deinterleaved.ComputeAt(processed, yi).
		StoreAt(processed, yo).
		FoldStorage(y, 8).
		Reorder(c, x, y).
		VectorizeTail(x, 2*vec, halide.ShiftInwards). // Halide: RoundUp (see below)
		Unroll(c)

	// Halide rounds the vector loops of curved, deinterleaved, g_r and
	// g_b up (TailStrategy::RoundUp): their producers compute only the
	// region their consumers need, and the rounded-up points read
	// producers' storage that was allocated but never computed, giving
	// values no one uses. Our bounds inference has the producers compute
	// every point a loop reads (nothing reads memory that was not
	// written), so rounding up compounds down the pipeline and reads the
	// raw input past its edge at 2592 x 1968 (column 2701). ShiftInwards,
	// Halide's default for these Funcs, keeps every loop inside its region
	// with the same vectors (the last one shifted back).
	p.Curved.ComputeAt(processed, yi).
		StoreAt(processed, yo).
		Reorder(c, x, y).
		Tile(x, y, x, y, xi, yi, 2*vec, 2, halide.ShiftInwards). // Halide: RoundUp
		Vectorize(xi).
		Unroll(yi).
		Unroll(c)

	p.Corrected.ComputeAt(p.Curved, x).
		Reorder(c, x, y).
		Vectorize(x).
		Unroll(c)

	// Demosaic: intermed_compute_at = {processed, yi}, intermed_store_at =
	// {processed, yo}, output_compute_at = {curved, x}.
	for _, f := range []*halide.Func{p.GR, p.GB} {
		f.ComputeAt(processed, yi).
			StoreAt(processed, yo).
			VectorizeTail(x, 2*vec, halide.ShiftInwards). // Halide: RoundUp
			FoldStorage(y, 4)
	}
	// intermediates[1].compute_with(intermediates[0], x,
	//     {{x, LoopAlignStrategy::AlignStart}, {y, LoopAlignStrategy::AlignStart}})
	p.GB.ComputeWith(p.GR, x,
		halide.LoopAlign{Var: x, Strategy: halide.AlignStart},
		halide.LoopAlign{Var: y, Strategy: halide.AlignStart})
	p.Demosaiced.ComputeAt(p.Curved, x).
		Vectorize(x).
		Unroll(y).
		Reorder(c, x, y).
		Unroll(c)

	// We can generate slightly better code if we know the splits divide
	// the extent.
	processed.
		Bound(c, 0, 3).
		Bound(x, 0, outWidth.Div(2*vec).Mul(2*vec)).
		Bound(y, 0, outHeight.Div(stripSize).Mul(stripSize))
}
