package fuzz

import (
	"fmt"
	"strings"

	"github.com/gohalide/gohalide/halide"
)

// builder makes the halide objects of a Prog; goExpr prints the same
// calls as Go, for the reproductions.
type builder struct {
	p      *Prog
	vars   []halide.Var
	funcs  map[string]*halide.Func
	images map[string]*halide.ImageParam
	ints   map[string]*halide.Param[int32]
	floats map[string]*halide.Param[float32]
	rvars  map[string]halide.RVar
	// ivars are the implicit Vars _0, _1; imp says that the Func being
	// defined is Implicit (its vars y, z are ivars).
	ivars []halide.Var
	imp   bool
}

func (p *Prog) build() *Instance {
	b := &builder{p: p, funcs: map[string]*halide.Func{}, images: map[string]*halide.ImageParam{},
		ints: map[string]*halide.Param[int32]{}, floats: map[string]*halide.Param[float32]{}, rvars: map[string]halide.RVar{}}
	inst := &Instance{Funcs: b.funcs, Images: b.images, Vars: map[string]halide.VarOrRVar{}}
	for _, n := range varNames {
		v := halide.NewVar(n)
		b.vars = append(b.vars, v)
		inst.Vars[n] = v
	}
	for i, n := range implicitNames {
		v := halide.ImplicitVar(i)
		b.ivars = append(b.ivars, v)
		inst.Vars[n] = v
	}
	for _, in := range p.Inputs {
		t := halide.Int32
		if in.Float {
			t = halide.Float32
		}
		b.images[in.Name] = halide.NewImageParam(in.Name, t, len(in.Mins))
	}
	for _, pa := range p.Params {
		if pa.Float {
			b.floats[pa.Name] = halide.NewParam[float32](pa.Name)
			b.floats[pa.Name].Set(float32(pa.Value))
		} else {
			b.ints[pa.Name] = halide.NewParam[int32](pa.Name)
			b.ints[pa.Name].Set(int32(pa.Value))
		}
	}
	for _, r := range p.RDoms {
		var rs []halide.RangeSpec
		for d := range r.Mins {
			rs = append(rs, halide.Range(r.Mins[d], r.Exts[d]))
		}
		rd := halide.NewRDom(r.Name, rs...)
		for d := range r.Mins {
			b.rvars[rvarName(r, d)] = rd.Dim(d)
			inst.Vars[rvarName(r, d)] = rd.Dim(d)
		}
		if r.Where != nil {
			rd.Where(b.expr(r.Where))
		}
	}
	for _, f := range p.Funcs {
		rs := f.bcRanges()
		switch f.BC {
		case "repeat":
			b.funcs[f.Name] = halide.RepeatEdge(b.images[f.Src], rs...)
		case "const":
			b.funcs[f.Name] = halide.ConstantExterior(b.images[f.Src], b.constant(f.Float, f.Exterior), rs...)
		case "tile":
			b.funcs[f.Name] = halide.RepeatImage(b.images[f.Src], rs...)
		case "mirror":
			b.funcs[f.Name] = halide.MirrorImage(b.images[f.Src], rs...)
		case "mirror_int":
			b.funcs[f.Name] = halide.MirrorInterior(b.images[f.Src], rs...)
		default:
			b.funcs[f.Name] = halide.NewFunc(f.label())
		}
	}
	// Producers first, so that a call sees its callee's dimensions.
	for i := len(p.Funcs) - 1; i >= 0; i-- {
		f := p.Funcs[i]
		if f.BC != "" {
			continue
		}
		hf := b.funcs[f.Name]
		b.imp = f.Implicit
		args := make([]any, f.Dims)
		for d := range args {
			args[d] = b.pureVar(d)
		}
		if f.implicitLHS(0) {
			args = []any{b.vars[0], halide.Implicit}
		}
		hf.Define(args...).Is(b.value(f, 0))
		for k, u := range f.Updates {
			largs := make([]any, len(u.Args))
			for d, a := range u.Args {
				// A pure argument is passed as the Var: the library
				// does not take a Var's Expr (x.Expr) for the Var.
				if pureArg(a, d) {
					largs[d] = b.pureVar(d)
				} else {
					largs[d] = b.expr(a)
				}
			}
			if f.implicitLHS(k + 1) {
				largs = append(largs[:1], halide.Implicit)
			}
			def, v := hf.Define(largs...), b.value(f, k+1)
			switch u.Op {
			case "+=":
				def.PlusEq(v)
			case "-=":
				def.MinusEq(v)
			case "*=":
				def.TimesEq(v)
			case "max=":
				def.MaxEq(v)
			case "min=":
				def.MinEq(v)
			default:
				def.Is(v)
			}
		}
		b.imp = false
	}
	for _, bd := range p.Bounds {
		v := b.vars[bd.Dim]
		if f := p.Func(bd.Func); f != nil && f.Implicit && bd.Dim > 0 {
			v = b.ivars[bd.Dim-1]
		}
		if bd.ExtOnly {
			b.funcs[bd.Func].BoundExtent(v, bd.Ext)
		} else {
			b.funcs[bd.Func].Bound(v, bd.Min, bd.Ext)
		}
	}
	inst.Out = b.funcs[p.Funcs[0].Name]
	for _, name := range p.outputNames() {
		if len(p.Outputs) > 0 {
			inst.Outs = append(inst.Outs, b.funcs[name])
		}
	}
	return inst
}

