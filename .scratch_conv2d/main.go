package main

import (
	"fmt"
	"math/rand"
	"os"
	"time"

	"github.com/gohalide/gohalide/apps/algo"
	"github.com/gohalide/gohalide/gpu"
	"github.com/gohalide/gohalide/halide"
)

func main() {
	which := os.Args[1]
	c := algo.NewConv2D(64, 16, 64, 6, 3, 1)
	if len(os.Args) > 2 && os.Args[2] == "big" {
		c = algo.NewConv2D(256, 256, 512, 14, 3, 1)
	}
	switch which {
	case "tvm":
		c.GPUScheduleTVM()
	case "attx":
		c.GPUScheduleTVM()
		c.Conv.ComputeAt(c.Output, halide.NewVar("tx"))
	case "unrolled":
		c.GPUScheduleTVM()
		c.Output.Unroll(halide.NewVar("vx")).Unroll(halide.NewVar("vy"))
	case "ours":
		c.GPUScheduleOurs()
	}
	p := halide.NewPipeline(c.Out())
	nest, err := p.LoopNest()
	fmt.Println(nest, err)
	l, err := p.Lower()
	if err != nil {
		fmt.Println(err)
		return
	}
	src, err := l.CUDA()
	if err == nil {
		info, err := gpu.CheckWithNVCC(src)
		fmt.Printf("ptxas %+v %v\n", info, err)
	}
	if len(os.Args) > 2 && os.Args[2] == "big" {
		return
	}
	c.Inputs(rand.New(rand.NewSource(1)))
	t := time.Now()
	out, err := c.Run(p)
	fmt.Println("run", time.Since(t), err)
	if err == nil {
		fmt.Println(c.Check(out))
	}
	rep, err := p.Report()
	fmt.Println(err)
	gpu.WriteTable(os.Stdout, rep)
}
