package cpu

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/ir"
)

// TestAllocationLimitIsTotal runs two allocations of 600 bytes under a
// limit of 1000: one after the other they fit, one inside the other they
// do not (the second is refused, naming both sizes), and the bytes in use
// go back to zero after each run, failed or not.
func TestAllocationLimitIsTotal(t *testing.T) {
	alloc := func(name string, body ir.Stmt) ir.Stmt {
		return &ir.Allocate{Name: name, T: ir.Float32, Memory: ir.Heap, Extents: []ir.Expr{ir.Int(150)}, Body: body}
	}
	use := func(buf string) ir.Stmt { return store(buf, ir.Int(0), ir.Const(ir.Float32, 1)) }
	sequential := ir.MakeBlock(alloc("a", use("a")), alloc("b", use("b")))
	nested := alloc("a", ir.MakeBlock(use("a"), alloc("b", use("b"))))
	env, release := NewEnv(context.Background(), 1000)
	defer release()
	if err := mustCompile(t, sequential).RunEnv(env, nil, nil, nil); err != nil {
		t.Errorf("sequential: %v", err)
	}
	err := mustCompile(t, nested).RunEnv(env, nil, nil, nil)
	var e *Error
	if !errors.As(err, &e) || e.Kind != AllocationTooLarge || e.Buffer != "b" || !strings.Contains(e.Msg, "600 bytes") || !strings.Contains(e.Msg, "still in use") {
		t.Errorf("nested: got %v, want AllocationTooLarge for b with 600 bytes in use", err)
	}
	if n := env.live.Load(); n != 0 {
		t.Errorf("%d bytes still counted in use after the runs", n)
	}
}
