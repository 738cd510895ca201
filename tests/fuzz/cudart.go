//go:build cuda

package fuzz

// With -tags cuda the fuzzers can run on the GPU (-target cuda): the
// runtime registers GPU 0 as halide's CUDA device.
import _ "github.com/gohalide/gohalide/cudart"
