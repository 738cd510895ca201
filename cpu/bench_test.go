package cpu

import (
	"testing"

	"github.com/gohalide/gohalide/ir"
)

// benchStmt is a 256x256 nest: out[y*256+x] = in[y*256+x]*a + float(x)*0.5
// - min(in[y*256+x], b), a few operations per point.
func benchStmt(kind ir.ForKind) ir.Stmt {
	x, y := v32("x"), v32("y")
	idx := ir.AddE(ir.MulE(y, ir.Int(256)), x)
	v := load(ir.Float32, "in", idx)
	val := ir.SubE(ir.AddE(ir.MulE(v, &ir.Var{T: ir.Float32, Name: "a"}),
		ir.MulE(&ir.Cast{T: ir.Float32, X: x}, ir.Const(ir.Float32, 0.5))),
		ir.MinE(v, &ir.Var{T: ir.Float32, Name: "b"}))
	return kloop(kind, "y", ir.Int(0), ir.Int(256), loop("x", ir.Int(0), ir.Int(256), store("out", idx, val)))
}

func benchRun(b *testing.B, kind ir.ForKind) {
	p := mustCompile(b, benchStmt(kind))
	in := make([]float32, 256*256)
	for i := range in {
		in[i] = float32(i%1000) * 0.01
	}
	out := make([]float32, 256*256)
	scalars := map[string]any{"a": 1.5, "b": 3.0}
	bufs := map[string]any{"in": in, "out": out}
	mustRun(b, p, scalars, bufs)
	for k := range out {
		xx := float32(k % 256)
		if want := in[k]*1.5 + xx*0.5 - min(in[k], 3); out[k] != want {
			b.Fatalf("out[%d] = %v, want %v", k, out[k], want)
		}
	}
	b.ResetTimer()
	for b.Loop() {
		if err := p.Run(scalars, bufs); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(256*256), "ns/point")
}

func BenchmarkRun(b *testing.B)         { benchRun(b, ir.Serial) }
func BenchmarkRunParallel(b *testing.B) { benchRun(b, ir.Parallel) }
