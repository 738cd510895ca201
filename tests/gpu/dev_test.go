package gpu_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/gohalide/gohalide/apps/algo"
	"github.com/gohalide/gohalide/halide"
)

func TestDevLower(t *testing.T) {
	stop := os.Getenv("STOP")
	for _, s := range []string{"A", "B", "C"} {
		tp := algo.NewTensorProduct(64, 64, 3, 100, 50, 40)
		switch s {
		case "A":
			tp.GPUScheduleA(algo.IssueFactors)
		case "B":
			tp.GPUScheduleB(algo.IssueFactors)
		case "C":
			tp.GPUScheduleC(algo.IssueFactors)
		}
		l, err := halide.NewPipeline(tp.Out()).WithOptions(halide.Options{Verify: true, StopAfter: stop}).Lower()
		if err != nil {
			t.Fatal(s, err)
		}
		if os.Getenv("SHOW") == s {
			fmt.Println(l.LoopNest)
			fmt.Println(l)
		}
	}
}
