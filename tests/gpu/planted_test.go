package gpu_test

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/apps/algo"
	"github.com/gohalide/gohalide/halide"
	"github.com/gohalide/gohalide/ir"
)

// Planted bugs: the lowered schedule A of the tensor product is edited the
// way a wrong compiler would get it wrong, and the emulator must report
// each bug as an error naming the kernel and the Func (not a wrong result,
// not a panic).
func TestPlantedBugsAreCaught(t *testing.T) {
	cases := []struct {
		name string
		edit func(ir.Stmt) ir.Stmt
		want []string
	}{
		{"drop the barrier before the consumers", func(s ir.Stmt) ir.Stmt {
			return editKernels(s, func(x ir.Stmt) ir.Stmt {
				if b, ok := x.(*ir.Barrier); ok && strings.Contains(b.Reason, "just written") {
					return &ir.Comment{Text: "dropped"}
				}
				return x
			})
		}, []string{"race", "GatherWeight", "kernel_output_s1"}},
		{"drop the barrier before the next overwrite", func(s ir.Stmt) ir.Stmt {
			return editKernels(s, func(x ir.Stmt) ir.Stmt {
				if b, ok := x.(*ir.Barrier); ok && strings.Contains(b.Reason, "next iteration") {
					return &ir.Comment{Text: "dropped"}
				}
				return x
			})
		}, []string{"race", "GatherWeight"}},
		// The size is one fact of the kernel record: a wrong compiler
		// gets it wrong in the record, and the allocation follows.
		{"shrink the shared allocation", func(s ir.Stmt) ir.Stmt {
			return editRecords(editKernels(s, func(x ir.Stmt) ir.Stmt {
				if a, ok := x.(*ir.Allocate); ok && a.Name == "GatherWeight" {
					return &ir.Allocate{Name: a.Name, T: a.T, Memory: a.Memory, Extents: []ir.Expr{ir.Int(256)}, Body: a.Body}
				}
				return x
			}), func(k *ir.Kernel) {
				k.Allocs = append([]ir.KernelAlloc(nil), k.Allocs...)
				for i := range k.Allocs {
					if k.Allocs[i].Func == "GatherWeight" {
						k.Allocs[i].Elems = 256
					}
				}
			})
		}, []string{"GatherWeight", "out of bounds"}},
		// A body that disagrees with its record breaks the kernel
		// contract (ir.Kernel.Verify).
		{"shrink the allocation but not the record", func(s ir.Stmt) ir.Stmt {
			return editKernels(s, func(x ir.Stmt) ir.Stmt {
				if a, ok := x.(*ir.Allocate); ok && a.Name == "GatherWeight" {
					return &ir.Allocate{Name: a.Name, T: a.T, Memory: a.Memory, Extents: []ir.Expr{ir.Int(256)}, Body: a.Body}
				}
				return x
			})
		}, []string{"GatherWeight", "256 elements in the body but 512 in Kernel.Allocs", "kernel_output_s1"}},
		{"put a barrier under a thread guard", func(s ir.Stmt) ir.Stmt {
			return editKernels(s, func(x ir.Stmt) ir.Stmt {
				if b, ok := x.(*ir.Barrier); ok && strings.Contains(b.Reason, "just written") {
					return &ir.IfThenElse{Cond: ir.LTE(ir.NewVar(ir.ThreadID[0]), ir.Int(16)), Then: b}
				}
				return x
			})
		}, []string{"barrier", "kernel_output_s1"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tp := algo.NewTensorProduct(64, 64, 1, 150, 40, 30)
			tp.GPUScheduleA(algo.IssueFactors)
			l, err := halide.NewPipeline(tp.Out()).Lower()
			if err != nil {
				t.Fatal(err)
			}
			edited := c.edit(l.Stmt)
			if ir.StmtString(edited) == l.String() {
				t.Fatal("the edit changed nothing")
			}
			tp.Inputs(rand.New(rand.NewSource(3)))
			err = l.WithStmt(edited).Realize(tp.NewOutput())
			if err == nil {
				t.Fatal("the planted bug was not reported")
			}
			t.Log(err)
			msg := strings.ToLower(err.Error())
			for _, w := range c.want {
				if !strings.Contains(msg, strings.ToLower(w)) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

// editKernels applies f bottom-up to every statement of every kernel body.
func editKernels(s ir.Stmt, f func(ir.Stmt) ir.Stmt) ir.Stmt {
	var mut func(ir.Stmt) ir.Stmt
	mut = func(x ir.Stmt) ir.Stmt {
		if l, ok := x.(*ir.Launch); ok {
			k := *l.Kernel
			k.Body = editStmt(k.Body, f)
			return &ir.Launch{Kernel: &k}
		}
		return ir.MapStmt(x, mut, nil)
	}
	return mut(s)
}

// editRecords applies f to a copy of every kernel's record.
func editRecords(s ir.Stmt, f func(*ir.Kernel)) ir.Stmt {
	var mut func(ir.Stmt) ir.Stmt
	mut = func(x ir.Stmt) ir.Stmt {
		if l, ok := x.(*ir.Launch); ok {
			k := *l.Kernel
			f(&k)
			return &ir.Launch{Kernel: &k}
		}
		return ir.MapStmt(x, mut, nil)
	}
	return mut(s)
}

func editStmt(s ir.Stmt, f func(ir.Stmt) ir.Stmt) ir.Stmt {
	var mut func(ir.Stmt) ir.Stmt
	mut = func(x ir.Stmt) ir.Stmt { return f(ir.MapStmt(x, mut, nil)) }
	return mut(s)
}