// pureVar is the pure var of dimension d of the Func being defined.
func (b *builder) pureVar(d int) halide.Var {
	if b.imp && d > 0 {
		return b.ivars[d-1]
	}
	return b.vars[d]
}

// implicitLHS says whether the left-hand side of stage s of the Implicit
// Func f is written (a, halide.Implicit): for the pure definition, when
// its value uses the last implicit Var (Implicit stands for the ones it
// uses); for an update, when its arguments after the first are the pure
// vars (Implicit stands for f's remaining dimensions).
func (f *PFunc) implicitLHS(s int) bool {
	if !f.Implicit || f.Dims < 2 {
		return false
	}
	if s > 0 {
		for d, a := range f.Updates[s-1].Args[1:] {
			if !pureArg(a, d+1) {
				return false
			}
		}
		return true
	}
	last := varNames[f.Dims-1]
	uses := false
	for _, e := range f.stageExprs(0) {
		e.walk(func(x *PExpr) bool {
			uses = uses || x.Op == "v" && x.N == last
			return !uses
		})
	}
	return uses
}

// value is the value of stage s of f: an Expr, or the Tuple of a Tuple
// Func's values.
func (b *builder) value(f *PFunc, s int) any {
	es := f.stageExprs(s)[f.nArgs(s):]
	if len(f.Tuple) == 0 {
		return b.expr(es[0])
	}
	vs := make([]any, len(es))
	for i, e := range es {
		vs[i] = b.expr(e)
	}
	return halide.NewTuple(vs...)
}

// goValue prints value(f, s).
func (p *Prog) goValue(f *PFunc, s int) string {
	es := f.stageExprs(s)[f.nArgs(s):]
	if len(f.Tuple) == 0 {
		return p.goExprIn(es[0], f.Implicit)
	}
	vs := make([]string, len(es))
	for i, e := range es {
		vs[i] = p.goExprIn(e, f.Implicit)
	}
	return "halide.NewTuple(" + strings.Join(vs, ", ") + ")"
}

func (b *builder) constant(float bool, v float64) halide.Expr {
	if float {
		return halide.E(float32(v))
	}
	return halide.E(int32(v))
}

