package errors_test

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// This file calls every exported method of package halide on nil and zero
// receivers (and on real ones) with nil and zero arguments, by reflection
// over the method sets, and every exported function by hand. None may
// panic; every error that comes back must be a *halide.Error that is not
// ErrInternal; and a call on a nil or zero receiver that returns something
// able to carry an error (an error, a *Func, an Expr, a *Stage, a
// *Pipeline, a *Lowered, a Buffer) must carry one.
//
// The lists of exported types and functions are read from the package's
// source, so a new type or function without an entry here fails the test.

// receiver is one receiver value to call methods on.
type receiver struct {
	label string
	make  func() any
	// bad marks a nil or zero receiver: its results must report an error.
	bad bool
}

// receivers are the receivers of each exported type of package halide (by
// its name in the source); an empty list means the type has no methods
// of its own to call (an interface or a constraint).
var receivers = map[string][]receiver{
	"Func": {
		{"(*Func)(nil)", func() any { return (*halide.Func)(nil) }, true},
		{"&Func{}", func() any { return &halide.Func{} }, true},
		{"NewFunc", func() any { return halide.NewFunc("f") }, false},
		{"defined Func", func() any { f := halide.NewFunc("f"); f.Define(x).Is(x); return f }, false},
	},
	"Stage": {
		{"(*Stage)(nil)", func() any { return (*halide.Stage)(nil) }, true},
		{"&Stage{}", func() any { return &halide.Stage{} }, true},
		{"Stage(0) of a defined Func", func() any { f := halide.NewFunc("f"); f.Define(x).Is(x); return f.Stage(0) }, false},
	},
	"Definer": {
		{"Definer{}", func() any { return halide.Definer{} }, true},
		{"Define of a new Func", func() any { return halide.NewFunc("f").Define(x) }, false},
	},
	"Var":  {{"Var{}", func() any { return halide.Var{} }, true}},
	"RVar": {{"RVar{}", func() any { return halide.RVar{} }, true}},
	"Expr": {{"Expr{}", func() any { return halide.Expr{} }, true}},
	"Tuple": {
		{"Tuple{}", func() any { return halide.Tuple{} }, true},
		{"NewTuple(x, 1)", func() any { return halide.NewTuple(x, 1) }, false},
	},
	"RangeSpec":             {{"RangeSpec{}", func() any { return halide.RangeSpec{} }, false}},
	"RFactorPair":           {{"RFactorPair{}", func() any { return halide.RFactorPair{} }, false}},
	"ImplicitArgs":          {{"Implicit", func() any { return halide.Implicit }, false}},
	"LoopAlign":             {{"LoopAlign{}", func() any { return halide.LoopAlign{} }, false}},
	"LoopAlignStrategy":     {{"LoopAlignStrategy(99)", func() any { return halide.LoopAlignStrategy(99) }, false}},
	"PrefetchBoundStrategy": {{"PrefetchBoundStrategy(99)", func() any { return halide.PrefetchBoundStrategy(99) }, false}},
	"RDom": {
		{"(*RDom)(nil)", func() any { return (*halide.RDom)(nil) }, true},
		{"&RDom{}", func() any { return &halide.RDom{} }, true},
	},
	"Pipeline": {
		{"(*Pipeline)(nil)", func() any { return (*halide.Pipeline)(nil) }, true},
		{"&Pipeline{}", func() any { return &halide.Pipeline{} }, true},
		{"NewPipeline(nil)", func() any { return halide.NewPipeline(nil) }, true},
	},
	"Lowered": {
		{"(*Lowered)(nil)", func() any { return (*halide.Lowered)(nil) }, true},
		{"&Lowered{}", func() any { return &halide.Lowered{} }, true},
	},
	"Options": {{"Options{}", func() any { return halide.Options{} }, false}},
	// The report, timing and CUDA-check types (aliases of package report's,
	// cfamily's and emulator's) and the CUDA device interface.
	"KernelReport":  {{"KernelReport{}", func() any { return halide.KernelReport{} }, false}},
	"AllocReport":   {{"AllocReport{}", func() any { return halide.AllocReport{} }, false}},
	"CompiledInfo":  {{"CompiledInfo{}", func() any { return halide.CompiledInfo{} }, false}},
	"Timing":        {{"Timing{}", func() any { return halide.Timing{} }, false}},
	"PtxasInfo":     {{"PtxasInfo{}", func() any { return halide.PtxasInfo{} }, false}},
	"EmulatorError": {{"(*EmulatorError)(nil)", func() any { return (*halide.EmulatorError)(nil) }, false}, {"&EmulatorError{}", func() any { return &halide.EmulatorError{} }, false}},
	"CUDADevice":    {},
	"TraceEvent":    {{"TraceEvent{}", func() any { return halide.TraceEvent{} }, false}},
	"Buffer": {
		{"(*Buffer[float32])(nil)", func() any { return (*halide.Buffer[float32])(nil) }, true},
		{"&Buffer[float32]{}", func() any { return &halide.Buffer[float32]{} }, true},
		{"(*Buffer[bool])(nil)", func() any { return (*halide.Buffer[bool])(nil) }, true},
		{"&Buffer[uint64]{}", func() any { return &halide.Buffer[uint64]{} }, true},
	},
	"BufDim": {{"BufDim{}", func() any { return halide.BufDim{} }, false}},
	"ImageParam": {
		{"(*ImageParam)(nil)", func() any { return (*halide.ImageParam)(nil) }, true},
		{"&ImageParam{}", func() any { return &halide.ImageParam{} }, true},
		{"NewImageParam", func() any { return halide.NewImageParam("in", halide.Float32, 2) }, false},
	},
	"Dimension": {
		{"Dimension{}", func() any { return halide.Dimension{} }, true},
		{"Dim(0) of a nil ImageParam", func() any { return (*halide.ImageParam)(nil).Dim(0) }, true},
	},
	"Param": {
		{"(*Param[int32])(nil)", func() any { return (*halide.Param[int32])(nil) }, true},
		{"&Param[float64]{}", func() any { return &halide.Param[float64]{} }, false},
	},
	"Target": {
		{"Emulator", func() any { return halide.Emulator }, false},
		{"Target(99)", func() any { return halide.Target(99) }, false},
		{"Target(-1)", func() any { return halide.Target(-1) }, false},
	},
	"Type": {
		{"Type{}", func() any { return halide.Type{} }, false},
		{"Type{9, 7}", func() any { return halide.Type{Code: 9, Bits: 7} }, false},
	},
	// The 16-bit float values: every bit pattern is a value (zero, a NaN).
	"F16":          {{"F16(0)", func() any { return halide.F16(0) }, false}, {"F16(0x7e01)", func() any { return halide.F16(0x7e01) }, false}},
	"BF16":         {{"BF16(0)", func() any { return halide.BF16(0) }, false}, {"BF16(0xffc1)", func() any { return halide.BF16(0xffc1) }, false}},
	"TailStrategy": {{"TailStrategy(99)", func() any { return halide.TailStrategy(99) }, false}},
	"MemoryType":   {{"MemoryType(99)", func() any { return halide.MemoryType(99) }, false}},
	"Error": {
		{"(*Error)(nil)", func() any { return (*halide.Error)(nil) }, false},
		{"&Error{}", func() any { return &halide.Error{} }, false},
	},
	"ErrorCode": {{`ErrorCode("")`, func() any { return halide.ErrorCode("") }, false}},
	// Interfaces and constraints: their methods are those of the types
	// above.
	"VarOrRVar": nil, "BufferRef": nil, "Source": nil, "Number": nil, "StageRef": nil,
}

