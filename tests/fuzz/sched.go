package fuzz

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gohalide/gohalide/halide"
)

// Op names a schedule directive.
type Op string

// The directives the generator emits. Each is one call of the halide API.
const (
	OpSplit         Op = "split"
	OpFuse          Op = "fuse"
	OpReorder       Op = "reorder"
	OpTile          Op = "tile"
	OpUnroll        Op = "unroll"
	OpVectorize     Op = "vectorize"
	OpParallel      Op = "parallel"
	OpGPUBlocks     Op = "gpu_blocks"
	OpGPUThreads    Op = "gpu_threads"
	OpGPUTile       Op = "gpu_tile"
	OpGPUTile1D     Op = "gpu_tile_1d"
	OpAtomic        Op = "atomic"
	OpComputeRoot   Op = "compute_root"
	OpComputeInline Op = "compute_inline"
	OpComputeAt     Op = "compute_at"
	OpStoreRoot     Op = "store_root"
	OpStoreAt       Op = "store_at"
	OpStoreIn       Op = "store_in"
	OpFoldStorage   Op = "fold_storage"
	OpHoistStorage  Op = "hoist_storage"
	OpHoistRoot     Op = "hoist_storage_root"
	OpIn            Op = "in"
	OpRFactor       Op = "rfactor"
)

// NoTail means a split directive passes no tail strategy (TailAuto by
// default in the library, but printed without an argument).
const NoTail = -1

// Directive is one schedule call, recorded as data so that it can be
// replayed on a fresh instance of the algorithm, printed as Go and deleted
// by the minimizer.
type Directive struct {
	Op Op `json:"op"`
	// Func is the handle of the Func (or, for OpIn, of the Func or
	// ImageParam being wrapped).
	Func string `json:"func"`
	// Stage is the stage for loop directives: 0 the pure definition, i+1
	// update i.
	Stage int `json:"stage,omitempty"`
	// Vars are the loop names the directive takes, in API order (for
	// rfactor, each RVar kept followed by the Var that replaces it).
	Vars []string `json:"vars,omitempty"`
	// Ints are the factors, in API order (for fold_storage, the extent).
	Ints []int `json:"ints,omitempty"`
	// Tail is the tail strategy of a split-like directive, or NoTail.
	Tail int `json:"tail"`
	// Consumer and ConsumerStage name the loop level of compute_at and
	// store_at (ConsumerStage -1: ComputeAt, the consumer's last stage;
	// otherwise ComputeAtStage).
	Consumer      string `json:"consumer,omitempty"`
	ConsumerStage int    `json:"consumer_stage,omitempty"`
	// Mem is the memory type of store_in.
	Mem int `json:"mem,omitempty"`
	// Wrapper is the handle OpIn (the wrapper) or OpRFactor (the
	// intermediate) creates.
	Wrapper string `json:"wrapper,omitempty"`
}

// Schedule is a list of directives applied in order.
type Schedule []Directive

func tailName(t int) string {
	switch halide.TailStrategy(t) {
	case halide.TailAuto:
		return "halide.TailAuto"
	case halide.GuardWithIf:
		return "halide.GuardWithIf"
	case halide.ShiftInwards:
		return "halide.ShiftInwards"
	case halide.RoundUp:
		return "halide.RoundUp"
	}
	return fmt.Sprintf("halide.TailStrategy(%d)", t)
}

func memName(m int) string {
	switch halide.MemoryType(m) {
	case halide.MemoryAuto:
		return "halide.MemoryAuto"
	case halide.Heap:
		return "halide.Heap"
	case halide.Stack:
		return "halide.Stack"
	case halide.Register:
		return "halide.Register"
	case halide.GPUShared:
		return "halide.GPUShared"
	}
	return fmt.Sprintf("halide.MemoryType(%d)", m)
}

// varSrc returns the Go expression of loop name n: the algorithm's own
// Vars and RVars by their identifiers, others as v("n").
func varSrc(known map[string]string, n string) string {
	if s, ok := known[n]; ok {
		return s
	}
	return fmt.Sprintf("v(%q)", n)
}

