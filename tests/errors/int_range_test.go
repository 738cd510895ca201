package errors_test

// Go ints are 64 bits; Halide's coordinates, extents, mins and RVars are
// int32 (buffer_t, and element offsets without LargeBuffers). A value that
// does not fit must be refused with a typed error that says what would be
// legal, never truncated (issue 8, defect 8). Each error case has an
// in-range neighbour below that still works.

import (
	"fmt"
	"math"
	"testing"

	"github.com/gohalide/gohalide/halide"
)

// The int32 limits the messages state (math.MaxInt32, math.MinInt32).
const (
	maxI32 = "2147483647"
	minI32 = "-2147483648"
)

// ramp is f(x, y) = x + y as float32.
func ramp() *halide.Func {
	f := halide.NewFunc("f")
	f.Define(x, y).Is(halide.Cast(halide.Float32, x.Add(y)))
	return f
}

// copyIn is f(x, y) = in(x, y) for a float32 input in.
func copyIn() (*halide.ImageParam, *halide.Func) {
	in := halide.NewImageParam("in", halide.Float32, 2)
	f := halide.NewFunc("f")
	f.Define(x, y).Is(in.At(x, y))
	return in, f
}

// sumOver is f(x) = x + sum over r of (r - r.min), as int32.
func sumOver(r *halide.RDom, rmin any) *halide.Func {
	f := halide.NewFunc("f")
	f.Define(x).Is(x.Add(halide.Sum(r.X().Sub(rmin))))
	return f
}

func TestIntRangeBufferShape(t *testing.T) {
	runCases(t, []errCase{
		{
			name: "output min of 2^33",
			run: func() error {
				out := halide.NewBuffer[float32](4, 4).SetName("out").SetMin(1<<33, 0)
				return ramp().Realize(out)
			},
			code: halide.ErrBufferShape, fn: "f", directive: "Realize",
			mentions: []string{"output buffer", "out", "dimension 0", "8589934592"},
			// 2147483643 = 2^31-1 - extent 4.
			legal: []string{minI32, "2147483643"},
		},
		{
			name: "output min of -2^33",
			run: func() error {
				out := halide.NewBuffer[float32](4, 4).SetName("out").SetMin(0, -(1 << 33))
				return ramp().Realize(out)
			},
			code: halide.ErrBufferShape, fn: "f", directive: "Realize",
			mentions: []string{"out", "dimension 1", "-8589934592"},
			legal:    []string{minI32},
		},
		{
			// min+extent = 2^31 is one past the largest int32.
			name: "output min of 2^31-extent",
			run: func() error {
				out := halide.NewBuffer[float32](4, 4).SetName("out").SetMin(math.MaxInt32-3, 0)
				return ramp().Realize(out)
			},
			code: halide.ErrBufferShape, fn: "f", directive: "Realize",
			mentions: []string{"out", "2147483644"},
			legal:    []string{"2147483643"},
		},
		{
			name: "input min of 2^33",
			run: func() error {
				in, f := copyIn()
				in.Set(halide.NewBuffer[float32](6, 4).SetName("img").SetMin(1<<33, 0))
				return f.Realize(halide.NewBuffer[float32](4, 4))
			},
			code: halide.ErrBufferShape, fn: "f", directive: "Realize",
			mentions: []string{"input in", "img", "8589934592"},
			legal:    []string{"2147483641"}, // 2^31-1 - extent 6
		},
		{
			name: "NewBuffer of 2^40 x 2^40 as the output",
			run: func() error {
				out := halide.NewBuffer[float32](1<<40, 1<<40).SetName("huge")
				return ramp().Realize(out)
			},
			code: halide.ErrBufferShape, fn: "f", directive: "Realize",
			mentions: []string{"huge", "1099511627776 x 1099511627776", "extent 1099511627776"},
			legal:    []string{"[0, " + maxI32 + "]"},
		},
		{
			name: "NewBuffer of 2^40 x 2^40 as an input",
			run: func() error {
				in, f := copyIn()
				in.Set(halide.NewBuffer[float32](1<<40, 1<<40).SetName("huge"))
				return f.Realize(halide.NewBuffer[float32](4, 4))
			},
			code: halide.ErrBufferShape, fn: "f", directive: "Realize",
			mentions: []string{"input in", "huge", "1099511627776 x 1099511627776"},
			legal:    []string{maxI32},
		},
		{
			name: "negative extent",
			run: func() error {
				out := halide.NewBuffer[float32](-1, 4).SetName("neg")
				return ramp().Realize(out)
			},
			code: halide.ErrBufferShape, fn: "f", directive: "Realize",
			mentions: []string{"neg", "extent -1"},
			legal:    []string{"[0, " + maxI32 + "]"},
		},
		{
			// Each extent fits int32; 2^16 * 2^16 = 2^32 elements do not.
			name: "2^32 elements",
			run: func() error {
				out := halide.NewBuffer[float32](1<<16, 1<<16).SetName("big")
				return ramp().Realize(out)
			},
			code: halide.ErrBufferShape, fn: "f", directive: "Realize",
			mentions: []string{"big", "65536 x 65536", "more than " + maxI32 + " elements"},
			legal:    []string{maxI32 + " elements"},
		},
		{
			// (2^31-1)^3 overflows int64: the count must not wrap.
			name: "element count overflowing int64",
			run: func() error {
				in, f := copyIn()
				in.Set(halide.NewBuffer[float32](math.MaxInt32, math.MaxInt32, math.MaxInt32, math.MaxInt32))
				return f.Realize(halide.NewBuffer[float32](4, 4))
			},
			// The dimension count is checked after the shape.
			code: halide.ErrBufferShape, fn: "f", directive: "Realize",
			mentions: []string{"input in", "more than " + maxI32},
		},
		{
			// An extent of 2^31 is refused even when another is 0.
			name: "extent 2^31 of an empty buffer",
			run: func() error {
				return ramp().Realize(halide.NewBuffer[float32](1<<31, 0))
			},
			code: halide.ErrBufferShape, fn: "f", directive: "Realize",
			mentions: []string{"2147483648"},
			legal:    []string{maxI32},
		},
	})
}