// functions calls each exported function with nil, zero and out-of-range
// arguments; bad marks the calls whose result must report an error.
var functions = map[string]func() (result any, bad bool){
	"Abs":                   func() (any, bool) { return halide.Abs(nil), true },
	"Sin":                   func() (any, bool) { return halide.Sin(nil), true },
	"Cos":                   func() (any, bool) { return halide.Cos(halide.Expr{}), true },
	"Tan":                   func() (any, bool) { return halide.Tan(nil), true },
	"Asin":                  func() (any, bool) { return halide.Asin(halide.Expr{}), true },
	"Acos":                  func() (any, bool) { return halide.Acos(nil), true },
	"Atan":                  func() (any, bool) { return halide.Atan(halide.Expr{}), true },
	"Atan2":                 func() (any, bool) { return halide.Atan2(nil, halide.Expr{}), true },
	"Hypot":                 func() (any, bool) { return halide.Hypot(nil, halide.Expr{}), true },
	"Sinh":                  func() (any, bool) { return halide.Sinh(nil), true },
	"Cosh":                  func() (any, bool) { return halide.Cosh(halide.Expr{}), true },
	"Tanh":                  func() (any, bool) { return halide.Tanh(nil), true },
	"IsNaN":                 func() (any, bool) { return halide.IsNaN(halide.Expr{}), true },
	"IsInf":                 func() (any, bool) { return halide.IsInf(int32(1)), true },
	"IsFinite":              func() (any, bool) { return halide.IsFinite(nil), true },
	"Popcount":              func() (any, bool) { return halide.Popcount(float32(1)), true },
	"CountLeadingZeros":     func() (any, bool) { return halide.CountLeadingZeros(nil), true },
	"CountTrailingZeros":    func() (any, bool) { return halide.CountTrailingZeros(halide.Expr{}), true },
	"Reinterpret":           func() (any, bool) { return halide.Reinterpret(halide.Float32, int64(1)), true },
	"Undef":                 func() (any, bool) { return halide.Undef(halide.Type{}), true },
	"F16FromFloat32":        func() (any, bool) { return halide.F16FromFloat32(float32(math.NaN())), false },
	"BF16FromFloat32":       func() (any, bool) { return halide.BF16FromFloat32(float32(math.Inf(-1))), false },
	"Absd":                  func() (any, bool) { return halide.Absd(nil, halide.Expr{}), true },
	"BitNot":                func() (any, bool) { return halide.BitNot(halide.Expr{}), true },
	"Mux":                   func() (any, bool) { return halide.Mux(nil), true },
	"Lerp":                  func() (any, bool) { return halide.Lerp(nil, nil, nil), true },
	"Asinh":                 func() (any, bool) { return halide.Asinh(nil), true },
	"Acosh":                 func() (any, bool) { return halide.Acosh(halide.Expr{}), true },
	"Atanh":                 func() (any, bool) { return halide.Atanh(nil), true },
	"Trunc":                 func() (any, bool) { return halide.Trunc(halide.Expr{}), true },
	"Fract":                 func() (any, bool) { return halide.Fract(nil), true },
	"Likely":                func() (any, bool) { return halide.Likely(nil), true },
	"LikelyIfInnermost":     func() (any, bool) { return halide.LikelyIfInnermost(halide.Expr{}), true },
	"SaturatingAdd":         func() (any, bool) { return halide.SaturatingAdd(nil, nil), true },
	"SaturatingSub":         func() (any, bool) { return halide.SaturatingSub(halide.Expr{}, 1), true },
	"HalvingAdd":            func() (any, bool) { return halide.HalvingAdd(1, nil), true },
	"HalvingSub":            func() (any, bool) { return halide.HalvingSub(nil, nil), true },
	"RoundingHalvingAdd":    func() (any, bool) { return halide.RoundingHalvingAdd(halide.Expr{}, halide.Expr{}), true },
	"RoundingHalvingSub":    func() (any, bool) { return halide.RoundingHalvingSub(nil, 0), true },
	"WideningAdd":           func() (any, bool) { return halide.WideningAdd(nil, nil), true },
	"WideningSub":           func() (any, bool) { return halide.WideningSub(halide.Expr{}, nil), true },
	"WideningMul":           func() (any, bool) { return halide.WideningMul(nil, 2), true },
	"WideningShiftLeft":     func() (any, bool) { return halide.WideningShiftLeft(nil, nil), true },
	"WideningShiftRight":    func() (any, bool) { return halide.WideningShiftRight(int8(1), nil), true },
	"RoundingShiftLeft":     func() (any, bool) { return halide.RoundingShiftLeft(halide.Expr{}, 1), true },
	"RoundingShiftRight":    func() (any, bool) { return halide.RoundingShiftRight(nil, nil), true },
	"MulShiftRight":         func() (any, bool) { return halide.MulShiftRight(nil, nil, nil), true },
	"RoundingMulShiftRight": func() (any, bool) { return halide.RoundingMulShiftRight(int16(1), int16(1), nil), true },
	"DivRoundToZero":        func() (any, bool) { return halide.DivRoundToZero(nil, halide.Expr{}), true },
	"ModRoundToZero":        func() (any, bool) { return halide.ModRoundToZero(halide.Expr{}, nil), true },
	"FastIntegerDivide":     func() (any, bool) { return halide.FastIntegerDivide(nil, nil), true },
	"FastIntegerModulo":     func() (any, bool) { return halide.FastIntegerModulo(halide.Expr{}, nil), true },
	"SaturatingCast":        func() (any, bool) { return halide.SaturatingCast(halide.Type{}, nil), true },
	"RandomFloat":           func() (any, bool) { return halide.RandomFloat(nil), true },
	"RandomUint":            func() (any, bool) { return halide.RandomUint(halide.Expr{}), true },
	"RandomInt":             func() (any, bool) { return halide.RandomInt(nil), true },
	"StrictFloat":           func() (any, bool) { return halide.StrictFloat(nil), true },
	"U8Sat":                 func() (any, bool) { return halide.U8Sat(nil), true },
	"U16Sat":                func() (any, bool) { return halide.U16Sat(halide.Expr{}), true },
	"U32Sat":                func() (any, bool) { return halide.U32Sat(nil), true },
	"U64Sat":                func() (any, bool) { return halide.U64Sat(halide.Expr{}), true },
	"I8Sat":                 func() (any, bool) { return halide.I8Sat(nil), true },
	"I16Sat":                func() (any, bool) { return halide.I16Sat(halide.Expr{}), true },
	"I32Sat":                func() (any, bool) { return halide.I32Sat(nil), true },
	"I64Sat":                func() (any, bool) { return halide.I64Sat(halide.Expr{}), true },
	"CheckWithNVCC":         func() (any, bool) { _, err := halide.CheckWithNVCC("not C"); return err, true },
	"NVCCPath":              func() (any, bool) { p, _ := halide.NVCCPath(); return p, false },
	"RegisterCUDA":          func() (any, bool) { halide.RegisterCUDA(nil); return nil, false },
	"WriteJSON":             func() (any, bool) { return halide.WriteJSON(nil, nil), true },
	"WriteTable":            func() (any, bool) { return halide.WriteTable(nil, []halide.KernelReport{{}}), true },
	"Cast":                  func() (any, bool) { return halide.Cast(halide.Type{Code: 7, Bits: 3}, x), true },
	"Ceil":                  func() (any, bool) { return halide.Ceil(halide.Expr{}), true },
	"Clamp":                 func() (any, bool) { return halide.Clamp(nil, nil, nil), true },
	"Clamped":               func() (any, bool) { return halide.Clamped(nil, halide.Var{}, halide.Expr{}), true },
	"ConstantExterior":      func() (any, bool) { return halide.ConstantExterior(nil, nil), true },
	"E":                     func() (any, bool) { return halide.E(nil), true },
	"Exp":                   func() (any, bool) { return halide.Exp(halide.RVar{}), true },
	"Floor":                 func() (any, bool) { return halide.Floor((*halide.Param[float32])(nil)), true },
	"Inf":                   func() (any, bool) { return halide.Inf(halide.Type{}), true },
	"Lit":                   func() (any, bool) { return halide.Lit(halide.Type{Code: 1, Bits: 12}, 0), true },
	"Log":                   func() (any, bool) { return halide.Log((*halide.Func)(nil)), true },
	"Max":                   func() (any, bool) { return halide.Max(nil, 1), true },
	"Maximum":               func() (any, bool) { return halide.Maximum((*halide.RDom)(nil)), true },
	"MirrorImage":           func() (any, bool) { return halide.MirrorImage((*halide.Func)(nil)), true },
	"MirrorInterior":        func() (any, bool) { return halide.MirrorInterior(&halide.Buffer[float32]{}, halide.RangeSpec{}), true },
	"Min":                   func() (any, bool) { return halide.Min(1, &halide.RDom{}), true },
	"Minimum":               func() (any, bool) { return halide.Minimum(halide.Expr{}), true },
	"NewBuffer":             func() (any, bool) { return halide.NewBuffer[float32](-1), true },
	"NewFunc":               func() (any, bool) { return halide.NewFunc(""), true },
	"NewInterleavedBuffer":  func() (any, bool) { return halide.NewInterleavedBuffer[float32](-1, 0, -3), true },
	"NewImageParam":         func() (any, bool) { return halide.NewImageParam("", halide.Type{}, -1), true },
	"NewParam":              func() (any, bool) { return halide.NewParam[bool](""), true },
	"NewPipeline":           func() (any, bool) { return halide.NewPipeline(nil), true },
	"NewRDom":               func() (any, bool) { return halide.NewRDom(""), true },
	"NewRVar":               func() (any, bool) { return halide.NewRVar(""), true },
	"NewVar":                func() (any, bool) { return halide.NewVar(""), true },
	"Outermost":             func() (any, bool) { return halide.Outermost(), false },
	"Not":                   func() (any, bool) { return halide.Not(halide.Var{}), true },
	"ParseTarget":           func() (any, bool) { _, err := halide.ParseTarget("no such target"); return err, true },
	"Pow":                   func() (any, bool) { return halide.Pow(nil, nil), true },
	"Product":               func() (any, bool) { return halide.Product(nil), true },
	"Range":                 func() (any, bool) { return halide.Range(nil, nil), false },
	"RepeatImage":           func() (any, bool) { return halide.RepeatImage(nil, halide.Range(nil, 1)), true },
	"RepeatEdge":            func() (any, bool) { return halide.RepeatEdge(&halide.ImageParam{}), true },
	"Round":                 func() (any, bool) { return halide.Round(halide.Dimension{}.Min()), true },
	"Select":                func() (any, bool) { return halide.Select(nil, nil, nil), true },
	"Sqrt":                  func() (any, bool) { return halide.Sqrt(&halide.Buffer[float32]{}), true },
	"Sum":                   func() (any, bool) { return halide.Sum(halide.RVar{}), true },
	"Argmax":                func() (any, bool) { return halide.Argmax(halide.Expr{}), true },
	"Argmin":                func() (any, bool) { return halide.Argmin((*halide.RDom)(nil)), true },
	"NewTuple":              func() (any, bool) { return halide.NewTuple(), true },
	"ImplicitVar":           func() (any, bool) { return halide.ImplicitVar(-1), true },
	"SelectTuple":           func() (any, bool) { return halide.SelectTuple(nil, halide.Tuple{}, halide.Tuple{}), true },
	"MuxTuple":              func() (any, bool) { return halide.MuxTuple(nil), true },
	"Unbounded":             func() (any, bool) { return halide.Unbounded(), false },
	"UnsafePromiseClamped":  func() (any, bool) { return halide.UnsafePromiseClamped(halide.Expr{}, 0, 1), true },
}

