package fuzz

import (
	"context"
	_ "embed"
	"fmt"
	"math"
	"math/rand"
	"strings"

	"github.com/gohalide/gohalide/halide"
)

// Instance is one algorithm built at one size: its Funcs, inputs and vars
// by name (so that a Schedule can be applied), and a Run that realizes a
// pipeline on random inputs and compares it with the plain-Go reference.
type Instance struct {
	Funcs  map[string]*halide.Func
	Images map[string]*halide.ImageParam
	Vars   map[string]halide.VarOrRVar
	Out    *halide.Func
	// Outs are the outputs of a pipeline with several outputs, in
	// NewPipeline's order (Out among them); nil for one output.
	Outs []*halide.Func
	// Run sets random inputs from seed, realizes p and returns a mismatch
	// summary ("" when the output matches the reference) or Realize's
	// error.
	Run func(ctx context.Context, p *halide.Pipeline, seed int64) (mismatch string, err error)
	// cases are the handles of the stages' specializations (OpSpecialize),
	// by caseKey; spec is the bool Param their conditions may test, made
	// by the first OpSpecialize that needs it (Run then sets it from the
	// seed).
	cases map[string]*halide.Stage
	spec  *halide.Param[bool]
}

// DimSpec is one loop of a stage, as the algorithm defines it.
type DimSpec struct {
	Name string
	RVar bool
}

// StageSpec is the loop structure of one stage, innermost first.
type StageSpec struct {
	Dims []DimSpec
	// Scatter marks an update whose left-hand side is data dependent:
	// its RVar loops may only run in parallel with Atomic.
	Scatter bool
	// Assoc marks an update f(args) = f(args) op e for an associative op
	// (PlusEq, ...), which the generator may rfactor.
	Assoc bool
	// Ordered marks an Assoc update whose op is not commutative (an
	// argmax: of equal keys the first wins): its partial results may not
	// be combined in parallel with Atomic.
	Ordered bool
}

// StageRef names a stage of a Func.
type StageRef struct {
	Func  string
	Stage int
}

// FuncSpec describes a Func for the generator.
type FuncSpec struct {
	Name   string
	Stages []StageSpec
	// Consumers are the stages whose definitions call this Func.
	Consumers []StageRef
	// ReducedIn are the Funcs that read this Func only inside an inline
	// reduction (an anonymous Func, which is the direct consumer): they
	// read it all the same (compute_with of the two is refused).
	ReducedIn []string
}

// WrapSpec is an In wrapper the generator may create: Src (a Func or an
// ImageParam) wrapped for Consumer; Dims are the wrapper's pure vars.
type WrapSpec struct {
	Src, Consumer string
	Dims          []string
	// ConsumerStages are the stages of Consumer that call Src.
	ConsumerStages []int
}

// WrapperName is the handle of Src.In(Consumer) (the library's name of it,
// which for an anonymous boundary Func is what the pipeline calls it).
func (w WrapSpec) WrapperName() string { return w.Src + "_in_" + w.Consumer }

// Algo is an algorithm the fuzzer schedules.
type Algo struct {
	Name string
	// Float says the output is compared with a tolerance (float32 against
	// a float64 reference); otherwise exactly (int32).
	Float bool
	// SizeNames and SizeMin/SizeMax bound the random sizes.
	SizeNames []string
	Sizes     func(rng *rand.Rand) []int
	// Funcs, output first, then producers after all their consumers.
	Funcs []FuncSpec
	Wraps []WrapSpec
	// Build makes an instance at sizes.
	Build func(sizes []int) *Instance
	// Source is Go code that builds the algorithm at sizes (for repros);
	// Known maps loop names and Func handles to Go expressions in it.
	Source func(sizes []int) string
	Known  map[string]string
	// PWindow is the share of compute_at draws that are sliding windows
	// (0: the generator's default).
	PWindow float64
	// Outputs are the outputs other than Funcs[0] of a pipeline with
	// several outputs: the schedule generator computes them at the root.
	Outputs []string
}

// Func returns the spec of Func name.
func (a *Algo) Func(name string) *FuncSpec {
	for i := range a.Funcs {
		if a.Funcs[i].Name == name {
			return &a.Funcs[i]
		}
	}
	return nil
}

// primes are the main extents: odd, and not multiples of the split
// factors the generator uses (2, 3, 4, 8, 16 and sometimes 5 or 7, which
// divide only 5 and 7 themselves).
var primes = []int{5, 7, 11, 13, 17, 19, 23, 29, 31, 37}

// prime returns a random prime in [lo, hi].
func prime(rng *rand.Rand, lo, hi int) int {
	var c []int
	for _, p := range primes {
		if p >= lo && p <= hi {
			c = append(c, p)
		}
	}
	return c[rng.Intn(len(c))]
}

// Tolerance is the relative tolerance of float outputs:
// |got - want| <= Tolerance * max(1, |want|), with want computed in
// float64 (the sums are short: float32 rounding stays near 1e-6).
const Tolerance = 1e-4

// nonzeroInt is a random int in [-9, 9] without 0.
func nonzeroInt(rng *rand.Rand) int32 {
	v := int32(rng.Intn(9) + 1)
	if rng.Intn(2) == 0 {
		v = -v
	}
	return v
}

