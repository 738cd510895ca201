package ir

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The printer writes IR in a stable C-like text close to Halide's
// IRPrinter: `for (f.s0.x, 0, 8) {`, `allocate f[float32 * 16 * 8] in Stack`,
// `f(x, y) = ...`, `f[index] = ...`. Golden tests depend on it: change it
// only deliberately.

// ExprString returns the text of e.
func ExprString(e Expr) string {
	var b strings.Builder
	printExpr(&b, e)
	return b.String()
}

// StmtString returns the text of s, one statement per line.
func StmtString(s Stmt) string {
	p := &printer{}
	p.stmt(s)
	return p.b.String()
}

func formatFloat(v float64, bits uint8) string {
	switch {
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	case math.IsNaN(v):
		return "nan"
	}
	s := strconv.FormatFloat(v, 'g', -1, int(bits))
	if !strings.ContainsAny(s, ".eE") {
		s += ".0"
	}
	if bits == 32 {
		s += "f"
	}
	return s
}

func printExpr(b *strings.Builder, e Expr) {
	switch e := e.(type) {
	case nil:
		b.WriteString("<nil>")
	case *IntImm:
		switch {
		case e.T == Int32:
			b.WriteString(strconv.FormatInt(e.V, 10))
		case e.T.IsBool():
			if e.V != 0 {
				b.WriteString("true")
			} else {
				b.WriteString("false")
			}
		case e.T.IsUInt() && e.T.Bits == 64:
			fmt.Fprintf(b, "%s(%d)", e.T, uint64(e.V))
		default:
			fmt.Fprintf(b, "%s(%d)", e.T, e.V)
		}
	case *FloatImm:
		switch {
		case e.T.Bits == 64:
			fmt.Fprintf(b, "float64(%s)", formatFloat(e.V, 64))
		case e.T.IsHalf():
			// A value of the 16-bit type, printed as the float32 it is.
			v := formatFloat(e.V, 32)
			if !math.IsInf(e.V, 0) && !math.IsNaN(e.V) {
				v = strings.TrimSuffix(v, "f")
			}
			fmt.Fprintf(b, "%s(%s)", e.T, v)
		default:
			b.WriteString(formatFloat(e.V, e.T.Bits))
		}
	case *Var:
		b.WriteString(e.Name)
	case *Cast:
		fmt.Fprintf(b, "%s(", e.T)
		printExpr(b, e.X)
		b.WriteString(")")
	case *Binary:
		if e.Op == Min || e.Op == Max {
			b.WriteString(e.Op.String())
			b.WriteString("(")
			printExpr(b, e.A)
			b.WriteString(", ")
			printExpr(b, e.B)
			b.WriteString(")")
			return
		}
		b.WriteString("(")
		printExpr(b, e.A)
		b.WriteString(" " + e.Op.String() + " ")
		printExpr(b, e.B)
		b.WriteString(")")
	case *Not:
		b.WriteString("!")
		printExpr(b, e.X)
	case *Select:
		b.WriteString("select(")
		printExpr(b, e.Cond)
		b.WriteString(", ")
		printExpr(b, e.True)
		b.WriteString(", ")
		printExpr(b, e.False)
		b.WriteString(")")
	case *Call:
		b.WriteString(e.Name)
		b.WriteString("(")
		for i, a := range e.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			printExpr(b, a)
		}
		b.WriteString(")")
		if e.Index != 0 {
			// Value 0 of a Tuple Func prints as the call itself.
			fmt.Fprintf(b, "[%d]", e.Index)
		}
	case *Load:
		b.WriteString(e.Buf)
		b.WriteString("[")
		printExpr(b, e.Index)
		b.WriteString("]")
	case *Let:
		fmt.Fprintf(b, "(let %s = ", e.Name)
		printExpr(b, e.Value)
		b.WriteString(" in ")
		printExpr(b, e.Body)
		b.WriteString(")")
	default:
		fmt.Fprintf(b, "<%T>", e)
	}
}

type printer struct {
	b      strings.Builder
	indent int
}

func (p *printer) line(format string, args ...any) {
	p.b.WriteString(strings.Repeat("  ", p.indent))
	fmt.Fprintf(&p.b, format, args...)
	p.b.WriteString("\n")
}

