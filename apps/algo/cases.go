package algo

// GPUCase is one algorithm under one of its GPU schedules, at a small size
// (small enough for the emulator, which runs every thread).
type GPUCase struct {
	Name string
	// New builds and schedules the algorithm.
	New func() Algorithm
}

// GPUCases lists every GPU schedule of the package's algorithms: the
// tensor product's A, B and C, the GPU schedules of GEMM (split-K
// included), Conv1D and Depthwise, local_laplacian's and bilateral_grid's.
func GPUCases() []GPUCase {
	var out []GPUCase
	for _, s := range []struct {
		name  string
		sched func(*TensorProduct, TPFactors)
	}{{"tensorproduct_A", (*TensorProduct).GPUScheduleA}, {"tensorproduct_B", (*TensorProduct).GPUScheduleB}, {"tensorproduct_C", (*TensorProduct).GPUScheduleC},
		{"tensorproduct_best", func(t *TensorProduct, _ TPFactors) { t.GPUScheduleBest() }}} {
		s := s
		out = append(out, GPUCase{s.name, func() Algorithm {
			tp := NewTensorProduct(64, 64, 2, 150, 40, 30)
			s.sched(tp, IssueFactors)
			return tp
		}})
	}
	for _, s := range GEMMGPUSchedules {
		s := s
		out = append(out, GPUCase{"gemm_" + s.Name, func() Algorithm {
			g := NewGEMM(64, 64, 64)
			s.Apply(g)
			return g
		}})
	}
	for _, s := range GEMMSplitKSchedules {
		s := s
		out = append(out, GPUCase{"gemm_" + s.Name, func() Algorithm {
			g, err := s.New(64, 64, 64)
			if err != nil {
				// Every S of the list divides 64
				// (TestGEMMSplitKSchedulesDivideK).
				panic(err)
			}
			return g
		}})
	}
	for _, s := range Conv1DGPUSchedules {
		s := s
		out = append(out, GPUCase{"conv1d_" + s.Name, func() Algorithm {
			c := NewConv1D(1000, 7)
			s.Apply(c)
			return c
		}})
	}
	for _, s := range DepthwiseGPUSchedules {
		s := s
		out = append(out, GPUCase{"depthwise_" + s.Name, func() Algorithm {
			d := NewDepthwise(1, 4, 16, 16, 3)
			s.Apply(d)
			return d
		}})
	}
	out = append(out, GPUCase{"local_laplacian_gpu", func() Algorithm {
		v := NewLocalLaplacian(100, 70, 8)
		v.GPUSchedule()
		return v
	}})
	out = append(out, GPUCase{"bilateral_grid", func() Algorithm {
		// Neither the 64-pixel tiles of blurz nor the 256-pixel ones of
		// blurx and blury (32 cells of 8) divide the image.
		v := NewBilateralGrid(100, 72, 8)
		v.GPUSchedule()
		return v
	}})
	return out
}