// skipped are methods not called on the real receivers, with the reason.
var skipped = map[string]string{}

// exported returns the exported types and functions declared in the
// package halide's non-test source.
func exported(t *testing.T) (types, funcs []string) {
	t.Helper()
	files, err := filepath.Glob("../../halide/*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no source of package halide: %v", err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.IsExported() {
					funcs = append(funcs, d.Name.Name)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if ts, ok := s.(*ast.TypeSpec); ok && ts.Name.IsExported() {
						types = append(types, ts.Name.Name)
					}
				}
			}
		}
	}
	sort.Strings(types)
	sort.Strings(funcs)
	return types, funcs
}

// nilTally counts what the calls found.
type nilTally struct {
	methods  map[string]bool // Type.Method called at least once
	calls    int
	panics   []string
	internal []string
	silent   []string // bad receivers whose results carried no error
	notTyped []string
}

// carried returns the error a result carries, and whether the result is
// of a kind that can carry one.
func carried(v any) (error, bool) {
	switch r := v.(type) {
	case *halide.Error:
		if r == nil { // (*Error)(nil).WithLegal
			return nil, true
		}
		return r, true
	case error:
		return r, true
	case *halide.Func:
		if r == nil {
			return nil, true
		}
		if err := r.Err(); err != nil {
			return err, true
		}
		// A Func records errors that its pipeline returns.
		_, err := halide.NewPipeline(r).Lower()
		return err, true
	case halide.Expr:
		return r.Err(), true
	case halide.Tuple:
		return r.Err(), true
	case halide.Var:
		return r.Err(), true
	case halide.RVar:
		return r.Err(), true
	case *halide.Stage:
		return r.Err(), true
	case *halide.Pipeline:
		_, err := r.Lower()
		if err == nil {
			err = r.Compile()
		}
		return err, true
	case *halide.Lowered:
		return r.Realize(halide.NewBuffer[float32](4)), true
	case *halide.Buffer[float32]:
		return r.Err(), true
	case *halide.Buffer[bool]:
		return r.Err(), true
	case *halide.Buffer[uint64]:
		return r.Err(), true
	}
	return nil, false
}