func (b *builder) expr(e *PExpr) halide.Expr {
	args := func() []any {
		out := make([]any, len(e.A))
		for i, a := range e.A {
			out[i] = b.expr(a)
		}
		return out
	}
	x := func(i int) halide.Expr { return b.expr(e.A[i]) }
	switch e.Op {
	case "c":
		return b.constant(e.F, e.V)
	case "v":
		for i, n := range varNames {
			if n == e.N {
				return b.pureVar(i).Expr
			}
		}
	case "r":
		return b.rvars[e.N].Expr
	case "odim":
		out := b.funcs[b.p.Funcs[0].Name]
		switch {
		case e.N == "min":
			return out.Dim(e.R).Min()
		case e.N == "max":
			return out.Dim(e.R).Max()
		case e.W && e.R == 0:
			return out.Width()
		case e.W && e.R == 1:
			return out.Height()
		case e.W && e.R == 2:
			return out.Channels()
		}
		return out.Dim(e.R).Extent()
	case "p":
		if e.F {
			return b.floats[e.N].Expr()
		}
		return b.ints[e.N].Expr()
	case "call":
		as := args()
		if e.I {
			as = []any{as[0], halide.Implicit}
		}
		if f := b.p.Func(e.N); f != nil && len(f.Tuple) > 0 {
			return b.funcs[e.N].AtTuple(as...).Elem(int(e.V))
		}
		return b.funcs[e.N].At(as...)
	case "in":
		as := args()
		if e.I {
			as = []any{as[0], halide.Implicit}
		}
		return b.images[e.N].At(as...)
	case "min":
		return halide.Min(x(0), x(1))
	case "max":
		return halide.Max(x(0), x(1))
	case "clamp":
		return halide.Clamp(x(0), x(1), x(2))
	case "sel":
		return halide.Select(x(0), x(1), x(2))
	case "undef":
		if e.N != "" {
			return halide.Undef(typedType[e.N])
		}
		if e.F {
			return halide.Undef(halide.Float32)
		}
		return halide.Undef(halide.Int32)
	case "tostore":
		return halide.Cast(typedType[e.N], x(0))
	case "fromstore", "cast":
		return toResult(e.F, x(0))
	case "atan2":
		return halide.Atan2(x(0), x(1))
	case "mux":
		return halide.Mux(x(0), args()[1:]...)
	case "absd":
		if e.F {
			return halide.Absd(x(0), x(1))
		}
		return halide.Cast(halide.Int32, halide.Absd(x(0), x(1)))
	case "lerp":
		if t, ok := satType[e.N]; ok {
			return halide.Lerp(x(0), x(1), halide.Cast(t, x(2)))
		}
		return halide.Lerp(x(0), x(1), x(2))
	case "sat":
		return halide.Cast(halide.Int32, halide.SaturatingCast(satType[e.N], x(0)))
	case "fx":
		op, tn, _ := strings.Cut(e.N, ":")
		t := satType[tn]
		a, b := halide.Cast(t, x(0)), halide.Cast(t, x(1))
		if op == "mulshr" {
			return halide.Cast(halide.Int32, halide.MulShiftRight(a, b, int(e.V)))
		}
		return halide.Cast(halide.Int32, fxFuncs[op].apply(a, b))
	case "typed":
		tn, op, _ := strings.Cut(e.N, ":")
		t := typedType[tn]
		a, b := halide.Cast(t, x(0)), halide.Cast(t, x(1))
		var r halide.Expr
		switch o, ok := binaryOps[op]; {
		case op == "min":
			r = halide.Min(a, b)
		case op == "max":
			r = halide.Max(a, b)
		case ok:
			r = o.apply(a, b)
		default:
			r = a.Eq(b)
		}
		return toResult(e.F, r)
	case "argmax", "argmin":
		t := halide.Argmax(x(0))
		if e.Op == "argmin" {
			t = halide.Argmin(x(0))
		}
		return t.Elem(argIndex(e, b.p.RDoms[e.R]))
	}
	if o, ok := binaryOps[e.Op]; ok {
		return o.apply(x(0), x(1))
	}
	if f, ok := unaryFuncs[e.Op]; ok {
		return f.apply(x(0))
	}
	panic(fmt.Sprintf("fuzz: unknown program expression %q", e.Op))
}