// nonzeroFloat is a random float in ±[0.25, 1].
func nonzeroFloat(rng *rand.Rand) float32 {
	v := float32(0.25 + 0.75*rng.Float64())
	if rng.Intn(2) == 0 {
		v = -v
	}
	return v
}

// randomInput fills b with random values from rng (nonzeroInt or
// nonzeroFloat), sets it as p's buffer and returns it.
func randomInput[T int32 | float32](rng *rand.Rand, p *halide.ImageParam, b *halide.Buffer[T]) *halide.Buffer[T] {
	switch b := any(b).(type) {
	case *halide.Buffer[int32]:
		fillInt(rng, b)
	case *halide.Buffer[float32]:
		fillFloat(rng, b)
	}
	p.Set(b)
	return b
}

// instanceRun is the Run of an Instance: inputs sets random inputs from
// the seed and returns the reference on them, which compare (compareInt
// or compareFloat) checks the output, realized over ext, against.
func instanceRun[T int32 | float32, R any](ext []int, compare func(*halide.Buffer[T], R, []int) string, inputs func(rng *rand.Rand) R) func(context.Context, *halide.Pipeline, int64) (string, error) {
	return func(ctx context.Context, p *halide.Pipeline, seed int64) (string, error) {
		want := inputs(rand.New(rand.NewSource(seed)))
		out := halide.NewBuffer[T](ext...)
		if err := p.RealizeContext(ctx, out); err != nil {
			return "", err
		}
		return compare(out, want, ext), nil
	}
}

// int2D is an algorithm over a W×H int32 input in, values in ±[1, 9],
// read through padded, in with repeated edges, and realized over W×H:
// blur, stencil, bitops and argmax. algo makes its Algo.
type int2D struct {
	name string
	// note ends the first line of Source.
	note string
	// maxW and maxH bound the sizes, primes from 5.
	maxW, maxH int
	pWindow    float64
	// funcs are the Funcs, output first, but for padded, which paddedBy
	// (stage 0) reads.
	funcs    []FuncSpec
	paddedBy string
	wraps    []WrapSpec
	// rdom gives define r, an RDom over [0, W) (the loop r$x).
	rdom bool
	// define defines the Funcs but padded, by name; source returns the Go
	// of those definitions (for Source).
	define func(v int2DVars) map[string]*halide.Func
	source func() string
	// want returns the reference on the input ib.
	want func(ib *halide.Buffer[int32], W, H int) func(c []int) int64
}

// int2DVars are what an int2D algorithm's Funcs are defined over.
type int2DVars struct {
	x, y   halide.Var
	in     *halide.ImageParam
	padded *halide.Func
	r      *halide.RDom // with int2D.rdom
	W, H   int
}

// int2DSource is the Go of int2DVars' x, y, in and padded (for Source).
const int2DSource = `x, y := halide.NewVar("x"), halide.NewVar("y")
in := halide.NewImageParam("in", halide.Int32, 2) // [W, H], values in ±[1, 9]
padded := halide.RepeatEdge(in)
`

// xyFunc is the spec of a Func of one pure stage over x and y.
func xyFunc(name string, consumers ...StageRef) FuncSpec {
	return FuncSpec{Name: name, Stages: []StageSpec{{Dims: d("x", "y")}}, Consumers: consumers}
}

// xyWrap is the wrapper over x and y of src for stage 0 of consumer.
func xyWrap(src, consumer string) WrapSpec {
	return WrapSpec{Src: src, Consumer: consumer, Dims: []string{"x", "y"}, ConsumerStages: []int{0}}
}

func (a int2D) algo() *Algo {
	known := map[string]string{}
	if a.rdom {
		known["r$x"] = "r.X()"
	}
	out := a.funcs[0].Name
	return &Algo{
		Name:      a.name,
		PWindow:   a.pWindow,
		SizeNames: []string{"W", "H"},
		Sizes:     func(rng *rand.Rand) []int { return []int{prime(rng, 5, a.maxW), prime(rng, 5, a.maxH)} },
		Funcs:     append(a.funcs, xyFunc("padded", StageRef{a.paddedBy, 0})),
		Wraps:     a.wraps,
		Known:     known,
		Build: func(sz []int) *Instance {
			v := int2DVars{x: halide.NewVar("x"), y: halide.NewVar("y"), in: halide.NewImageParam("in", halide.Int32, 2), W: sz[0], H: sz[1]}
			v.padded = halide.RepeatEdge(v.in)
			vars := map[string]halide.VarOrRVar{"x": v.x, "y": v.y}
			if a.rdom {
				v.r = halide.NewRDom("r", halide.Range(0, v.W))
				vars["r$x"] = v.r.X()
			}
			funcs := a.define(v)
			funcs["padded"] = v.padded
			inst := &Instance{Funcs: funcs, Images: map[string]*halide.ImageParam{"in": v.in}, Vars: vars, Out: funcs[out]}
			inst.Run = instanceRun([]int{v.W, v.H}, compareInt, func(rng *rand.Rand) func(c []int) int64 {
				return a.want(randomInput(rng, v.in, halide.NewBuffer[int32](v.W, v.H)), v.W, v.H)
			})
			return inst
		},
		Source: func(sz []int) string {
			src := fmt.Sprintf("// %s, W = %d, H = %d%s\n", a.name, sz[0], sz[1], a.note) + int2DSource
			if a.rdom {
				src += `r := halide.NewRDom("r", halide.Range(0, W))` + "\n"
			}
			return src + a.source() + "// output: " + out + " realized over [W, H]\n"
		},
	}
}