// judge records the outcome of one call.
func (n *nilTally) judge(what string, bad bool, results []any, panicked any) {
	n.calls++
	if panicked != nil {
		n.panics = append(n.panics, fmt.Sprintf("%s: %v", what, panicked))
		return
	}
	anyErr, canCarry := false, false
	for _, r := range results {
		err, ok := safeCarried(r)
		canCarry = canCarry || ok
		if err == nil {
			continue
		}
		anyErr = true
		var he *halide.Error
		if !errors.As(err, &he) {
			if _, isCode := err.(halide.ErrorCode); !isCode {
				n.notTyped = append(n.notTyped, fmt.Sprintf("%s: %T %v", what, err, err))
			}
			continue
		}
		if he.Code == halide.ErrInternal {
			n.internal = append(n.internal, fmt.Sprintf("%s: %v", what, firstLine(he.Error())))
		}
	}
	if bad && canCarry && !anyErr {
		n.silent = append(n.silent, what)
	}
}

// safeCarried is carried, with a panic in the follow-up calls (Lower,
// Realize) reported as an error that is not a *halide.Error.
func safeCarried(v any) (err error, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			err, ok = fmt.Errorf("PANIC in a follow-up call: %v", r), true
		}
	}()
	return carried(v)
}

// argSets returns the argument lists to call a method of type ft with:
// all zero values; variadic ones with one zero element; ints -1.
func argSets(ft reflect.Type) [][]reflect.Value {
	build := func(intVal int64, variadicOne bool) []reflect.Value {
		var args []reflect.Value
		for i := 0; i < ft.NumIn(); i++ {
			pt := ft.In(i)
			if ft.IsVariadic() && i == ft.NumIn()-1 {
				if variadicOne {
					args = append(args, zeroOf(pt.Elem(), intVal))
				}
				continue
			}
			args = append(args, zeroOf(pt, intVal))
		}
		return args
	}
	return [][]reflect.Value{build(0, false), build(0, true), build(-1, true)}
}