// binaryOps are the operators of two operands that are methods of Expr:
// the method, as the builder applies it and as goExpr prints it.
var binaryOps = map[string]struct {
	apply  func(halide.Expr, any) halide.Expr
	method string
}{
	"+": {halide.Expr.Add, "Add"}, "-": {halide.Expr.Sub, "Sub"}, "*": {halide.Expr.Mul, "Mul"},
	"/": {halide.Expr.Div, "Div"}, "%": {halide.Expr.Mod, "Mod"}, "<": {halide.Expr.Lt, "Lt"},
	"==": {halide.Expr.Eq, "Eq"}, "&": {halide.Expr.BitAnd, "BitAnd"}, "|": {halide.Expr.BitOr, "BitOr"},
	"^": {halide.Expr.BitXor, "BitXor"}, "<<": {halide.Expr.Shl, "Shl"}, ">>": {halide.Expr.Shr, "Shr"},
}

// unaryFuncs are the functions of one operand: the function, as the
// builder applies it and as goExpr prints it.
var unaryFuncs = map[string]struct {
	apply func(any) halide.Expr
	name  string
}{
	"popcount": {halide.Popcount, "Popcount"}, "clz": {halide.CountLeadingZeros, "CountLeadingZeros"},
	"ctz": {halide.CountTrailingZeros, "CountTrailingZeros"}, "sin": {halide.Sin, "Sin"}, "tanh": {halide.Tanh, "Tanh"},
	"~": {halide.BitNot, "BitNot"}, "sum": {halide.Sum, "Sum"}, "maximum": {halide.Maximum, "Maximum"},
	"minimum": {halide.Minimum, "Minimum"}, "trunc": {halide.Trunc, "Trunc"}, "fract": {halide.Fract, "Fract"},
}

// fxFuncs are the operations of the "fx" expressions (MulShiftRight,
// which takes a third operand, is applied apart).
var fxFuncs = map[string]struct {
	apply func(any, any) halide.Expr
	name  string
}{
	"sadd": {halide.SaturatingAdd, "SaturatingAdd"}, "ssub": {halide.SaturatingSub, "SaturatingSub"},
	"hadd": {halide.HalvingAdd, "HalvingAdd"}, "rhadd": {halide.RoundingHalvingAdd, "RoundingHalvingAdd"},
	"rshr": {halide.RoundingShiftRight, "RoundingShiftRight"}, "divz": {halide.DivRoundToZero, "DivRoundToZero"},
	"modz": {halide.ModRoundToZero, "ModRoundToZero"}, "mulshr": {nil, "MulShiftRight"},
}

// toResult casts r to the type of a program's values: float32 when float,
// else int32.
func toResult(float bool, r halide.Expr) halide.Expr {
	if float {
		return halide.Cast(halide.Float32, r)
	}
	return halide.Cast(halide.Int32, r)
}

// goResult prints toResult(float, r).
func goResult(float bool, r string) string {
	if float {
		return fmt.Sprintf("halide.Cast(halide.Float32, %s)", r)
	}
	return fmt.Sprintf("halide.Cast(halide.Int32, %s)", r)
}

// typedType is the type of each "typed" expression, and typedName its
// name in Go.
var typedType = map[string]halide.Type{"f16": halide.Float16, "bf16": halide.BFloat16, "f64": halide.Float64, "i64": halide.Int64, "u64": halide.UInt64, "u8": halide.UInt8, "i16": halide.Int16}

var typedName = map[string]string{"f16": "Float16", "bf16": "BFloat16", "f64": "Float64", "i64": "Int64", "u64": "UInt64", "u8": "UInt8", "i16": "Int16"}

// argIndex is the value of the Tuple of an "argmax" or "argmin" over r
// that e picks: a coordinate, or the value after them.
func argIndex(e *PExpr, r *PRDom) int {
	if e.N == "v" {
		return len(r.Mins)
	}
	return int(e.N[0] - '0')
}

