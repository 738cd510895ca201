package cpu

import (
	"testing"

	"github.com/gohalide/gohalide/ir"
)

// Helpers building IR for the tests.

func v32(name string) ir.Expr { return ir.NewVar(name) }

func load(t ir.Type, buf string, idx ir.Expr) ir.Expr { return &ir.Load{T: t, Buf: buf, Index: idx} }

func store(buf string, idx, val ir.Expr) ir.Stmt { return &ir.Store{Buf: buf, Index: idx, Value: val} }

func loop(name string, mn, ext ir.Expr, body ir.Stmt) ir.Stmt {
	return &ir.For{Name: name, Min: mn, Extent: ext, Kind: ir.Serial, Body: body}
}

func kloop(kind ir.ForKind, name string, mn, ext ir.Expr, body ir.Stmt) ir.Stmt {
	return &ir.For{Name: name, Min: mn, Extent: ext, Kind: kind, Body: body}
}

func mustCompile(t testing.TB, s ir.Stmt) *Program {
	t.Helper()
	p, err := Compile(s)
	if err != nil {
		t.Fatalf("Compile: %v\n%s", err, ir.StmtString(s))
	}
	return p
}

func mustRun(t testing.TB, p *Program, scalars, buffers map[string]any) {
	t.Helper()
	if err := p.Run(scalars, buffers); err != nil {
		t.Fatalf("Run: %v", err)
	}
}