// zeroOf is the zero value of t, or v for an integer type.
func zeroOf(t reflect.Type, v int64) reflect.Value {
	z := reflect.New(t).Elem()
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		z.SetInt(v)
	}
	return z
}

func callSafely(m reflect.Value, args []reflect.Value) (out []any, panicked any) {
	defer func() { panicked = recover() }()
	for _, r := range m.Call(args) {
		out = append(out, r.Interface())
	}
	return out, nil
}

// TestNilAndZeroReceivers is the bad-input campaign over the whole API.
func TestNilAndZeroReceivers(t *testing.T) {
	types, funcs := exported(t)
	n := &nilTally{methods: map[string]bool{}}
	for _, name := range types {
		recs, ok := receivers[name]
		if !ok {
			t.Errorf("exported type %s has no entry in receivers: add its nil and zero values", name)
			continue
		}
		for _, rec := range recs {
			v := reflect.ValueOf(rec.make())
			for i := 0; i < v.Type().NumMethod(); i++ {
				mname := v.Type().Method(i).Name
				key := name + "." + mname
				if _, skip := skipped[key]; skip && !rec.bad {
					continue
				}
				n.methods[key] = true
				for k, args := range argSets(v.Method(i).Type()) {
					recv := reflect.ValueOf(rec.make()) // fresh: calls mutate
					out, p := callSafely(recv.Method(i), args)
					what := fmt.Sprintf("%s.%s (args %d)", rec.label, mname, k)
					n.judge(what, rec.bad, out, p)
					// A directive on a real Func records its error for
					// the pipeline: lower it too.
					if f, ok := recv.Interface().(*halide.Func); ok && p == nil {
						_, lp := callSafely(reflect.ValueOf(func() error {
							_, err := halide.NewPipeline(f).Lower()
							return err
						}), nil)
						if lp != nil {
							n.panics = append(n.panics, fmt.Sprintf("Lower after %s: %v", what, lp))
						}
					}
				}
			}
		}
	}
	for _, name := range funcs {
		call, ok := functions[name]
		if !ok {
			t.Errorf("exported function %s has no entry in functions: add a call with nil or zero arguments", name)
			continue
		}
		var res any
		var bad bool
		_, p := callSafely(reflect.ValueOf(func() { res, bad = call() }), nil)
		n.judge(name, bad, []any{res}, p)
	}
	for _, l := range [][]string{n.panics, n.internal, n.notTyped, n.silent} {
		sort.Strings(l)
	}
	for _, s := range n.panics {
		t.Errorf("panic: %s", s)
	}
	for _, s := range n.internal {
		t.Errorf("ErrInternal for a user mistake: %s", s)
	}
	for _, s := range n.notTyped {
		t.Errorf("error that is not a *halide.Error: %s", s)
	}
	for _, s := range n.silent {
		t.Errorf("no error from a nil or zero receiver: %s", s)
	}
	t.Logf("%d exported methods on %d types and %d exported functions, %d calls: %d panics, %d internal errors, %d untyped errors, %d silent",
		len(n.methods), len(types), len(funcs), n.calls, len(n.panics), len(n.internal), len(n.notTyped), len(n.silent))
}