// satType is the type of each "sat" target.
var satType = map[string]halide.Type{"u8": halide.UInt8, "i8": halide.Int8, "u16": halide.UInt16, "i16": halide.Int16,
	"u32": halide.UInt32, "i32": halide.Int32}

// goConst prints a constant as a typed halide.E call.
func goConst(float bool, v float64) string {
	if float {
		return fmt.Sprintf("halide.E(float32(%g))", v)
	}
	return fmt.Sprintf("halide.E(int32(%d))", int64(v))
}

// goExpr prints e as the Go the builder runs.
func (p *Prog) goExpr(e *PExpr) string { return p.goExprIn(e, false) }

// goExprIn prints e, in the definitions of an Implicit Func if imp.
func (p *Prog) goExprIn(e *PExpr, imp bool) string {
	g := func(i int) string { return p.goExprIn(e.A[i], imp) }
	all := func() string {
		var s []string
		for i := range e.A {
			s = append(s, g(i))
		}
		if e.I {
			s = []string{s[0], "halide.Implicit"}
		}
		return strings.Join(s, ", ")
	}
	switch e.Op {
	case "c":
		return goConst(e.F, e.V)
	case "v":
		if imp && e.N != varNames[0] {
			for i, n := range varNames {
				if n == e.N {
					return fmt.Sprintf("halide.ImplicitVar(%d)", i-1)
				}
			}
		}
		return e.N
	case "r":
		name, suf, _ := strings.Cut(e.N, "$")
		return fmt.Sprintf("%s.%s()", name, strings.ToUpper(suf))
	case "odim":
		out := p.Funcs[0].Name
		switch {
		case e.N == "min":
			return fmt.Sprintf("%s.Dim(%d).Min()", out, e.R)
		case e.N == "max":
			return fmt.Sprintf("%s.Dim(%d).Max()", out, e.R)
		case e.W && e.R < 3:
			return fmt.Sprintf("%s.%s()", out, []string{"Width", "Height", "Channels"}[e.R])
		}
		return fmt.Sprintf("%s.Dim(%d).Extent()", out, e.R)
	case "p":
		return e.N + ".Expr()"
	case "call", "in":
		if f := p.Func(e.N); e.Op == "call" && f != nil && len(f.Tuple) > 0 {
			return fmt.Sprintf("%s.AtTuple(%s).Elem(%d)", e.N, all(), int(e.V))
		}
		return fmt.Sprintf("%s.At(%s)", e.N, all())
	case "min", "max", "clamp":
		return fmt.Sprintf("halide.%s%s(%s)", strings.ToUpper(e.Op[:1]), e.Op[1:], all())
	case "argmax", "argmin":
		return fmt.Sprintf("halide.%s(%s).Elem(%d)", strings.ToUpper(e.Op[:1])+e.Op[1:], g(0), argIndex(e, p.RDoms[e.R]))
	case "sel":
		return fmt.Sprintf("halide.Select(%s)", all())
	case "undef":
		if e.N != "" {
			return fmt.Sprintf("halide.Undef(halide.%s)", typedName[e.N])
		}
		if e.F {
			return "halide.Undef(halide.Float32)"
		}
		return "halide.Undef(halide.Int32)"
	case "tostore":
		return fmt.Sprintf("halide.Cast(halide.%s, %s)", typedName[e.N], g(0))
	case "fromstore", "cast":
		return goResult(e.F, g(0))
	case "atan2":
		return fmt.Sprintf("halide.Atan2(%s)", all())
	case "mux":
		return fmt.Sprintf("halide.Mux(%s)", all())
	case "lerp":
		if t, ok := map[string]string{"u8": "UInt8", "u16": "UInt16", "u32": "UInt32"}[e.N]; ok {
			return fmt.Sprintf("halide.Lerp(%s, %s, halide.Cast(halide.%s, %s))", g(0), g(1), t, g(2))
		}
		return fmt.Sprintf("halide.Lerp(%s)", all())
	case "absd":
		if e.F {
			return fmt.Sprintf("halide.Absd(%s)", all())
		}
		return fmt.Sprintf("halide.Cast(halide.Int32, halide.Absd(%s))", all())
	case "sat":
		name := map[string]string{"u8": "UInt8", "i8": "Int8", "u16": "UInt16", "i16": "Int16", "u32": "UInt32", "i32": "Int32"}[e.N]
		return fmt.Sprintf("halide.Cast(halide.Int32, halide.SaturatingCast(halide.%s, %s))", name, g(0))
	case "fx":
		op, tn, _ := strings.Cut(e.N, ":")
		t := map[string]string{"u8": "UInt8", "i8": "Int8", "u16": "UInt16", "i16": "Int16", "u32": "UInt32", "i32": "Int32"}[tn]
		q := ""
		if op == "mulshr" {
			q = fmt.Sprintf(", %d", int(e.V))
		}
		return fmt.Sprintf("halide.Cast(halide.Int32, halide.%s(halide.Cast(halide.%s, %s), halide.Cast(halide.%s, %s)%s))",
			fxFuncs[op].name, t, g(0), t, g(1), q)
	case "typed":
		tn, op, _ := strings.Cut(e.N, ":")
		a := fmt.Sprintf("halide.Cast(halide.%s, %s)", typedName[tn], g(0))
		b := fmt.Sprintf("halide.Cast(halide.%s, %s)", typedName[tn], g(1))
		var r string
		if o, ok := binaryOps[op]; ok {
			r = fmt.Sprintf("%s.%s(%s)", a, o.method, b)
		} else {
			r = fmt.Sprintf("halide.%s%s(%s, %s)", strings.ToUpper(op[:1]), op[1:], a, b)
		}
		return goResult(e.F, r)
	}
	if o, ok := binaryOps[e.Op]; ok {
		return fmt.Sprintf("%s.%s(%s)", g(0), o.method, g(1))
	}
	if f, ok := unaryFuncs[e.Op]; ok {
		return fmt.Sprintf("halide.%s(%s)", f.name, all())
	}
	return fmt.Sprintf("/* unknown %q */", e.Op)
}