// GoString prints d as one Go statement; known maps the algorithm's loop
// names and Func handles to their Go expressions.
func (d Directive) GoString(known map[string]string) string {
	vs := make([]string, len(d.Vars))
	for i, n := range d.Vars {
		vs[i] = varSrc(known, n)
	}
	fn, cons := varSrc(known, d.Func), varSrc(known, d.Consumer)
	if _, ok := known[d.Func]; !ok {
		fn = d.Func
	}
	if _, ok := known[d.Consumer]; !ok {
		cons = d.Consumer
	}
	stage := fn
	if d.Stage > 0 {
		stage = fmt.Sprintf("%s.Update(%d)", fn, d.Stage-1)
	}
	tail := ""
	if d.Tail != NoTail {
		tail = ", " + tailName(d.Tail)
	}
	ints := func() string {
		s := ""
		for _, i := range d.Ints {
			s += fmt.Sprintf(", %d", i)
		}
		return s
	}
	level := func() string {
		if d.ConsumerStage < 0 {
			return fmt.Sprintf("%s, %s", cons, vs[0])
		}
		return fmt.Sprintf("%s.Stage(%d), %s", cons, d.ConsumerStage, vs[0])
	}
	switch d.Op {
	case OpSplit:
		return fmt.Sprintf("%s.Split(%s, %s, %s, %d%s)", stage, vs[0], vs[1], vs[2], d.Ints[0], tail)
	case OpFuse:
		return fmt.Sprintf("%s.Fuse(%s)", stage, strings.Join(vs, ", "))
	case OpReorder:
		return fmt.Sprintf("%s.Reorder(%s)", stage, strings.Join(vs, ", "))
	case OpTile:
		return fmt.Sprintf("%s.Tile(%s%s%s)", stage, strings.Join(vs, ", "), ints(), tail)
	case OpUnroll:
		return fmt.Sprintf("%s.Unroll(%s%s)", stage, vs[0], ints())
	case OpVectorize:
		return fmt.Sprintf("%s.Vectorize(%s%s)", stage, vs[0], ints())
	case OpParallel:
		return fmt.Sprintf("%s.Parallel(%s)", stage, vs[0])
	case OpGPUBlocks:
		return fmt.Sprintf("%s.GPUBlocks(%s)", stage, strings.Join(vs, ", "))
	case OpGPUThreads:
		return fmt.Sprintf("%s.GPUThreads(%s)", stage, strings.Join(vs, ", "))
	case OpGPUTile:
		return fmt.Sprintf("%s.GPUTile(%s%s%s)", stage, strings.Join(vs, ", "), ints(), tail)
	case OpGPUTile1D:
		return fmt.Sprintf("%s.GPUTile1D(%s%s%s)", stage, strings.Join(vs, ", "), ints(), tail)
	case OpAtomic:
		return fmt.Sprintf("%s.Atomic()", stage)
	case OpComputeRoot:
		return fmt.Sprintf("%s.ComputeRoot()", fn)
	case OpComputeInline:
		return fmt.Sprintf("%s.ComputeInline()", fn)
	case OpComputeAt:
		if d.ConsumerStage < 0 {
			return fmt.Sprintf("%s.ComputeAt(%s)", fn, level())
		}
		return fmt.Sprintf("%s.ComputeAtStage(%s)", fn, level())
	case OpStoreRoot:
		return fmt.Sprintf("%s.StoreRoot()", fn)
	case OpStoreAt:
		return fmt.Sprintf("%s.StoreAt(%s)", fn, level())
	case OpStoreIn:
		return fmt.Sprintf("%s.StoreIn(%s)", fn, memName(d.Mem))
	case OpFoldStorage:
		return fmt.Sprintf("%s.FoldStorage(%s, %d)", fn, vs[0], d.Ints[0])
	case OpHoistStorage:
		return fmt.Sprintf("%s.HoistStorage(%s)", fn, level())
	case OpHoistRoot:
		return fmt.Sprintf("%s.HoistStorageRoot()", fn)
	case OpIn:
		return fmt.Sprintf("%s := %s.In(%s)", d.Wrapper, fn, cons)
	case OpRFactor:
		var pairs []string
		for i := 0; i+1 < len(vs); i += 2 {
			pairs = append(pairs, fmt.Sprintf("halide.RFactorPair{R: %s, V: halide.NewVar(%q)}", vs[i], d.Vars[i+1]))
		}
		return fmt.Sprintf("%s := %s.RFactor(%s)", d.Wrapper, stage, strings.Join(pairs, ", "))
	}
	return fmt.Sprintf("// unknown directive %q", d.Op)
}

// GoSource prints the schedule, one statement per line.
func (s Schedule) GoSource(known map[string]string) string {
	var b strings.Builder
	for _, d := range s {
		b.WriteString(d.GoString(known))
		b.WriteByte('\n')
	}
	return b.String()
}

// JSON returns the schedule as JSON (for -replay).
func (s Schedule) JSON() string {
	b, _ := json.Marshal(s)
	return string(b)
}

// Without returns s without directive i.
func (s Schedule) Without(i int) Schedule {
	out := make(Schedule, 0, len(s)-1)
	out = append(out, s[:i]...)
	return append(out, s[i+1:]...)
}

// resolveVar returns the algorithm's own var called n, or a new Var: the
// directives look loops up by name, so a fresh Var of the same name names
// the same loop.
func (in *Instance) resolveVar(n string) halide.VarOrRVar {
	if v, ok := in.Vars[n]; ok {
		return v
	}
	return halide.NewVar(n)
}

