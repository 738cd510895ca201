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
	for _, bc := range lowerBenches {
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

// TestLowerBenchmarkCases keeps BenchmarkLower in step with the tables (CI
// does not run benchmarks): every case it names exists and lowers.
func TestLowerBenchmarkCases(t *testing.T) {
	for _, bc := range lowerBenches {
		if _, err := halide.NewPipeline(bc.build().Out()).Lower(); err != nil {
			t.Errorf("%s: %v", bc.name, err)
		}
	}
}

var lowerBenches = []struct {
	name  string
	build func() algo.Algorithm
}{
	{"tensorproduct", func() algo.Algorithm {
		t := algo.NewTensorProduct(tpC, tpM, tpN, tpP, tpIn, tpOut)
		findCase(tpCases, "C")(t)
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

// findCase returns the schedule called name of a table.
func findCase[A algo.Algorithm](cases []schedCase[A], name string) func(A) {
	for _, c := range cases {
		if c.name == name {
			return c.sched
		}
	}
	panic("no schedule " + name)
}
