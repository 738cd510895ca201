// Package cudart is the CUDA runtime of gohalide: it runs the kernels that
// package cfamily emits on an NVIDIA GPU, through the CUDA driver API
// (gorgonia.org/cu) and NVRTC (package cudart/nvrtc). Its code is built
// only with the tag `cuda`; without it the package is empty.
//
// Importing it registers GPU 0 as the device of halide's CUDA target
// (halide.RegisterCUDA), so a program that wants the GPU builds with
// -tags cuda and imports it for that effect:
//
//	import _ "github.com/gohalide/gohalide/cudart"
//
// halide never imports this package, so a module that does not import it
// does not depend on gorgonia.org/cu (go mod tidy leaves it out).
//
// A Device owns one CUDA context, bound to one OS thread: every driver call
// runs on a goroutine locked to that thread. halide's CUDA target hands it
// the pipeline's CUDA C (Lowered.CUDA, exactly) in Load, which compiles it
// with NVRTC for the device's architecture, once per source (cached by its
// hash); a kernel launched without a Load is compiled alone. Buffers stay
// on the device between launches and realizations: a host buffer is
// uploaded the first time a kernel uses it and again only after
// MarkHostDirty; buffers a kernel writes are copied back after the launch
// unless copies are switched off for timing (Benchmark). An allocation of
// the host code that only kernels write (a Func computed on the GPU at the
// root) is never uploaded (MarkDeviceOnly), and when it ends its device
// copy is released (Release) into a pool that the next buffer of the same
// size takes: a pipeline's intermediates, new host slices at every run,
// neither pile up on the device nor cost a cuMemAlloc and a cuMemFree
// (which waits for the GPU) per run.
//
// gorgonia.org/cu initializes the driver in its package init and exits the
// process when there is none, so only files built with the tag `cuda`
// import it; without the tag the project builds and runs on the emulator.
package cudart