// clampTo is the index in [0, n) that a RepeatEdge reads at v.
func clampTo(v, n int) int { return min(max(v, 0), n-1) }

func fillInt(rng *rand.Rand, b *halide.Buffer[int32]) {
	b.Fill(func([]int) int32 { return nonzeroInt(rng) })
}

func fillFloat(rng *rand.Rand, b *halide.Buffer[float32]) {
	b.Fill(func([]int) float32 { return nonzeroFloat(rng) })
}

// forEach calls f for every coordinate of the extents (dimension 0
// fastest).
func forEach(ext []int, f func(c []int)) {
	c := make([]int, len(ext))
	for _, e := range ext {
		if e <= 0 {
			return
		}
	}
	for {
		f(c)
		i := 0
		for ; i < len(c); i++ {
			c[i]++
			if c[i] < ext[i] {
				break
			}
			c[i] = 0
		}
		if i == len(c) {
			return
		}
	}
}

// compareInt compares an int32 output with its reference exactly.
func compareInt(got *halide.Buffer[int32], want func(c []int) int64, ext []int) string {
	bad, first := 0, ""
	forEach(ext, func(c []int) {
		g, w := int64(got.Get(c...)), want(c)
		if g != w {
			if bad == 0 {
				first = fmt.Sprintf("out%v = %d, want %d", c, g, w)
			}
			bad++
		}
	})
	if bad == 0 {
		return ""
	}
	return fmt.Sprintf("%d of %d points wrong; first: %s", bad, size(ext), first)
}

// compareFloat compares a float32 output with its float64 reference.
func compareFloat(got *halide.Buffer[float32], want func(c []int) float64, ext []int) string {
	bad, first := 0, ""
	forEach(ext, func(c []int) {
		g, w := float64(got.Get(c...)), want(c)
		rel := math.Abs(g-w) / math.Max(1, math.Abs(w))
		if !(rel <= Tolerance) {
			if bad == 0 {
				first = fmt.Sprintf("out%v = %.7g, want %.7g (relative error %.3g > %g)", c, g, w, rel, Tolerance)
			}
			bad++
		}
	})
	if bad == 0 {
		return ""
	}
	return fmt.Sprintf("%d of %d points wrong; first: %s", bad, size(ext), first)
}

func size(ext []int) int {
	n := 1
	for _, e := range ext {
		n *= e
	}
	return n
}

func d(names ...string) []DimSpec {
	out := make([]DimSpec, len(names))
	for i, n := range names {
		out[i] = DimSpec{Name: n, RVar: len(n) > 1 && containsDollar(n)}
	}
	return out
}

func containsDollar(s string) bool {
	for _, c := range s {
		if c == '$' {
			return true
		}
	}
	return false
}

// funcBody returns the body of the top-level function name in the Go
// source src up to its last return, one tab less indented.
func funcBody(src, name string) string {
	_, body, _ := strings.Cut(src, "\nfunc "+name+"(")
	body = body[strings.Index(body, "\n")+1:]
	body, _, _ = strings.Cut(body, "\n}\n")
	body = body[:strings.LastIndex(body, "\n\treturn ")+1]
	var b strings.Builder
	for _, l := range strings.SplitAfter(body, "\n") {
		b.WriteString(strings.TrimPrefix(l, "\t"))
	}
	return b.String()
}

// algosSource is this file.
//
//go:embed algos.go
var algosSource string

// Algos are the algorithms of the fuzzer.
var Algos = []*Algo{blurAlgo(), gemmAlgo(), conv1dAlgo(), histAlgo(), tensorProductAlgo(), depthwiseAlgo(), stencilAlgo(), bitopsAlgo(), argmaxAlgo()}