// A buffer outside the limits has no data, says why with Err, and its
// accessors do nothing rather than panic.
func TestIntRangeBadBufferAccessors(t *testing.T) {
	for _, tc := range []struct {
		name      string
		b         *halide.Buffer[float32]
		directive string
		mentions  []string
	}{
		{"2^40 x 2^40", halide.NewBuffer[float32](1<<40, 1<<40), "NewBuffer", []string{"1099511627776 x 1099511627776"}},
		{"negative extent", halide.NewBuffer[float32](3, -2), "NewBuffer", []string{"extent -2"}},
		{"2^32 elements", halide.NewBuffer[float32](1<<16, 1<<16), "NewBuffer", []string{"more than " + maxI32}},
		{"min 2^33", halide.NewBuffer[float32](2, 2).SetMin(1<<33, 0), "SetMin", []string{"8589934592"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := tc.b
			check(t, safely(b.Err), halide.ErrBufferShape, "", tc.directive, tc.mentions...)
			err := safely(func() error {
				m0, m1 := b.Dim(0).Min, b.Dim(1).Min
				_ = b.Get(m0, m1)
				b.Set(1, m0, m1)
				b.Fill(func([]int) float32 { return 2 })
				_ = b.Data()
				_ = b.Shape()
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
	// A min outside int32 does not stop the buffer holding data in Go.
	b := halide.NewBuffer[float32](2, 2).SetMin(1<<33, 0)
	b.Fill(func(c []int) float32 { return float32(c[1]) })
	b.Set(7, 1<<33+1, 1)
	if got := b.Get(1<<33+1, 1); got != 7 {
		t.Errorf("Get after Set = %v, want 7", got)
	}
	// Moving it back into range makes it usable.
	b.SetMin(0, 0)
	if err := b.Err(); err != nil {
		t.Errorf("Err after SetMin(0, 0) = %v, want nil", err)
	}
}

// In-range neighbours of the buffer cases work.
func TestIntRangeBufferNeighbours(t *testing.T) {
	// f(x) = x - (2^31-1-4): the output's last coordinate is 2^31-2.
	const m = math.MaxInt32 - 4
	f := halide.NewFunc("f")
	f.Define(x).Is(x.Sub(m))
	out := halide.NewBuffer[int32](4).SetMin(m)
	if err := out.Err(); err != nil {
		t.Fatalf("Err() = %v", err)
	}
	if err := f.Realize(out); err != nil {
		t.Fatalf("Realize with min 2^31-1-extent: %v", err)
	}
	for i := 0; i < 4; i++ {
		if got := out.Get(m + i); got != int32(i) {
			t.Errorf("out(%d) = %d, want %d", m+i, got, i)
		}
	}
	// The smallest min.
	g := halide.NewFunc("g")
	g.Define(x).Is(x.Add(1 << 30).Add(1 << 30))
	lo := halide.NewBuffer[int32](3).SetMin(math.MinInt32)
	if err := g.Realize(lo); err != nil {
		t.Fatalf("Realize with min -2^31: %v", err)
	}
	if got := lo.Get(math.MinInt32 + 2); got != 2 {
		t.Errorf("lo(-2^31+2) = %d, want 2", got)
	}
	// An input with min 2^31-1-extent.
	in, h := copyIn()
	ib := halide.NewBuffer[float32](4, 4).SetMin(m, 0)
	ib.Fill(func(c []int) float32 { return float32(c[0]-m) + 10*float32(c[1]) })
	in.Set(ib)
	ob := halide.NewBuffer[float32](4, 4).SetMin(m, 0)
	if err := h.Realize(ob); err != nil {
		t.Fatalf("Realize with an input at min 2^31-1-extent: %v", err)
	}
	if got := ob.Get(m+3, 2); got != 23 {
		t.Errorf("out(m+3, 2) = %v, want 23", got)
	}
	// An extent of 2^31-1 is legal when the buffer is empty.
	if err := halide.NewBuffer[uint8](math.MaxInt32, 0).Err(); err != nil {
		t.Errorf("NewBuffer(2^31-1, 0).Err() = %v", err)
	}
}

func TestIntRangeRDom(t *testing.T) {
	runCases(t, []errCase{
		{
			name: "RDom extent of 2^40 (int64)",
			run: func() error {
				r := halide.NewRDom("r", halide.Range(0, int64(1<<40)))
				return lowerErr(sumOver(r, 0))
			},
			code: halide.ErrType, fn: "f", directive: "RDom",
			mentions: []string{"extent", "RDom r", "1099511627776", "int32"},
			legal:    []string{minI32, maxI32},
		},
		{
			name: "RDom extent of 2^40 (Go int)",
			run: func() error {
				r := halide.NewRDom("r", halide.Range(0, 1<<40))
				return lowerErr(sumOver(r, 0))
			},
			code: halide.ErrType, fn: "f", directive: "Define",
			mentions: []string{"1099511627776", "int32"},
			legal:    []string{maxI32},
		},
		{
			name: "RDom extent of 2^40 (uint64)",
			run: func() error {
				r := halide.NewRDom("r", halide.Range(0, uint64(1<<40)))
				return lowerErr(sumOver(r, 0))
			},
			code: halide.ErrType, fn: "f", directive: "RDom",
			mentions: []string{"extent", "1099511627776"},
			legal:    []string{maxI32},
		},
		{
			name: "RDom min of 2^35",
			run: func() error {
				r := halide.NewRDom("r", halide.Range(int64(1<<35), 4))
				return lowerErr(sumOver(r, 0))
			},
			code: halide.ErrType, fn: "f", directive: "RDom",
			mentions: []string{"min", "RDom r", "34359738368"},
			legal:    []string{minI32, maxI32},
		},
		{
			name: "RDom running past 2^31-1",
			run: func() error {
				r := halide.NewRDom("r", halide.Range(math.MaxInt32-5, 10))
				return lowerErr(sumOver(r, 0))
			},
			code: halide.ErrType, fn: "f", directive: "RDom",
			mentions: []string{"RDom r", "2147483642", "2147483651"},
			legal:    []string{maxI32},
		},
		{
			name: "Param[int64] RDom extent of 2^40",
			run: func() error {
				n := halide.NewParam[int64]("n")
				n.Set(1 << 40)
				r := halide.NewRDom("r", halide.Range(0, n))
				return sumOver(r, 0).Realize(halide.NewBuffer[int32](2))
			},
			code: halide.ErrType, fn: "f", directive: "Realize",
			mentions: []string{"extent", "RDom r", "n", "1099511627776"},
			legal:    []string{maxI32},
		},
		{
			name: "Param[int64] RDom min of 2^35",
			run: func() error {
				m := halide.NewParam[int64]("m")
				m.Set(1 << 35)
				r := halide.NewRDom("r", halide.Range(m, 3))
				return sumOver(r, 0).Realize(halide.NewBuffer[int32](2))
			},
			code: halide.ErrType, fn: "f", directive: "Realize",
			mentions: []string{"min", "RDom r", "34359738368"},
			legal:    []string{minI32},
		},
		{
			name: "Param[uint32] RDom extent of 2^31",
			run: func() error {
				n := halide.NewParam[uint32]("n")
				n.Set(1 << 31)
				r := halide.NewRDom("r", halide.Range(0, n))
				return sumOver(r, 0).Realize(halide.NewBuffer[int32](2))
			},
			code: halide.ErrType, fn: "f", directive: "Realize",
			mentions: []string{"extent", "2147483648"},
		},
		{
			name: "Param[int32] RDom running past 2^31-1",
			run: func() error {
				m := halide.NewParam[int32]("m")
				m.Set(math.MaxInt32 - 1)
				r := halide.NewRDom("r", halide.Range(m, 3))
				return sumOver(r, 0).Realize(halide.NewBuffer[int32](2))
			},
			code: halide.ErrType, fn: "f", directive: "Realize",
			mentions: []string{"RDom r", "2147483646", "2147483648"},
			legal:    []string{maxI32},
		},
	})
}

func TestIntRangeRDomNeighbours(t *testing.T) {
	// sum over r in [2^31-10, 2^31) of (r - (2^31-10)) = 0 + ... + 9 = 45.
	const m = math.MaxInt32 - 9
	for _, tc := range []struct {
		name string
		rdom func() *halide.RDom
	}{
		{"constants", func() *halide.RDom { return halide.NewRDom("r", halide.Range(m, 10)) }},
		{"int64 constants", func() *halide.RDom { return halide.NewRDom("r", halide.Range(int64(m), int64(10))) }},
		{"Param[int64]", func() *halide.RDom {
			p, n := halide.NewParam[int64]("p"), halide.NewParam[int64]("n")
			p.Set(m)
			n.Set(10)
			return halide.NewRDom("r", halide.Range(p, n))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := halide.NewBuffer[int32](2)
			if err := sumOver(tc.rdom(), m).Realize(out); err != nil {
				t.Fatal(err)
			}
			if got := out.Get(1); got != 46 {
				t.Errorf("out(1) = %d, want 1 + 45", got)
			}
		})
	}
}

func TestIntRangeLiterals(t *testing.T) {
	def := func(e halide.Expr) func() error {
		return func() error {
			f := halide.NewFunc("f")
			f.Define(x).Is(e)
			return lowerErr(f)
		}
	}
	cases := []errCase{
		{
			// It was x - 1.
			name: "x + uint64(MaxUint64)",
			run:  def(x.Add(uint64(math.MaxUint64))),
			code: halide.ErrType, fn: "f", directive: "+",
			mentions: []string{"18446744073709551615", "int32"},
			legal:    []string{minI32, maxI32},
		},
		{
			name: "int64(x) + uint64(MaxUint64)",
			run:  def(halide.Cast(halide.Int64, x).Add(uint64(math.MaxUint64))),
			code: halide.ErrType, fn: "f", directive: "+",
			mentions: []string{"18446744073709551615", "int64"},
			legal:    []string{"9223372036854775807"},
		},
		{
			name: "uint64(x) - int64(-1)",
			run:  def(halide.Cast(halide.UInt64, x).Sub(int64(-1))),
			code: halide.ErrType, fn: "f", directive: "-",
			mentions: []string{"-1", "uint64"},
			legal:    []string{"18446744073709551615"},
		},
		{
			name: "Select(cond, int32, uint64(2^40))",
			run:  def(halide.Select(x.Gt(0), x, uint64(1<<40))),
			code: halide.ErrType, fn: "f", directive: "select",
			mentions: []string{"1099511627776", "int32"},
		},
		{
			name: "Clamped(uint8(x), 0, 300)",
			run:  def(halide.Cast(halide.Int32, halide.Clamped(halide.Cast(halide.UInt8, x), 0, 300))),
			code: halide.ErrType, fn: "f", directive: "promise_clamped",
			mentions: []string{"300", "uint8"},
			legal:    []string{"255"},
		},
		{
			name: "Lit(UInt8, 300)",
			run:  def(halide.Lit(halide.UInt8, 300)),
			code: halide.ErrType, fn: "f", directive: "Lit",
			mentions: []string{"300", "uint8"},
			legal:    []string{"[0, 255]"},
		},
		{
			name: "Lit(UInt64, 2^64)",
			run:  def(halide.Lit(halide.UInt64, math.Ldexp(1, 64))),
			code: halide.ErrType, fn: "f", directive: "Lit",
			mentions: []string{"uint64"},
			legal:    []string{"18446744073709551615"},
		},
		{
			name: "Inf(Int32)",
			run:  def(halide.Inf(halide.Int32)),
			code: halide.ErrType, fn: "f", directive: "Inf",
			mentions: []string{"int32"},
			legal:    []string{"Float32"},
		},
	}
	// Every Go integer kind whose value does not fit the int32 of x.
	for _, v := range []any{
		int(1 << 40), int(-1 << 40), int64(1 << 40), int64(math.MinInt64),
		uint(1 << 40), uint(math.MaxUint), uint32(math.MaxUint32), uint64(1 << 40), uint64(math.MaxUint64),
	} {
		s := fmt.Sprint(v)
		cases = append(cases, errCase{
			name: fmt.Sprintf("x + %T(%s)", v, s),
			run:  def(x.Add(v)),
			code: halide.ErrType, fn: "f",
			// A Go int or uint is an int32 or uint32 constant on its
			// own (E); the other kinds adapt to x in +.
			directive: map[bool]string{true: "Define", false: "+"}[isGoIntOrUint(v)],
			mentions:  []string{s},
		})
	}
	runCases(t, cases)
}

func isGoIntOrUint(v any) bool {
	switch v.(type) {
	case int, uint:
		return true
	}
	return false
}

func TestIntRangeLiteralNeighbours(t *testing.T) {
	// f(x) = x + c for constants of every kind that fit int32.
	for _, c := range []any{
		int(math.MaxInt32 - 10), int64(math.MaxInt32 - 10), int64(math.MinInt32 + 10),
		uint(5), uint32(math.MaxInt32 - 10), uint64(math.MaxInt32 - 10), int8(-3), uint16(7),
	} {
		t.Run(fmt.Sprintf("%T(%v)", c, c), func(t *testing.T) {
			f := halide.NewFunc("f")
			f.Define(x).Is(x.Add(c))
			out := halide.NewBuffer[int32](3)
			if err := f.Realize(out); err != nil {
				t.Fatal(err)
			}
			var want int32
			switch c := c.(type) {
			case int:
				want = int32(c)
			case int64:
				want = int32(c)
			case uint:
				want = int32(c)
			case uint32:
				want = int32(c)
			case uint64:
				want = int32(c)
			case int8:
				want = int32(c)
			case uint16:
				want = int32(c)
			}
			if got := out.Get(2); got != want+2 {
				t.Errorf("f(2) = %d, want %d", got, want+2)
			}
		})
	}
	// A uint64 constant above the largest int64 is a uint64, and a float.
	f := halide.NewFunc("f")
	f.Define(x).Is(halide.Cast(halide.Float32, x).Add(uint64(math.MaxUint64)))
	out := halide.NewBuffer[float32](1)
	if err := f.Realize(out); err != nil {
		t.Fatal(err)
	}
	if got := out.Get(0); got != float32(math.MaxUint64) {
		t.Errorf("float32(x) + uint64(MaxUint64) = %v, want %v", got, float32(math.MaxUint64))
	}
	g := halide.NewFunc("g")
	g.Define(x).Is(halide.Cast(halide.UInt64, x).Add(uint64(math.MaxUint64)))
	gout := halide.NewBuffer[uint64](2)
	if err := g.Realize(gout); err != nil {
		t.Fatal(err)
	}
	if got := gout.Get(1); got != 0 {
		t.Errorf("uint64(1) + MaxUint64 = %d, want 0 (wraps)", got)
	}
	if e := halide.Lit(halide.UInt64, math.Ldexp(1, 63)); e.Err() != nil {
		t.Errorf("Lit(UInt64, 2^63): %v", e.Err())
	}
}

func TestIntRangeCoordinates(t *testing.T) {
	runCases(t, []errCase{
		{
			// Halide: "Implicit cast from int64 to int in argument 1 in
			// call to f is not allowed. Use an explicit cast."
			name: "int64 coordinate",
			run: func() error {
				in, _ := copyIn()
				f := halide.NewFunc("g")
				f.Define(x, y).Is(in.At(halide.Cast(halide.Int64, x), y))
				return lowerErr(f)
			},
			code: halide.ErrType, fn: "g", directive: "call",
			mentions: []string{"argument 0 of in", "int64"},
			legal:    []string{"Cast(Int32"},
		},
		{
			name: "Param[int64] coordinate",
			run: func() error {
				in, _ := copyIn()
				p := halide.NewParam[int64]("p")
				f := halide.NewFunc("g")
				f.Define(x, y).Is(in.At(p, y))
				return lowerErr(f)
			},
			code: halide.ErrType, fn: "g", directive: "call",
			mentions: []string{"argument 0 of in", "int64"},
		},
		{
			name: "coordinate 2^40 (int64)",
			run: func() error {
				in, _ := copyIn()
				f := halide.NewFunc("g")
				f.Define(x, y).Is(in.At(x, int64(1<<40)))
				return lowerErr(f)
			},
			code: halide.ErrType, fn: "g", directive: "call",
			mentions: []string{"argument 1 of in", "1099511627776"},
			legal:    []string{maxI32},
		},
		{
			name: "Func called at uint64(MaxUint64)",
			run: func() error {
				g := halide.NewFunc("g")
				g.Define(x).Is(x)
				f := halide.NewFunc("f")
				f.Define(x).Is(g.At(uint64(math.MaxUint64)))
				return lowerErr(f)
			},
			code: halide.ErrType, fn: "g", directive: "call",
			mentions: []string{"argument 0 of g", "18446744073709551615"},
		},
	})
	// Neighbours: an explicit Cast, and constants of wide kinds that fit.
	in, _ := copyIn()
	f := halide.NewFunc("g")
	f.Define(x, y).Is(in.At(halide.Cast(halide.Int32, halide.Cast(halide.Int64, x)), uint64(1)).Add(in.At(int64(0), int16(1))))
	ib := halide.NewBuffer[float32](4, 4)
	ib.Fill(func(c []int) float32 { return float32(c[0] + 10*c[1]) })
	in.Set(ib)
	out := halide.NewBuffer[float32](4, 2)
	if err := f.Realize(out); err != nil {
		t.Fatal(err)
	}
	// g(3, y) = in(3, 1) + in(0, 1) = 13 + 10.
	if got := out.Get(3, 1); got != 23 {
		t.Errorf("g(3, 1) = %v, want 23", got)
	}
}

func TestIntRangeSetBoundsAndBound(t *testing.T) {
	runCases(t, []errCase{
		{
			name: "SetBounds min of 2^40",
			run: func() error {
				in, f := copyIn()
				in.Dim(0).SetBounds(int64(1<<40), 4)
				in.Set(halide.NewBuffer[float32](4, 4))
				return f.Realize(halide.NewBuffer[float32](4, 4))
			},
			code: halide.ErrType, fn: "", directive: "SetBounds",
			mentions: []string{"min of dimension 0 of in", "1099511627776"},
			legal:    []string{maxI32},
		},
		{
			name: "SetBounds extent Param[int64] of 2^32+4",
			run: func() error {
				in, f := copyIn()
				n := halide.NewParam[int64]("n")
				n.Set(1<<32 + 4) // wraps to 4, the buffer's extent
				in.Dim(0).SetBounds(0, n)
				in.Set(halide.NewBuffer[float32](4, 4))
				return f.Realize(halide.NewBuffer[float32](4, 4))
			},
			code: halide.ErrType, fn: "f", directive: "Realize",
			mentions: []string{"input in", "SetBounds", "4294967300"},
			legal:    []string{maxI32},
		},
		{
			name: "Bound extent Param[int64] of 2^32+4",
			run: func() error {
				n := halide.NewParam[int64]("n")
				n.Set(1<<32 + 4)
				f := halide.NewFunc("f")
				f.Define(x).Is(x)
				f.Bound(x, 0, n)
				return f.Realize(halide.NewBuffer[int32](4))
			},
			code: halide.ErrType, fn: "f", directive: "Realize",
			mentions: []string{"bound of f along x", "4294967300"},
			legal:    []string{maxI32},
		},
		{
			// Func.Bound casts its bounds to int32 (schedule.go); Realize
			// refuses a constant that wrapped.
			name: "Bound extent int64(2^32+4)",
			run: func() error {
				f := halide.NewFunc("f")
				f.Define(x).Is(x)
				f.Bound(x, 0, int64(1<<32+4))
				return f.Realize(halide.NewBuffer[int32](4))
			},
			code: halide.ErrType, fn: "f", directive: "Realize",
			mentions: []string{"bound of f along x", "constant 4294967300"},
			legal:    []string{maxI32},
		},
		{
			name: "SetBounds extent 1.5",
			run: func() error {
				in, f := copyIn()
				in.Dim(0).SetBounds(0, 1.5)
				in.Set(halide.NewBuffer[float32](4, 4))
				return f.Realize(halide.NewBuffer[float32](4, 4))
			},
			code: halide.ErrType, fn: "", directive: "SetBounds",
			mentions: []string{"extent of dimension 0 of in", "float32", "integer"},
		},
	})
	// Neighbour: a Param[int64] bound that fits.
	in, f := copyIn()
	n := halide.NewParam[int64]("n")
	n.Set(4)
	in.Dim(0).SetBounds(int64(0), n)
	in.Set(halide.NewBuffer[float32](4, 4))
	if err := f.Realize(halide.NewBuffer[float32](4, 4)); err != nil {
		t.Fatal(err)
	}
}