// algoSource prints the Go that builds the program (the declarations and
// definitions; the inputs' data and the run are printed by progMain).
func (p *Prog) algoSource(sizes []int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "x, y, z := halide.NewVar(\"x\"), halide.NewVar(\"y\"), halide.NewVar(\"z\")\n_, _, _ = x, y, z\n")
	for _, in := range p.Inputs {
		t := "Int32"
		if in.Float {
			t = "Float32"
		}
		fmt.Fprintf(&b, "%s := halide.NewImageParam(%q, halide.%s, %d) // bound to a buffer with mins %v and extents %v\n", in.Name, in.Name, t, len(in.Mins), in.Mins, in.Exts)
	}
	for _, pa := range p.Params {
		if pa.Float {
			fmt.Fprintf(&b, "%s := halide.NewParam[float32](%q)\n%s.Set(%g)\n", pa.Name, pa.Name, pa.Name, pa.Value)
		} else {
			fmt.Fprintf(&b, "%s := halide.NewParam[int32](%q)\n%s.Set(%d)\n", pa.Name, pa.Name, pa.Name, int64(pa.Value))
		}
	}
	for _, r := range p.RDoms {
		var rs []string
		for d := range r.Mins {
			rs = append(rs, fmt.Sprintf("halide.Range(%d, %d)", r.Mins[d], r.Exts[d]))
		}
		fmt.Fprintf(&b, "%s := halide.NewRDom(%q, %s)\n_ = %s\n", r.Name, r.Name, strings.Join(rs, ", "), r.Name)
		if r.Where != nil {
			fmt.Fprintf(&b, "%s.Where(%s)\n", r.Name, p.goExpr(r.Where))
		}
	}
	for _, f := range p.Funcs {
		rs := f.goBCRanges()
		switch f.BC {
		case "repeat":
			fmt.Fprintf(&b, "%s := halide.RepeatEdge(%s%s)\n", f.Name, f.Src, rs)
		case "const":
			fmt.Fprintf(&b, "%s := halide.ConstantExterior(%s, %s%s)\n", f.Name, f.Src, goConst(f.Float, f.Exterior), rs)
		case "tile":
			fmt.Fprintf(&b, "%s := halide.RepeatImage(%s%s)\n", f.Name, f.Src, rs)
		case "mirror":
			fmt.Fprintf(&b, "%s := halide.MirrorImage(%s%s)\n", f.Name, f.Src, rs)
		case "mirror_int":
			fmt.Fprintf(&b, "%s := halide.MirrorInterior(%s%s)\n", f.Name, f.Src, rs)
		default:
			fmt.Fprintf(&b, "%s := halide.NewFunc(%q)\n", f.Name, f.label())
		}
	}
	for i := len(p.Funcs) - 1; i >= 0; i-- {
		f := p.Funcs[i]
		if f.BC != "" {
			continue
		}
		lhs := f.goVars()
		if f.implicitLHS(0) {
			lhs = []string{lhs[0], "halide.Implicit"}
		}
		fmt.Fprintf(&b, "%s.Define(%s).Is(%s)\n", f.Name, strings.Join(lhs, ", "), p.goValue(f, 0))
		for k, u := range f.Updates {
			var as []string
			for _, a := range u.Args {
				as = append(as, p.goExprIn(a, f.Implicit))
			}
			if f.implicitLHS(k + 1) {
				as = []string{as[0], "halide.Implicit"}
			}
			m := map[string]string{"+=": "PlusEq", "-=": "MinusEq", "*=": "TimesEq", "max=": "MaxEq", "min=": "MinEq"}[u.Op]
			if m == "" {
				m = "Is"
			}
			fmt.Fprintf(&b, "%s.Define(%s).%s(%s)\n", f.Name, strings.Join(as, ", "), m, p.goValue(f, k+1))
		}
	}
	for _, bd := range p.Bounds {
		v := varNames[bd.Dim]
		if f := p.Func(bd.Func); f != nil {
			v = f.goVars()[bd.Dim]
		}
		if bd.ExtOnly {
			fmt.Fprintf(&b, "%s.BoundExtent(%s, %d)\n", bd.Func, v, bd.Ext)
		} else {
			fmt.Fprintf(&b, "%s.Bound(%s, %d, %d)\n", bd.Func, v, bd.Min, bd.Ext)
		}
	}
	fmt.Fprintf(&b, "// output: %s realized over mins %v, extents %v\n", p.Funcs[0].Name, p.OutMin, sizes)
	return b.String()
}

// goVars prints f's pure vars.
func (f *PFunc) goVars() []string {
	out := make([]string, f.Dims)
	for d := range out {
		out[d] = varNames[d]
		if f.Implicit && d > 0 {
			out[d] = fmt.Sprintf("halide.ImplicitVar(%d)", d-1)
		}
	}
	return out
}

// bcRanges are the bounds f's boundary condition is given: none for the
// whole buffer, else a Range or Unbounded() per entry of f.Region.
func (f *PFunc) bcRanges() []halide.RangeSpec {
	var rs []halide.RangeSpec
	for _, r := range f.Region {
		if len(r) == 2 {
			rs = append(rs, halide.Range(r[0], r[1]))
		} else {
			rs = append(rs, halide.Unbounded())
		}
	}
	return rs
}

// goBCRanges is bcRanges as Go source: "" or ", halide.Range(...), ...".
func (f *PFunc) goBCRanges() string {
	var b strings.Builder
	for _, r := range f.Region {
		if len(r) == 2 {
			fmt.Fprintf(&b, ", halide.Range(%d, %d)", r[0], r[1])
		} else {
			b.WriteString(", halide.Unbounded()")
		}
	}
	return b.String()
}
