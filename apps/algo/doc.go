// Package algo holds the algorithms of the bundled apps without their
// schedules: the tensor product of Halide issue #8427 (gather, per-offset
// matrix product, scatter), a depthwise 2-D convolution, a full 1-D
// convolution, a matrix product (GEMM) and Halide's local_laplacian
// (LocalLaplacian, a uint16 image filter whose Check wants the output
// identical to the reference; see its doc).
//
// Each algorithm is a struct built by a constructor (NewTensorProduct,
// NewDepthwise, NewConv1D, NewGEMM) that defines the Funcs and nothing
// else: every Func keeps the default schedule (pure Funcs inline, Funcs
// with updates at the innermost loop of their consumer, the output at the
// root). The struct exports its Funcs, Vars, RDoms, Params and ImageParams
// so that callers can write schedules from outside the package, for example
//
//	g := algo.NewGEMM(37, 19, 23)
//	io, ii := halide.NewVar("io"), halide.NewVar("ii")
//	g.Output.Split(g.I, io, ii, 8)
//	g.Prod.ComputeAt(g.Output, io)
//	g.Inputs(rand.New(rand.NewSource(1)))
//	out, err := g.Run(halide.NewPipeline(g.Output))
//	maxErr, err := g.Check(out)
//
// Every algorithm implements Algorithm: Inputs fills its inputs with random
// data (floats uniform in [-1, 1], never all zeros; random index maps with
// collisions for the tensor product) and Sets them on the ImageParams and
// Params; NewOutput allocates an output buffer of the right shape and
// element type; Run realizes a pipeline into a new output buffer; Check
// compares an output with a plain-Go reference (for the float algorithms,
// Reference computes it with float64 accumulation).
//
// # Tolerance
//
// The outputs are float32 sums of products of values in [-1, 1] that the
// pipeline accumulates in float32, in an order that depends on the
// schedule. Check accepts an element when
//
//	|got - want| <= Tol * max(1, |want|)
//
// with Tol = 1e-4, and reports the largest |got - want| / max(1, |want|)
// over all elements. With the sizes the tests use (reductions of at most a
// few hundred terms) float32 rounding stays below 1e-5 of that scale.
//
// # Layouts
//
// Dimension 0 of a Buffer is the innermost, contiguous one; every layout
// below lists dimensions innermost first.
//
//   - TensorProduct: input[c, q], weight[c, m, n], imap[p, n], omap[p, n],
//     output[m, o] (the layout).
//   - Depthwise: input[x, y, c, b] (NCHW read from the right), weight[kx, ky, c],
//     output[x, y, c, b].
//   - Conv1D: a[i], b[j], output[i] with i in [0, M+N-1).
//   - GEMM: a[k, i] (an M×K row-major matrix), b[j, k] (K×N row-major),
//     output[j, i] (M×N row-major): C[i][j] = sum_k A[i][k] B[k][j].
//   - LocalLaplacian: input[x, y, c] and output[x, y, c], uint16 (Halide's
//     layout: x fastest, then y, then the channel).
//   - BilateralGrid: input[x, y] and output[x, y], float32 images in
//     [0, 1] (Halide's apps/bilateral_grid); its check has tolerances of
//     its own (BilateralGridCPUTol, and BilateralGridTol on CUDA) against
//     a float32 reference.
package algo
