package gpu_test

import (
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/apps/algo"
	"github.com/gohalide/gohalide/halide"
)

// The #8427 acceptance: GatherWeight's shared allocation under schedules A,
// B and C is 512, 2048 and 512 floats (Halide 14 gives 16384, 2048, 512),
// and each schedule realizes on the emulator equal to the reference on
// random inputs with random gather/scatter maps (collisions included).
func TestTensorProductSchedules(t *testing.T) {
	cases := []struct {
		name   string
		sched  func(*algo.TensorProduct, algo.TPFactors)
		elems  int
		bars   int
		allocs []string
	}{
		{"A", (*algo.TensorProduct).GPUScheduleA, 512, 2, []string{"allocate Product[float32 * 1 * 4 * 1] in Register"}},
		{"B", (*algo.TensorProduct).GPUScheduleB, 2048, 1, []string{"allocate Product[float32 * 1 * 4 * 1] in Register"}},
		{"C", (*algo.TensorProduct).GPUScheduleC, 512, 2, []string{"allocate Product[float32 * 4096] in GPUShared"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// 64 channels as in the issue; few pairs and points so the
			// emulator runs quickly; P = 150 leaves a partial block of pairs.
			tp := algo.NewTensorProduct(64, 64, 2, 150, 40, 30)
			c.sched(tp, algo.IssueFactors)
			p := halide.NewPipeline(tp.Out()).WithOptions(halide.Options{Verify: true})
			l, err := p.Lower()
			if err != nil {
				t.Fatal(err)
			}
			s := l.String()
			want := "allocate GatherWeight[float32 * " + strconv.Itoa(c.elems) + "] in GPUShared"
			if !strings.Contains(s, want) {
				t.Errorf("want %q in the lowered statement:\n%s", want, s)
			}
			for _, a := range c.allocs {
				if !strings.Contains(s, a) {
					t.Errorf("want %q in the lowered statement", a)
				}
			}
			// Barriers per kernel (a partitioned body has them in both
			// its steady state and its tail).
			reps, err := p.Report()
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, r := range reps {
				n += r.Barriers
			}
			if n != c.bars {
				t.Errorf("%d barriers, want %d", n, c.bars)
			}
			tp.Inputs(rand.New(rand.NewSource(7)))
			out, err := tp.Run(p)
			if err != nil {
				t.Fatal(err)
			}
			rel, err := tp.Check(out)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("max relative error %.2g", rel)
		})
	}
}
