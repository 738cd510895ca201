package differential_test

import (
	"testing"

	"github.com/gohalide/gohalide/apps/algo"
	"github.com/gohalide/gohalide/halide"
)

// BenchmarkLower measures halide.NewPipeline(out).Lower() for each
// algorithm under a representative schedule (one of the cases of the
// differential tables). Lower rebuilds the pipeline from the Funcs every
// time, so each iteration is a full lowering.
func BenchmarkLower(b *testing.B) {
	benches := []struct {
		name  string
		build func() algo.Algorithm
	}{
		{"tensorproduct", func() algo.Algorithm {
			t := algo.NewTensorProduct(tpC, tpM, tpN, tpP, tpIn, tpOut)
			findCase(tpCases, "C_product_at_block_c1_outside_threads")(t)
			return t
		}},
		{"depthwise", func() algo.Algorithm {
			d := algo.NewDepthwise(dwB, dwC, dwH, dwW, dwK)
			findCase(depthwiseCases, "padded_store_at_row_compute_at_tile")(d)
			return d
		}},
		{"conv1d", func() algo.Algorithm {
			c := algo.NewConv1D(c1M, c1N)
			findCase(conv1dCases, "guard_splits_apad_at_block")(c)
			return c
		}},
		{"gemm", func() algo.Algorithm {
			g := algo.NewGEMM(gemmM, gemmN, gemmK)
			findCase(gemmCases, "inputs_in_wrappers_at_k_block")(g)
			return g
		}},
	}
	for _, bc := range benches {
		b.Run(bc.name, func(b *testing.B) {
			out := bc.build().Out()
			if _, err := halide.NewPipeline(out).Lower(); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := halide.NewPipeline(out).Lower(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// findCase returns the schedule called name of a table.
func findCase[A algo.Algorithm](cases []schedCase[A], name string) func(A) {
	for _, c := range cases {
		if c.name == name {
			return c.sched
		}
	}
	panic("no schedule " + name)
}
