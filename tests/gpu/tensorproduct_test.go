package gpu_test

import (
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/apps/algo"
	"github.com/gohalide/gohalide/halide"
	"github.com/gohalide/gohalide/ir"
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

// TestTensorProductBestSteadyState is issue 10's acceptance for the best
// schedule's code: the partitioned kernel's steady state (the branch for
// the blocks with 64 whole pairs) has no guard in its reduction loop, and
// each step of 4 input channels loads each of the thread's 16 + 16 shared
// operands once, in the lowered statement and in the emitted CUDA, where
// they are 4 + 4 float4 loads.
func TestTensorProductBestSteadyState(t *testing.T) {
	// P = 150 leaves a partial block of pairs, so the kernel has a tail.
	tp := algo.NewTensorProduct(64, 64, 2, 150, 40, 30)
	tp.GPUScheduleBest()
	p := halide.NewPipeline(tp.Out()).WithOptions(halide.Options{Verify: true})
	l, err := p.Lower()
	if err != nil {
		t.Fatal(err)
	}
	var steady *ir.For
	for _, k := range l.Kernels() {
		ir.WalkStmt(k.Body, func(s ir.Stmt) bool {
			if steady != nil {
				return false
			}
			if g, ok := s.(*ir.IfThenElse); ok && g.Else != nil {
				// The partition: the first reduction loop of its Then.
				ir.WalkStmt(g.Then, func(s ir.Stmt) bool {
					if f, ok := s.(*ir.For); ok && steady == nil && strings.Contains(f.Name, "rc") {
						steady = f
					}
					return steady == nil
				}, nil)
				return false
			}
			return true
		}, nil)
	}
	if steady == nil {
		t.Fatalf("no partitioned kernel with a reduction loop:\n%s", l)
	}
	loads := map[string]int{}
	guards := 0
	ir.WalkStmt(steady.Body, func(s ir.Stmt) bool {
		if _, ok := s.(*ir.IfThenElse); ok {
			guards++
		}
		return true
	}, func(e ir.Expr) bool {
		if ld, ok := e.(*ir.Load); ok {
			loads[ld.Buf]++
		}
		return true
	})
	if guards != 0 {
		t.Errorf("%d guards in the steady state's reduction loop:\n%s", guards, ir.StmtString(steady))
	}
	if loads["GatherWeight"] != 16 || loads["GatherInput_in_Product"] != 16 {
		t.Errorf("loads per reduction step: %v, want 16 of GatherWeight and 16 of GatherInput_in_Product:\n%s", loads, ir.StmtString(steady))
	}
	// The same in the CUDA: the loop's text reads the 16 values of each
	// array as 4 float4 loads (consecutive from indices that are multiples
	// of 4).
	src, err := l.CUDA()
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(src, "for (int Product_s1_rc_x_rco = 0;")
	if i < 0 {
		t.Fatalf("no reduction loop in the CUDA:\n%s", src)
	}
	body := src[i:]
	body = body[:strings.Index(body, "\n        }\n")]
	for a, n := range map[string]int{"GatherWeight[": 4, "(const float4 *)&GatherWeight[": 4, "GatherInput_in_Product[": 4, "(const float4 *)&GatherInput_in_Product[": 4} {
		if got := strings.Count(body, a); got != n {
			t.Errorf("%d reads %s in the steady state's loop, want %d:\n%s", got, a, n, body)
		}
	}
	if strings.Contains(body, "if (") {
		t.Errorf("a guard in the steady state's loop:\n%s", body)
	}
}