// TestNilHandWritten covers what reflection cannot: calls whose arguments
// must be built (zero Funcs and Stages as consumers, nil inputs to
// Realize), each with the error it must give.
func TestNilHandWritten(t *testing.T) {
	defined := func() *halide.Func { f := halide.NewFunc("f"); f.Define(x).Is(x); return f }
	runCases(t, []errCase{
		{
			name: "Define on a nil Func",
			run: func() error {
				var f *halide.Func
				return f.Define(x).Is(1).Err()
			},
			code: halide.ErrNilObject, directive: "Define", mentions: []string{"nil *Func"},
		},
		{
			name: "Split, ComputeRoot and Update on a nil Func",
			run: func() error {
				var f *halide.Func
				if err := f.Split(x, xo, xi, 4).Err(); err == nil {
					return fmt.Errorf("Split: no error")
				}
				if err := f.ComputeRoot().Err(); err == nil {
					return fmt.Errorf("ComputeRoot: no error")
				}
				return f.Update(0).Err()
			},
			code: halide.ErrNilObject, directive: "Update",
		},
		{
			name: "Define on a zero Func, reported by Lower",
			run: func() error {
				f := &halide.Func{}
				f.Define(x).Is(1)
				if f.Name() != "" {
					return fmt.Errorf("Name = %q", f.Name())
				}
				return lowerErr(f)
			},
			code: halide.ErrNilObject, directive: "Define", mentions: []string{"zero Func"},
		},
		{
			name: "compute_at a zero Func",
			run: func() error {
				b := newBlur()
				b.g.ComputeAt(&halide.Func{}, x)
				return lowerErr(b.f)
			},
			code: halide.ErrComputeAt, fn: "g", directive: "compute_at", mentions: []string{"nil"},
		},
		{
			name: "compute_at a zero Stage",
			run: func() error {
				b := newBlur()
				b.g.ComputeAtStage(&halide.Stage{}, x)
				return lowerErr(b.f)
			},
			code: halide.ErrComputeAt, fn: "g", directive: "compute_at",
		},
		{
			name: "directive on a nil Stage",
			run: func() error {
				var s *halide.Stage
				return s.Split(x, xo, xi, 2).Parallel(xo).Err()
			},
			code: halide.ErrNilObject, directive: "Stage",
		},
		{
			name: "Set and Dim of a nil ImageParam",
			run: func() error {
				var in *halide.ImageParam
				in.Set(halide.NewBuffer[float32](4))
				return in.Dim(0).Extent().Err()
			},
			code: halide.ErrNilObject, directive: "ImageParam",
		},
		{
			name: "Dims and Fill of a nil Buffer",
			run: func() error {
				var b *halide.Buffer[float32]
				b.Fill(func([]int) float32 { return 1 })
				if b.Dims() != 0 || b.Get() != 0 || b.Dim(3) != (halide.BufDim{}) {
					return fmt.Errorf("a nil Buffer is not empty")
				}
				return b.Err()
			},
			code: halide.ErrNilObject, directive: "Buffer",
		},
		{
			name: "Get of a zero Buffer",
			run: func() error {
				b := &halide.Buffer[int32]{}
				if v := b.Get(0, 1); v != 0 {
					return fmt.Errorf("Get = %d", v)
				}
				return b.Err()
			},
			code: halide.ErrNilObject, directive: "Buffer", mentions: []string{"zero Buffer"},
		},
		{
			name: "Realize into a zero Buffer",
			run: func() error {
				return defined().Realize(&halide.Buffer[int32]{})
			},
			code: halide.ErrNilObject, fn: "f", directive: "Realize",
		},
		{
			name: "X of a nil RDom",
			run: func() error {
				var r *halide.RDom
				return r.X().Err()
			},
			code: halide.ErrNilObject, directive: "RDom",
		},
		{
			name: "Set of a nil Param, then a pipeline that reads it",
			run: func() error {
				var k *halide.Param[int32]
				k.Set(3)
				f := halide.NewFunc("f")
				f.Define(x).Is(x.Add(k))
				return lowerErr(f)
			},
			code: halide.ErrNilObject, fn: "f", directive: "Define",
		},
		{
			name: "WithTarget on a nil Pipeline",
			run: func() error {
				var p *halide.Pipeline
				return p.WithTarget(halide.Emulator).Realize(halide.NewBuffer[int32](4))
			},
			code: halide.ErrNilObject, directive: "WithTarget",
		},
		{
			name: "Realize into nil",
			run: func() error {
				return defined().Realize(nil)
			},
			code: halide.ErrNilObject, fn: "f", directive: "Realize", mentions: []string{"output buffer is nil"},
		},
	})
}