// Apply applies s to the instance. A directive naming a Func the instance
// does not have (a wrapper whose In was deleted by the minimizer) is
// skipped; Apply returns the directives it applied. Directives record
// errors on their Func, which Lower reports; Apply itself only fails by
// panicking, which the harness recovers and counts as a library bug.
func (in *Instance) Apply(s Schedule) Schedule {
	var applied Schedule
	for _, d := range s {
		if in.apply(d) {
			applied = append(applied, d)
		}
	}
	return applied
}

func (in *Instance) apply(d Directive) bool {
	if d.Op == OpIn {
		if _, dup := in.Funcs[d.Wrapper]; dup {
			return false
		}
		cons, ok := in.Funcs[d.Consumer]
		if !ok {
			return false
		}
		if f, ok := in.Funcs[d.Func]; ok {
			in.Funcs[d.Wrapper] = f.In(cons)
			return true
		}
		if img, ok := in.Images[d.Func]; ok {
			in.Funcs[d.Wrapper] = img.In(cons)
			return true
		}
		return false
	}
	f, ok := in.Funcs[d.Func]
	if !ok {
		return false
	}
	if d.Op == OpRFactor {
		if _, dup := in.Funcs[d.Wrapper]; dup || len(d.Vars)%2 != 0 {
			return false
		}
		var pairs []halide.RFactorPair
		for i := 0; i < len(d.Vars); i += 2 {
			// The RVar by name (a piece of a split RVar is looked up
			// by its name too) and a new Var.
			pairs = append(pairs, halide.RFactorPair{R: in.resolveVar(d.Vars[i]), V: halide.NewVar(d.Vars[i+1])})
		}
		in.Funcs[d.Wrapper] = f.Stage(d.Stage).RFactor(pairs...)
		return true
	}
	var cons *halide.Func
	if d.Op == OpComputeAt || d.Op == OpStoreAt || d.Op == OpHoistStorage {
		if cons, ok = in.Funcs[d.Consumer]; !ok {
			return false
		}
	}
	vs := make([]halide.VarOrRVar, len(d.Vars))
	for i, n := range d.Vars {
		vs[i] = in.resolveVar(n)
	}
	var tail []halide.TailStrategy
	if d.Tail != NoTail {
		tail = []halide.TailStrategy{halide.TailStrategy(d.Tail)}
	}
	st := f.Stage(d.Stage)
	switch d.Op {
	case OpSplit:
		st.Split(vs[0], vs[1], vs[2], d.Ints[0], tail...)
	case OpFuse:
		st.Fuse(vs[0], vs[1], vs[2])
	case OpReorder:
		st.Reorder(vs...)
	case OpTile:
		st.Tile(vs[0], vs[1], vs[2], vs[3], vs[4], vs[5], d.Ints[0], d.Ints[1], tail...)
	case OpUnroll:
		st.Unroll(vs[0], d.Ints...)
	case OpVectorize:
		st.Vectorize(vs[0], d.Ints...)
	case OpParallel:
		st.Parallel(vs[0])
	case OpGPUBlocks:
		st.GPUBlocks(vs...)
	case OpGPUThreads:
		st.GPUThreads(vs...)
	case OpGPUTile:
		st.GPUTile(vs[0], vs[1], vs[2], vs[3], vs[4], vs[5], d.Ints[0], d.Ints[1], tail...)
	case OpGPUTile1D:
		st.GPUTile1D(vs[0], vs[1], vs[2], d.Ints[0], tail...)
	case OpAtomic:
		st.Atomic()
	case OpComputeRoot:
		f.ComputeRoot()
	case OpComputeInline:
		f.ComputeInline()
	case OpComputeAt:
		if d.ConsumerStage < 0 {
			f.ComputeAt(cons, vs[0])
		} else {
			f.ComputeAtStage(cons.Stage(d.ConsumerStage), vs[0])
		}
	case OpStoreRoot:
		f.StoreRoot()
	case OpStoreAt:
		f.StoreAt(cons, vs[0])
	case OpHoistStorage:
		f.HoistStorage(cons, vs[0])
	case OpHoistRoot:
		f.HoistStorageRoot()
	case OpStoreIn:
		f.StoreIn(halide.MemoryType(d.Mem))
	case OpFoldStorage:
		// FoldStorage takes a pure Var (a loop name of the schedule
		// names a Var as well: Lower refuses one f has not).
		v, ok := vs[0].(halide.Var)
		if !ok {
			v = halide.NewVar(d.Vars[0])
		}
		f.FoldStorage(v, d.Ints[0])
	default:
		return false
	}
	return true
}