func (p *printer) block(s Stmt) {
	p.indent++
	p.stmt(s)
	p.indent--
}

func exprList(es []Expr) string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = ExprString(e)
	}
	return strings.Join(parts, ", ")
}

func (p *printer) stmt(s Stmt) {
	switch s := s.(type) {
	case nil:
	case *LetStmt:
		p.line("let %s = %s", s.Name, ExprString(s.Value))
		p.stmt(s.Body)
	case *AssertStmt:
		if len(s.Args) > 0 {
			p.line("assert(%s, %q, %s)", ExprString(s.Cond), s.Message, exprList(s.Args))
		} else {
			p.line("assert(%s, %q)", ExprString(s.Cond), s.Message)
		}
	case *ProducerConsumer:
		if s.Producer {
			p.line("produce %s {", s.Func)
		} else {
			p.line("consume %s {", s.Func)
		}
		p.block(s.Body)
		p.line("}")
	case *Atomic:
		p.line("atomic %s {", s.Func)
		p.block(s.Body)
		p.line("}")
	case *For:
		p.line("%s (%s, %s, %s) {", s.Kind, s.Name, ExprString(s.Min), ExprString(s.Extent))
		p.block(s.Body)
		p.line("}")
	case *Block:
		for _, x := range s.Stmts {
			p.stmt(x)
		}
	case *IfThenElse:
		p.line("if (%s) {", ExprString(s.Cond))
		p.block(s.Then)
		for s.Else != nil {
			if el, ok := s.Else.(*IfThenElse); ok {
				p.line("} else if (%s) {", ExprString(el.Cond))
				p.block(el.Then)
				s = el
				continue
			}
			p.line("} else {")
			p.block(s.Else)
			break
		}
		p.line("}")
	case *Evaluate:
		if buf, c, flat, ok := IsPrefetch(s.X); ok {
			p.line("%s", prefetchString(buf, c, flat))
			return
		}
		p.line("%s", ExprString(s.X))
	case *Provide:
		p.line("%s%s(%s) = %s", atomicPrefix(s.Atomic), s.Func, exprList(s.Args), ExprString(s.Value))
	case *Realize:
		parts := make([]string, len(s.Bounds))
		for i, r := range s.Bounds {
			parts[i] = fmt.Sprintf("[%s, %s]", ExprString(r.Min), ExprString(r.Extent))
		}
		for i, f := range s.Folds {
			if f > 0 && i < len(parts) {
				parts[i] += fmt.Sprintf(" folded by %d", f)
			}
		}
		p.line("realize %s(%s) in %s {", s.Func, strings.Join(parts, ", "), s.Memory)
		p.block(s.Body)
		p.line("}")
	case *Allocate:
		size := s.T.String()
		for _, e := range s.Extents {
			size += " * " + ExprString(e)
		}
		p.line("allocate %s[%s] in %s", s.Name, size, s.Memory)
		p.stmt(s.Body)
		p.line("free %s", s.Name)
	case *Store:
		p.line("%s%s[%s] = %s", atomicPrefix(s.Atomic), s.Buf, ExprString(s.Index), ExprString(s.Value))
	case *Barrier:
		if s.Reason != "" {
			p.line("gpu_thread_barrier(%d)  // %s", s.Fence, s.Reason)
		} else {
			p.line("gpu_thread_barrier(%d)", s.Fence)
		}
	case *Comment:
		p.line("// %s", s.Text)
	case *LoadVector:
		p.line("// the next %d lets load one aligned vector", s.Lanes)
		p.stmt(s.Body)
	case *StoreVector:
		p.line("// the next %d stores store one aligned vector", s.Lanes)
		p.stmt(s.Body)
	case *Launch:
		k := s.Kernel
		p.line("launch %s<<<(%s), (%s)>>>(%s) {", k.Name, exprList(k.Grid[:]), exprList(k.Block[:]), kernelArgList(k.Args))
		p.block(k.Body)
		p.line("}")
	default:
		p.line("<%T>", s)
	}
}

func kernelArgList(args []KernelArg) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = a.Name
	}
	return strings.Join(parts, ", ")
}

// atomicPrefix marks an atomic Provide or Store.
func atomicPrefix(atomic bool) string {
	if atomic {
		return "atomic "
	}
	return ""
}