// AlgoByName returns the algorithm called name, or nil.
func AlgoByName(name string) *Algo {
	for _, a := range Algos {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// blur: a 3x3 box sum through an intermediate, with a RepeatEdge boundary
// (int32, exact).
func blurAlgo() *Algo {
	return int2D{
		name: "blur", note: " (int32)", maxW: 37, maxH: 23,
		funcs:    []FuncSpec{xyFunc("blury"), xyFunc("blurx", StageRef{"blury", 0})},
		paddedBy: "blurx",
		wraps:    []WrapSpec{xyWrap("padded", "blurx"), xyWrap("blurx", "blury")},
		define:   func(v int2DVars) map[string]*halide.Func { return blurFuncs(v.x, v.y, v.padded) },
		source:   func() string { return funcBody(algosSource, "blurFuncs") },
		want: func(ib *halide.Buffer[int32], W, H int) func(c []int) int64 {
			bx := func(x, y int) int64 {
				y = clampTo(y, H)
				return int64(ib.Get(clampTo(x-1, W), y)) + int64(ib.Get(clampTo(x, W), y)) + int64(ib.Get(clampTo(x+1, W), y))
			}
			return func(c []int) int64 {
				return bx(c[0], c[1]-1) + bx(c[0], c[1]) + bx(c[0], c[1]+1)
			}
		},
	}.algo()
}

// blurFuncs defines blur's Funcs: its body, but for the return, is the Go that
// Source prints (read from this file, algosSource).
func blurFuncs(x, y halide.Var, padded *halide.Func) map[string]*halide.Func {
	blurx := halide.NewFunc("blurx")
	blurx.Define(x, y).Is(padded.At(x.Sub(1), y).Add(padded.At(x, y)).Add(padded.At(x.Add(1), y)))
	blury := halide.NewFunc("blury")
	blury.Define(x, y).Is(blurx.At(x, y.Sub(1)).Add(blurx.At(x, y)).Add(blurx.At(x, y.Add(1))))
	return map[string]*halide.Func{"blury": blury, "blurx": blurx}
}

// gemm: prod(j, i) = 0; prod(j, i) += A(r, i) * B(j, r); gemm = prod
// (float32 against float64).
func gemmAlgo() *Algo {
	return &Algo{
		Name:      "gemm",
		Float:     true,
		SizeNames: []string{"M", "N", "K"},
		Sizes: func(rng *rand.Rand) []int {
			return []int{prime(rng, 5, 23), prime(rng, 5, 29), prime(rng, 5, 19)}
		},
		Funcs: []FuncSpec{
			{Name: "gemm", Stages: []StageSpec{{Dims: d("j", "i")}}},
			{Name: "prod", Stages: []StageSpec{{Dims: d("j", "i")}, {Dims: d("r$x", "j", "i"), Assoc: true}}, Consumers: []StageRef{{"gemm", 0}}},
		},
		Wraps: []WrapSpec{
			{Src: "A", Consumer: "prod", Dims: []string{"x", "y"}, ConsumerStages: []int{1}},
			{Src: "B", Consumer: "prod", Dims: []string{"x", "y"}, ConsumerStages: []int{1}},
			{Src: "prod", Consumer: "gemm", Dims: []string{"j", "i"}, ConsumerStages: []int{0}},
		},
		Known: map[string]string{"r$x": "r.X()"},
		Build: func(sz []int) *Instance {
			M, N, K := sz[0], sz[1], sz[2]
			inst := gemmInstance(K)
			inst.Run = instanceRun([]int{N, M}, compareFloat, func(rng *rand.Rand) func(c []int) float64 {
				// A halo on the pure-indexed dimensions (see pad).
				ab := randomInput(rng, inst.Images["A"], padded2[float32](K, M, true, true))
				bb := randomInput(rng, inst.Images["B"], padded2[float32](N, K, true, false))
				return func(c []int) float64 {
					s := 0.0
					for k := 0; k < K; k++ {
						s += float64(ab.Get(k, c[1])) * float64(bb.Get(c[0], k))
					}
					return s
				}
			})
			return inst
		},
		Source: func(sz []int) string {
			return fmt.Sprintf(`// gemm, M = %d, N = %d, K = %d (float32, checked against float64 with tolerance 1e-4)
`, sz[0], sz[1], sz[2]) + funcBody(algosSource, "gemmInstance") + "// output: gemm realized over [N, M]\n"
		},
	}
}

// gemmInstance defines gemm's Funcs: its body, up to the return, is the Go
// that Source prints (read from this file, algosSource).
func gemmInstance(K int) *Instance {
	j, i := halide.NewVar("j"), halide.NewVar("i")
	A := halide.NewImageParam("A", halide.Float32, 2) // [K, M] (+ a halo of 128)
	B := halide.NewImageParam("B", halide.Float32, 2) // [N, K] (+ a halo of 128 in N)
	r := halide.NewRDom("r", halide.Range(0, K))
	prod := halide.NewFunc("prod")
	prod.Define(j, i).Is(float32(0))
	prod.Define(j, i).PlusEq(A.At(r, i).Mul(B.At(j, r)))
	gemm := halide.NewFunc("gemm")
	gemm.Define(j, i).Is(prod.At(j, i))
	return &Instance{
		Funcs:  map[string]*halide.Func{"gemm": gemm, "prod": prod},
		Images: map[string]*halide.ImageParam{"A": A, "B": B},
		Vars:   map[string]halide.VarOrRVar{"j": j, "i": i, "r$x": r.X()},
		Out:    gemm,
	}
}

// conv1d: conv(x, b) = 0; conv(x, b) += padded(x + r - K/2, b) * w(r),
// padded = ConstantExterior(in, 0); the output has the update (int32).
func conv1dAlgo() *Algo {
	return &Algo{
		Name:      "conv1d",
		SizeNames: []string{"W", "NB", "K"},
		Sizes: func(rng *rand.Rand) []int {
			return []int{prime(rng, 7, 37), 1 + rng.Intn(3), []int{1, 3, 5, 7}[rng.Intn(4)]}
		},
		Funcs: []FuncSpec{
			{Name: "conv", Stages: []StageSpec{{Dims: d("x", "b")}, {Dims: d("r$x", "x", "b"), Assoc: true}}},
			{Name: "padded", Stages: []StageSpec{{Dims: d("x", "y")}}, Consumers: []StageRef{{"conv", 1}}},
		},
		Wraps: []WrapSpec{
			{Src: "w", Consumer: "conv", Dims: []string{"x"}, ConsumerStages: []int{1}},
			{Src: "padded", Consumer: "conv", Dims: []string{"x", "y"}, ConsumerStages: []int{1}},
		},
		Known: map[string]string{"r$x": "r.X()"},
		Build: func(sz []int) *Instance {
			W, NB, K := sz[0], sz[1], sz[2]
			inst := conv1dInstance(K)
			inst.Run = instanceRun([]int{W, NB}, compareInt, func(rng *rand.Rand) func(c []int) int64 {
				ib := randomInput(rng, inst.Images["in"], halide.NewBuffer[int32](W, NB))
				wb := randomInput(rng, inst.Images["w"], halide.NewBuffer[int32](K+2*pad).SetMin(-pad)) // a halo (see pad)
				return func(c []int) int64 {
					s := int64(0)
					for k := 0; k < K; k++ {
						if xx := c[0] + k - K/2; xx >= 0 && xx < W {
							s += int64(ib.Get(xx, c[1])) * int64(wb.Get(k))
						}
					}
					return s
				}
			})
			return inst
		},
		Source: func(sz []int) string {
			return fmt.Sprintf(`// conv1d, W = %d, NB = %d, K = %d (int32)
`, sz[0], sz[1], sz[2]) + funcBody(algosSource, "conv1dInstance") + "// output: conv realized over [W, NB]\n"
		},
	}
}

// conv1dInstance defines conv1d's Funcs: its body, up to the return, is the
// Go that Source prints (read from this file, algosSource).
func conv1dInstance(K int) *Instance {
	x, b := halide.NewVar("x"), halide.NewVar("b")
	in := halide.NewImageParam("in", halide.Int32, 2) // [W, NB]
	w := halide.NewImageParam("w", halide.Int32, 1)   // [K] (+ a halo of 128)
	padded := halide.ConstantExterior(in, int32(0))
	r := halide.NewRDom("r", halide.Range(0, K))
	conv := halide.NewFunc("conv")
	conv.Define(x, b).Is(int32(0))
	conv.Define(x, b).PlusEq(padded.At(x.Add(r).Sub(K/2), b).Mul(w.At(r)))
	return &Instance{
		Funcs:  map[string]*halide.Func{"conv": conv, "padded": padded},
		Images: map[string]*halide.ImageParam{"in": in, "w": w},
		Vars:   map[string]halide.VarOrRVar{"x": x, "b": b, "r$x": r.X()},
		Out:    conv,
	}
}

// hist: hist(b) = 0; hist(clamp(in(r.x, r.y), 0, NB-1)) += 1; out = hist
// (int32, a scatter with collisions).
func histAlgo() *Algo {
	return &Algo{
		Name:      "hist",
		SizeNames: []string{"W", "H", "NB"},
		Sizes: func(rng *rand.Rand) []int {
			return []int{prime(rng, 5, 31), prime(rng, 5, 19), prime(rng, 5, 13)}
		},
		Funcs: []FuncSpec{
			{Name: "out", Stages: []StageSpec{{Dims: d("b")}}},
			{Name: "hist", Stages: []StageSpec{{Dims: d("b")}, {Dims: d("r$x", "r$y"), Scatter: true, Assoc: true}}, Consumers: []StageRef{{"out", 0}}},
		},
		Wraps: []WrapSpec{
			{Src: "in", Consumer: "hist", Dims: []string{"x", "y"}, ConsumerStages: []int{1}},
			{Src: "hist", Consumer: "out", Dims: []string{"b"}, ConsumerStages: []int{0}},
		},
		Known: map[string]string{"r$x": "r.X()", "r$y": "r.Y()"},
		Build: func(sz []int) *Instance {
			W, H, NB := sz[0], sz[1], sz[2]
			inst := histInstance(W, H, NB)
			inst.Run = instanceRun([]int{NB}, compareInt, func(rng *rand.Rand) func(c []int) int64 {
				ib := padded2[int32](W, H, true, true) // a halo (see pad)
				// Values in [-2, NB+1]: some fall outside and are clamped.
				ib.Fill(func([]int) int32 { return int32(rng.Intn(NB+4) - 2) })
				inst.Images["in"].Set(ib)
				ref := make([]int64, NB)
				forEach([]int{W, H}, func(c []int) {
					ref[min(max(int(ib.Get(c[0], c[1])), 0), NB-1)]++
				})
				return func(c []int) int64 { return ref[c[0]] }
			})
			return inst
		},
		Source: func(sz []int) string {
			return fmt.Sprintf(`// hist, W = %d, H = %d, NB = %d (int32)
`, sz[0], sz[1], sz[2]) + funcBody(algosSource, "histInstance") + "// output: out realized over [NB]\n"
		},
	}
}

// histInstance defines hist's Funcs: its body, up to the return, is the Go
// that Source prints (read from this file, algosSource).
func histInstance(W, H, NB int) *Instance {
	b := halide.NewVar("b")
	in := halide.NewImageParam("in", halide.Int32, 2) // [W, H] (+ a halo of 128), values in [-2, NB+1]
	r := halide.NewRDom("r", halide.Range(0, W), halide.Range(0, H))
	hist := halide.NewFunc("hist")
	hist.Define(b).Is(int32(0))
	hist.Define(halide.Clamp(in.At(r.X(), r.Y()), 0, NB-1)).PlusEq(int32(1))
	out := halide.NewFunc("out")
	out.Define(b).Is(hist.At(b))
	return &Instance{
		Funcs:  map[string]*halide.Func{"out": out, "hist": hist},
		Images: map[string]*halide.ImageParam{"in": in},
		Vars:   map[string]halide.VarOrRVar{"b": b, "r$x": r.X(), "r$y": r.Y()},
		Out:    out,
	}
}

// tensorproduct: the gather / product / scatter pipeline of Halide issue
// #8427 (apps/algo/tensorproduct.go), float32 against float64, written
// here without SetBounds so that its inputs can have a halo (see pad).
func tensorProductAlgo() *Algo {
	return &Algo{
		Name:      "tensorproduct",
		Float:     true,
		SizeNames: []string{"C", "M", "N", "P", "InPoints", "OutPoints"},
		Sizes: func(rng *rand.Rand) []int {
			return []int{prime(rng, 5, 13), prime(rng, 5, 13), 1 + rng.Intn(3), prime(rng, 5, 23), prime(rng, 5, 17), prime(rng, 5, 13)}
		},
		Funcs: []FuncSpec{
			{Name: "output", Stages: []StageSpec{{Dims: d("m", "o")}, {Dims: d("r$x", "r$y", "m"), Scatter: true, Assoc: true}}},
			{Name: "Product", Stages: []StageSpec{{Dims: d("m", "p", "n")}, {Dims: d("rc$x", "m", "p", "n"), Assoc: true}}, Consumers: []StageRef{{"output", 1}}},
			{Name: "GatherInput", Stages: []StageSpec{{Dims: d("c", "p", "n")}}, Consumers: []StageRef{{"Product", 1}}},
			{Name: "GatherWeight", Stages: []StageSpec{{Dims: d("c", "m", "n")}}, Consumers: []StageRef{{"Product", 1}}},
		},
		Wraps: []WrapSpec{
			{Src: "Product", Consumer: "output", Dims: []string{"m", "p", "n"}, ConsumerStages: []int{1}},
			{Src: "weight", Consumer: "GatherWeight", Dims: []string{"x", "y", "z"}, ConsumerStages: []int{0}},
			{Src: "input", Consumer: "GatherInput", Dims: []string{"x", "y"}, ConsumerStages: []int{0}},
		},
		Known: map[string]string{"r$x": "r.X()", "r$y": "r.Y()", "rc$x": "rc.X()"},
		Build: func(sz []int) *Instance {
			C, M, N, P, In, Out := sz[0], sz[1], sz[2], sz[3], sz[4], sz[5]
			inst := tensorProductInstance(C, N, P, In, Out)
			input, weight, imap, omap := inst.Images["input"], inst.Images["weight"], inst.Images["imap"], inst.Images["omap"]
			inst.Run = instanceRun([]int{M, Out}, compareFloat, func(rng *rand.Rand) func(c []int) float64 {
				ib := randomInput(rng, input, padded2[float32](C, In, true, true))
				wb := randomInput(rng, weight, padded3[float32](C, M, N))
				im := padded2[int32](P, N, true, true)
				om := halide.NewBuffer[int32](P, N)
				// Every entry of imap, its halo included, is a valid point:
				// the promise holds wherever the schedule reads it.
				im.Fill(func([]int) int32 { return int32(rng.Intn(In)) })
				for nn := 0; nn < N; nn++ {
					for pp := 0; pp < P; pp++ {
						v := int32(rng.Intn(Out))
						switch {
						case pp%5 == 1:
							v = 0 // collisions within an offset and across offsets
						case pp%7 == 3:
							v = om.Get(pp-1, nn)
						}
						om.Set(v, pp, nn)
					}
				}
				imap.Set(im)
				omap.Set(om)
				ref := make([]float64, M*Out)
				for nn := 0; nn < N; nn++ {
					for pp := 0; pp < P; pp++ {
						q, oo := int(im.Get(pp, nn)), int(om.Get(pp, nn))
						for mm := 0; mm < M; mm++ {
							sum := 0.0
							for cc := 0; cc < C; cc++ {
								sum += float64(ib.Get(cc, q)) * float64(wb.Get(cc, mm, nn))
							}
							ref[mm+M*oo] += sum
						}
					}
				}
				return func(c []int) float64 { return ref[c[0]+M*c[1]] }
			})
			return inst
		},
		Source: func(sz []int) string {
			return fmt.Sprintf(`// tensorproduct, C = %d, M = %d, N = %d, P = %d, In = %d, Out = %d (float32, checked against float64 with tolerance 1e-4)
`, sz[0], sz[1], sz[2], sz[3], sz[4], sz[5]) + funcBody(algosSource, "tensorProductInstance") + "// output realized over [M, Out]\n"
		},
	}
}

// tensorProductInstance defines tensorproduct's Funcs: its body, up to the
// return, is the Go that Source prints (read from this file, algosSource).
func tensorProductInstance(C, N, P, In, Out int) *Instance {
	c, m, p, n, o := halide.NewVar("c"), halide.NewVar("m"), halide.NewVar("p"), halide.NewVar("n"), halide.NewVar("o")
	imap := halide.NewImageParam("imap", halide.Int32, 2)       // [P, N] (+ halo), values in [0, In)
	omap := halide.NewImageParam("omap", halide.Int32, 2)       // [P, N], values in [0, Out), with collisions
	weight := halide.NewImageParam("weight", halide.Float32, 3) // [C, M, N] (+ halo)
	input := halide.NewImageParam("input", halide.Float32, 2)   // [C, In] (+ halo)
	GatherInput := halide.NewFunc("GatherInput")
	GatherInput.Define(c, p, n).Is(input.At(c, halide.UnsafePromiseClamped(imap.At(p, n), 0, In-1)))
	GatherWeight := halide.NewFunc("GatherWeight")
	GatherWeight.Define(c, m, n).Is(weight.At(c, m, n))
	rc := halide.NewRDom("rc", halide.Range(0, C))
	Product := halide.NewFunc("Product")
	Product.Define(m, p, n).Is(float32(0))
	Product.Define(m, p, n).PlusEq(GatherInput.At(rc, p, n).Mul(GatherWeight.At(rc, m, n)))
	r := halide.NewRDom("r", halide.Range(0, N), halide.Range(0, P))
	output := halide.NewFunc("output")
	output.Define(m, o).Is(float32(0))
	output.Define(m, halide.UnsafePromiseClamped(omap.At(r.Y(), r.X()), 0, Out-1)).PlusEq(Product.At(m, r.Y(), r.X()))
	return &Instance{
		Funcs:  map[string]*halide.Func{"output": output, "Product": Product, "GatherInput": GatherInput, "GatherWeight": GatherWeight},
		Images: map[string]*halide.ImageParam{"weight": weight, "input": input, "imap": imap, "omap": omap},
		Vars: map[string]halide.VarOrRVar{"c": c, "m": m, "p": p, "n": n, "o": o,
			"r$x": r.X(), "r$y": r.Y(), "rc$x": rc.X()},
		Out: output,
	}
}

// pad is the halo of the inputs read without a boundary condition: a
// schedule may compute a producer over more points than the output needs
// (RoundUp, or ShiftInwards on a region smaller than the factor), and so
// read its inputs beyond the output's region, as in Halide; the halo makes
// those reads legal, so that only real bounds bugs fail. 128 covers a
// split by 16 of a split by 8; 3-D inputs get pad3.
const pad, pad3 = 128, 32

// padded2 returns a buffer [e0, e1] with a halo of pad on each side of the
// dimensions marked.
func padded2[T halide.Number](e0, e1 int, h0, h1 bool) *halide.Buffer[T] {
	m0, m1 := 0, 0
	if h0 {
		m0, e0 = -pad, e0+2*pad
	}
	if h1 {
		m1, e1 = -pad, e1+2*pad
	}
	return halide.NewBuffer[T](e0, e1).SetMin(m0, m1)
}

// padded3 returns a buffer [e0, e1, e2] with a halo of pad3 all round.
func padded3[T halide.Number](e0, e1, e2 int) *halide.Buffer[T] {
	return halide.NewBuffer[T](e0+2*pad3, e1+2*pad3, e2+2*pad3).SetMin(-pad3, -pad3, -pad3)
}

// depthwise: a depthwise convolution with "same" zero padding, as in
// apps/algo/depthwise.go (float32 against float64), with a halo on the
// weights (see pad).
func depthwiseAlgo() *Algo {
	return &Algo{
		Name:      "depthwise",
		Float:     true,
		SizeNames: []string{"B", "C", "H", "W", "K"},
		Sizes: func(rng *rand.Rand) []int {
			return []int{1 + rng.Intn(2), 1 + rng.Intn(3), prime(rng, 5, 17), prime(rng, 5, 19), []int{1, 3, 5}[rng.Intn(3)]}
		},
		Funcs: []FuncSpec{
			{Name: "depthwise", Stages: []StageSpec{{Dims: d("x", "y", "c", "b")}}},
			{Name: "conv", Stages: []StageSpec{{Dims: d("x", "y", "c", "b")}, {Dims: d("r$x", "r$y", "x", "y", "c", "b"), Assoc: true}}, Consumers: []StageRef{{"depthwise", 0}}},
			{Name: "padded", Stages: []StageSpec{{Dims: d("x", "y", "c", "b")}}, Consumers: []StageRef{{"conv", 1}}},
		},
		Wraps: []WrapSpec{
			{Src: "weight", Consumer: "conv", Dims: []string{"x", "y", "z"}, ConsumerStages: []int{1}},
			{Src: "padded", Consumer: "conv", Dims: []string{"x", "y", "c", "b"}, ConsumerStages: []int{1}},
		},
		Known: map[string]string{"r$x": "r.X()", "r$y": "r.Y()"},
		Build: func(sz []int) *Instance {
			B, C, H, W, K := sz[0], sz[1], sz[2], sz[3], sz[4]
			inst := depthwiseInstance(K)
			pd := (K - 1) / 2
			inst.Run = instanceRun([]int{W, H, C, B}, compareFloat, func(rng *rand.Rand) func(q []int) float64 {
				ib := randomInput(rng, inst.Images["input"], halide.NewBuffer[float32](W, H, C, B))
				wb := randomInput(rng, inst.Images["weight"], padded3[float32](K, K, C))
				return func(q []int) float64 {
					s := 0.0
					for ky := 0; ky < K; ky++ {
						for kx := 0; kx < K; kx++ {
							ix, iy := q[0]+kx-pd, q[1]+ky-pd
							if ix >= 0 && ix < W && iy >= 0 && iy < H {
								s += float64(ib.Get(ix, iy, q[2], q[3])) * float64(wb.Get(kx, ky, q[2]))
							}
						}
					}
					return s
				}
			})
			return inst
		},
		Source: func(sz []int) string {
			return fmt.Sprintf(`// depthwise, B = %d, C = %d, H = %d, W = %d, K = %d (float32, checked against float64 with tolerance 1e-4)
`, sz[0], sz[1], sz[2], sz[3], sz[4]) + funcBody(algosSource, "depthwiseInstance") + "// output: depthwise realized over [W, H, C, B]\n"
		},
	}
}

// depthwiseInstance defines depthwise's Funcs: its body, up to the return,
// is the Go that Source prints (read from this file, algosSource).
func depthwiseInstance(K int) *Instance {
	x, y, c, b := halide.NewVar("x"), halide.NewVar("y"), halide.NewVar("c"), halide.NewVar("b")
	input := halide.NewImageParam("input", halide.Float32, 4)   // [W, H, C, B]
	weight := halide.NewImageParam("weight", halide.Float32, 3) // [K, K, C] (+ a halo of 32)
	padded := halide.NewFunc("padded")
	padded.Define(x, y, c, b).Is(halide.ConstantExterior(input, float32(0)).At(x, y, c, b))
	r := halide.NewRDom("r", halide.Range(0, K), halide.Range(0, K))
	conv := halide.NewFunc("conv")
	conv.Define(x, y, c, b).Is(float32(0))
	conv.Define(x, y, c, b).PlusEq(padded.At(x.Add(r.X()).Sub((K-1)/2), y.Add(r.Y()).Sub((K-1)/2), c, b).Mul(weight.At(r.X(), r.Y(), c)))
	depthwise := halide.NewFunc("depthwise")
	depthwise.Define(x, y, c, b).Is(conv.At(x, y, c, b))
	return &Instance{
		Funcs:  map[string]*halide.Func{"depthwise": depthwise, "conv": conv, "padded": padded},
		Images: map[string]*halide.ImageParam{"weight": weight, "input": input},
		Vars:   map[string]halide.VarOrRVar{"x": x, "y": y, "c": c, "b": b, "r$x": r.X(), "r$y": r.Y()},
		Out:    depthwise,
	}
}

// stencil: a chain of three 3-row stencils over a RepeatEdge boundary,
// each reading its producer at y - 1, y and y + 1 (int32, exact): the
// chain sliding-window and storage-folding schedules are made for (Funcs
// the generator inlines shorten it to two or one).
func stencilAlgo() *Algo {
	return int2D{
		name: "stencil", note: " (int32)", maxW: 23, maxH: 37, pWindow: 0.6,
		funcs:    []FuncSpec{xyFunc("s3"), xyFunc("s2", StageRef{"s3", 0}), xyFunc("s1", StageRef{"s2", 0})},
		paddedBy: "s1",
		wraps:    []WrapSpec{xyWrap("padded", "s1"), xyWrap("s1", "s2"), xyWrap("s2", "s3")},
		define:   func(v int2DVars) map[string]*halide.Func { return stencilFuncs(v.x, v.y, v.padded) },
		source:   func() string { return funcBody(algosSource, "stencilFuncs") },
		want: func(ib *halide.Buffer[int32], W, H int) func(c []int) int64 {
			pd := func(x, y int) int64 { return int64(ib.Get(clampTo(x, W), clampTo(y, H))) }
			f1 := func(x, y int) int64 { return pd(x, y-1) + 2*pd(x, y) + pd(x+1, y+1) }
			f2 := func(x, y int) int64 { return f1(x, y-1) - f1(x, y+1) + f1(x-1, y) }
			return func(c []int) int64 {
				x, y := c[0], c[1]
				return max(f2(x, y-1), f2(x, y)) + f2(x, y+1)
			}
		},
	}.algo()
}

// stencilFuncs defines stencil's Funcs: its body, but for the return, is the Go that
// Source prints (read from this file, algosSource).
func stencilFuncs(x, y halide.Var, padded *halide.Func) map[string]*halide.Func {
	s1 := halide.NewFunc("s1")
	s1.Define(x, y).Is(padded.At(x, y.Sub(1)).Add(padded.At(x, y).Mul(2)).Add(padded.At(x.Add(1), y.Add(1))))
	s2 := halide.NewFunc("s2")
	s2.Define(x, y).Is(s1.At(x, y.Sub(1)).Sub(s1.At(x, y.Add(1))).Add(s1.At(x.Sub(1), y)))
	s3 := halide.NewFunc("s3")
	s3.Define(x, y).Is(halide.Max(s2.At(x, y.Sub(1)), s2.At(x, y)).Add(s2.At(x, y.Add(1))))
	return map[string]*halide.Func{"s3": s3, "s2": s2, "s1": s1}
}
