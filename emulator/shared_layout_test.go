package emulator_test

import (
	"strings"
	"testing"

	"github.com/gohalide/gohalide/cfamily"
	"github.com/gohalide/gohalide/emulator"
	"github.com/gohalide/gohalide/ir"
)

// aliasKernel is a kernel of 4 threads with two shared arrays a (int32) and
// b (float32) of 4 elements laid out at the same bytes of a 16-byte pool
// (as gpu_shared_reuse records it), with body.
func aliasKernel(body ...ir.Stmt) *ir.Kernel {
	return &ir.Kernel{
		Name:  "alias",
		Grid:  dims(ir.Int(1), ir.Int(1), ir.Int(1)),
		Block: dims(ir.Int(4), ir.Int(1), ir.Int(1)),
		Args:  []ir.KernelArg{buf("out", ir.Float32, true)},
		Body:  shared("a", ir.Int32, ir.Int(4), shared("b", ir.Float32, ir.Int(4), body...)),
		Allocs: []ir.KernelAlloc{
			{Func: "a", T: ir.Int32, Memory: ir.GPUShared, Elems: 4, Offset: 0},
			{Func: "b", T: ir.Float32, Memory: ir.GPUShared, Elems: 4, Offset: 0},
		},
		SharedBytes: 16,
	}
}

func runAlias(k *ir.Kernel) ([]float32, error) {
	out := make([]float32, 8)
	var e emulator.Emulator
	err := e.Run(launchOf(k), nil, map[string]any{"out": out})
	return out, err
}

func aOf(i ir.Expr) ir.Expr { return &ir.Cast{T: ir.Float32, X: ld(ir.Int32, "a", i)} }

// A reuse that is right: a's lifetime ends, a barrier, then b's begins.
func TestSharedReuseDisjoint(t *testing.T) {
	k := aliasKernel(
		st("a", tid(0), ir.AddE(tid(0), ir.Int(1))),
		barrier("a written"),
		st("out", tid(0), aOf(tid(0))),
		barrier("a read"),
		st("b", tid(0), f32(2)),
		barrier("b written"),
		st("out", ir.AddE(tid(0), ir.Int(4)), ld(ir.Float32, "b", ir.SubE(ir.Int(3), tid(0)))),
	)
	out, err := runAlias(k)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []float32{1, 2, 3, 4, 2, 2, 2, 2} {
		if out[i] != want {
			t.Errorf("out[%d] = %v, want %v", i, out[i], want)
		}
	}
}

// A planted bad reuse: b is written while a is still live (a is read after
// b's production), at the same bytes. On a GPU a[i] would read b's bits.
func TestSharedReusePlantedOverlap(t *testing.T) {
	k := aliasKernel(
		st("a", tid(0), ir.AddE(tid(0), ir.Int(1))),
		barrier("a written"),
		st("b", tid(0), f32(2)),
		barrier("b written"),
		st("out", tid(0), ir.AddE(aOf(tid(0)), ld(ir.Float32, "b", tid(0)))),
	)
	_, err := runAlias(k)
	ee := asEmuError(t, err, emulator.SharedReuse)
	if ee.Buffer != "a" || ee.Other != "b" || ee.Index != 0 {
		t.Errorf("error on %s[%d] by %s, want a[0] by b: %v", ee.Buffer, ee.Index, ee.Other, err)
	}
	if !strings.Contains(ee.Msg, "shared memory reuse: a reads a[0]") || !strings.Contains(ee.Msg, "last written by b") {
		t.Errorf("message %q", ee.Msg)
	}
	// Without the two checks, the reuse check still runs.
	e := emulator.Emulator{NoRaceCheck: true, NoUninitCheck: true}
	err = e.Run(launchOf(k), nil, map[string]any{"out": make([]float32, 8)})
	asEmuError(t, err, emulator.SharedReuse)
}

// The race check treats aliased bytes as one memory: thread 1 writes b[1]
// in the interval where thread 0 read a[1], at the same bytes.
func TestSharedReuseAliasedRace(t *testing.T) {
	k := aliasKernel(
		st("a", tid(0), ir.AddE(tid(0), ir.Int(1))),
		barrier("a written"),
		&ir.IfThenElse{Cond: ir.LTE(tid(0), ir.Int(3)), Then: st("out", tid(0), aOf(ir.AddE(tid(0), ir.Int(1))))},
		st("b", tid(0), f32(2)),
	)
	_, err := runAlias(k)
	ee := asEmuError(t, err, emulator.SharedRace)
	if ee.Buffer != "b" || ee.Index != 1 || !strings.Contains(ee.Msg, "shared with a") {
		t.Errorf("race %v, want on b[1], shared with a", err)
	}
}

// A layout that breaks the contract is a BadKernel error, not a panic.
func TestSharedLayoutBad(t *testing.T) {
	for name, edit := range map[string]func(k *ir.Kernel){
		"misaligned": func(k *ir.Kernel) { k.Allocs[1].Offset = 2 },
		"outside":    func(k *ir.Kernel) { k.Allocs[1].Offset = 8 },
		"missing":    func(k *ir.Kernel) { k.Allocs = k.Allocs[:1] },
		"type":       func(k *ir.Kernel) { k.Allocs[0].T = ir.Int16 },
	} {
		t.Run(name, func(t *testing.T) {
			k := aliasKernel(st("a", tid(0), ir.Int(1)), st("b", tid(0), f32(1)))
			edit(k)
			_, err := runAlias(k)
			asEmuError(t, err, emulator.BadKernel)
			if _, err := cfamily.CUDASource(k); err == nil {
				t.Error("CUDASource accepted the layout")
			}
		})
	}
}
