package fuzz

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/gohalide/gohalide/halide"
)

// Op names a schedule directive.
type Op string

// The directives the generator emits. Each is one call of the halide API.
const (
	OpSplit      Op = "split"
	OpFuse       Op = "fuse"
	OpReorder    Op = "reorder"
	OpTile       Op = "tile"
	OpUnroll     Op = "unroll"
	OpVectorize  Op = "vectorize"
	OpParallel   Op = "parallel"
	OpGPUBlocks  Op = "gpu_blocks"
	OpGPUThreads Op = "gpu_threads"
	OpGPULanes   Op = "gpu_lanes"
	OpGPUTile    Op = "gpu_tile"
	OpGPUTile1D  Op = "gpu_tile_1d"
	// OpGPUTile3D is GPUTile3D(x, y, z, bx, by, bz, tx, ty, tz, xf, yf, zf).
	OpGPUTile3D Op = "gpu_tile_3d"
	OpAtomic    Op = "atomic"
	// OpGPUSingleThread is GPUSingleThread on a stage.
	OpGPUSingleThread Op = "gpu_single_thread"
	// OpComputeWith is Func.Stage(Stage).ComputeWith(Consumer's stage
	// ConsumerStage, Vars[0]) with the alignment Ints[0] on that loop.
	OpComputeWith       Op = "compute_with"
	OpNeverPartition    Op = "never_partition"
	OpNeverPartitionAll Op = "never_partition_all"
	OpComputeRoot       Op = "compute_root"
	OpComputeInline     Op = "compute_inline"
	OpComputeAt         Op = "compute_at"
	OpStoreRoot         Op = "store_root"
	OpStoreAt           Op = "store_at"
	OpStoreIn           Op = "store_in"
	OpFoldStorage       Op = "fold_storage"
	OpAlignStorage      Op = "align_storage"
	OpBoundStorage      Op = "bound_storage"
	// OpAlignBounds is AlignBounds(Vars[0], Ints[0], Ints[1]) (modulus,
	// remainder); OpAlignExtent is AlignExtent(Vars[0], Ints[0]).
	OpAlignBounds  Op = "align_bounds"
	OpAlignExtent  Op = "align_extent"
	OpHoistStorage Op = "hoist_storage"
	OpHoistRoot    Op = "hoist_storage_root"
	OpIn           Op = "in"
	OpCloneIn      Op = "clone_in"
	OpSpecialize   Op = "specialize"
	OpRFactor      Op = "rfactor"
	// OpPrefetch is Stage.Prefetch(Consumer, Vars[0], Vars[1], Ints[0],
	// Ints[1]) (the source, at, from, offset and strategy), or
	// PrefetchImage where Ints[2] is 1 (the source is an input).
	OpPrefetch Op = "prefetch"
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
	// Global makes OpIn the global wrapper, Func.In() (every consumer
	// of Func reads it), rather than Func.In(Consumer).
	Global bool `json:"global,omitempty"`
	// Case is, for OpSpecialize, the number (from 1) of the case of the
	// stage it makes, and for a loop directive, the case it schedules (0:
	// the stage itself, its default).
	Case int `json:"case,omitempty"`
	// Cond is the condition of OpSpecialize (see specCond).
	Cond string `json:"cond,omitempty"`
}

// caseKey names case c of stage si of Func f.
func caseKey(f string, si, c int) string { return fmt.Sprintf("%s/%d/%d", f, si, c) }

// caseIdent is the Go identifier of the handle of case c of stage si of
// Func f in printed schedules.
func caseIdent(f string, si, c int) string {
	return strings.NewReplacer(".", "_", "$", "_").Replace(fmt.Sprintf("case_%s_%d_%d", f, si, c))
}

// specCond returns the condition cond names, for an instance: "spec" is a
// bool Param of the instance's own (which no algorithm reads, so the
// reference holds in every case), "extent K D ge|eq N" tests the extent of
// dimension D (modulo its count) of the K-th input (modulo their count,
// in name order) against N.
func (in *Instance) specCond(cond string) (halide.Expr, bool) {
	if cond == "spec" {
		if in.spec == nil {
			p := halide.NewParam[bool]("fuzz_spec")
			in.spec = p
			// A value that depends only on the instance (a random
			// program's runs do not go through Run), which Run then
			// draws from its seed.
			h := fnv.New32a()
			for _, name := range slices.Sorted(maps.Keys(in.Funcs)) {
				h.Write([]byte(name))
			}
			p.Set(h.Sum32()%2 == 0)
			if run := in.Run; run != nil {
				in.Run = func(ctx context.Context, pl *halide.Pipeline, seed int64) (string, error) {
					p.Set(seed%2 == 0)
					return run(ctx, pl, seed)
				}
			}
		}
		return in.spec.Expr(), true
	}
	var k, dim, n int
	var op string
	if _, err := fmt.Sscanf(cond, "extent %d %d %s %d", &k, &dim, &op, &n); err != nil || len(in.Images) == 0 {
		return halide.Expr{}, false
	}
	names := make([]string, 0, len(in.Images))
	for name := range in.Images {
		names = append(names, name)
	}
	sort.Strings(names)
	img := in.Images[names[k%len(names)]]
	e := img.Dim(dim % img.Dims()).Extent()
	if op == "eq" {
		return e.Eq(n), true
	}
	return e.Ge(n), true
}

// condSrc prints cond as Go (spec is the instance's bool Param; input(k)
// its k-th input in name order).
func condSrc(cond string) string {
	if cond == "spec" {
		return "spec"
	}
	var k, dim, n int
	var op string
	if _, err := fmt.Sscanf(cond, "extent %d %d %s %d", &k, &dim, &op, &n); err != nil {
		return fmt.Sprintf("/* bad condition %q */ nil", cond)
	}
	return fmt.Sprintf("input(%d).Dim(%d %% input(%d).Dims()).Extent().%s(%d)", k, dim, k, map[string]string{"eq": "Eq", "ge": "Ge"}[op], n)
}

// Schedule is a list of directives applied in order.
type Schedule []Directive

// tailNames and memNames are the Go names a reproduction prints for the
// tail strategies and memory types.
var (
	tailNames = map[halide.TailStrategy]string{halide.TailAuto: "halide.TailAuto", halide.GuardWithIf: "halide.GuardWithIf",
		halide.ShiftInwards: "halide.ShiftInwards", halide.RoundUp: "halide.RoundUp"}
	memNames = map[halide.MemoryType]string{halide.MemoryAuto: "halide.MemoryAuto", halide.Heap: "halide.Heap",
		halide.Stack: "halide.Stack", halide.Register: "halide.Register", halide.GPUShared: "halide.GPUShared"}
)

func tailName(t int) string {
	return goName(tailNames, halide.TailStrategy(t), "halide.TailStrategy", t)
}

func memName(m int) string { return goName(memNames, halide.MemoryType(m), "halide.MemoryType", m) }

// goName is the name of v in names, or a conversion of the number n to
// the type typ.
func goName[T comparable](names map[T]string, v T, typ string, n int) string {
	if name, ok := names[v]; ok {
		return name
	}
	return fmt.Sprintf("%s(%d)", typ, n)
}

// varSrc returns the Go expression of loop name n: the algorithm's own
// Vars and RVars by their identifiers, others as v("n").
func varSrc(known map[string]string, n string) string {
	if s, ok := known[n]; ok {
		return s
	}
	if strings.HasPrefix(n, fusedRVarPrefix) {
		return fmt.Sprintf("halide.NewRVar(%q)", n)
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
	if d.Op == OpSpecialize {
		return fmt.Sprintf("%s := %s.Specialize(%s)", caseIdent(d.Func, d.Stage, d.Case), stage, condSrc(d.Cond))
	}
	if d.Case > 0 {
		stage = caseIdent(d.Func, d.Stage, d.Case)
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
	case OpFuse, OpReorder, OpGPUBlocks, OpGPUThreads:
		name := map[Op]string{OpFuse: "Fuse", OpReorder: "Reorder", OpGPUBlocks: "GPUBlocks", OpGPUThreads: "GPUThreads"}[d.Op]
		return fmt.Sprintf("%s.%s(%s)", stage, name, strings.Join(vs, ", "))
	case OpTile:
		return fmt.Sprintf("%s.Tile(%s%s%s)", stage, strings.Join(vs, ", "), ints(), tail)
	case OpUnroll, OpVectorize, OpParallel:
		name := map[Op]string{OpUnroll: "Unroll", OpVectorize: "Vectorize", OpParallel: "Parallel"}[d.Op]
		if d.Tail != NoTail && len(d.Ints) > 0 {
			return fmt.Sprintf("%s.%sTail(%s%s%s)", stage, name, vs[0], ints(), tail)
		}
		return fmt.Sprintf("%s.%s(%s%s)", stage, name, vs[0], ints())
	case OpGPULanes:
		return fmt.Sprintf("%s.GPULanes(%s)", stage, vs[0])
	case OpGPUTile:
		return fmt.Sprintf("%s.GPUTile(%s%s%s)", stage, strings.Join(vs, ", "), ints(), tail)
	case OpGPUTile1D:
		return fmt.Sprintf("%s.GPUTile1D(%s%s%s)", stage, strings.Join(vs, ", "), ints(), tail)
	case OpGPUTile3D:
		return fmt.Sprintf("%s.GPUTile3D(%s%s%s)", stage, strings.Join(vs, ", "), ints(), tail)
	case OpAtomic:
		return fmt.Sprintf("%s.Atomic()", stage)
	case OpGPUSingleThread:
		return fmt.Sprintf("%s.GPUSingleThread()", stage)
	case OpComputeWith:
		strategy := halide.LoopAlignStrategy(d.Ints[0]).String()
		if halide.LoopAlignStrategy(d.Ints[0]) == halide.AlignAuto {
			strategy = "AlignAuto" // its String is "Auto"
		}
		parent := cons
		if d.ConsumerStage > 0 {
			parent = fmt.Sprintf("%s.Update(%d)", cons, d.ConsumerStage-1)
		}
		return fmt.Sprintf("%s.ComputeWith(%s, %s, halide.LoopAlign{Var: %s, Strategy: halide.%s})", stage, parent, vs[0], vs[0], strategy)
	case OpNeverPartition:
		return fmt.Sprintf("%s.NeverPartition(%s)", stage, strings.Join(vs, ", "))
	case OpNeverPartitionAll:
		return fmt.Sprintf("%s.NeverPartitionAll()", stage)
	case OpPrefetch:
		name := "Prefetch"
		if d.Ints[2] == 1 {
			name = "PrefetchImage"
		}
		return fmt.Sprintf("%s.%s(%s, %s, %s, %d, halide.Prefetch%v)", stage, name, cons, vs[0], vs[1], d.Ints[0], halide.PrefetchBoundStrategy(d.Ints[1]))
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
	case OpAlignStorage:
		return fmt.Sprintf("%s.AlignStorage(%s, %d)", fn, vs[0], d.Ints[0])
	case OpBoundStorage:
		return fmt.Sprintf("%s.BoundStorage(%s, %d)", fn, vs[0], d.Ints[0])
	case OpAlignBounds:
		return fmt.Sprintf("%s.AlignBounds(%s, %d, %d)", fn, vs[0], d.Ints[0], d.Ints[1])
	case OpAlignExtent:
		return fmt.Sprintf("%s.AlignExtent(%s, %d)", fn, vs[0], d.Ints[0])
	case OpHoistStorage:
		return fmt.Sprintf("%s.HoistStorage(%s)", fn, level())
	case OpHoistRoot:
		return fmt.Sprintf("%s.HoistStorageRoot()", fn)
	case OpIn:
		if d.Global {
			return fmt.Sprintf("%s := %s.In()", d.Wrapper, fn)
		}
		return fmt.Sprintf("%s := %s.In(%s)", d.Wrapper, fn, cons)
	case OpCloneIn:
		return fmt.Sprintf("%s := %s.CloneIn(%s)", d.Wrapper, fn, cons)
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
	if strings.HasPrefix(n, fusedRVarPrefix) {
		return halide.NewRVar(n)
	}
	return halide.NewVar(n)
}

// fusedRVarPrefix starts the names the generator gives the fuse of a pure
// var with an RVar, whose loop is an RVar (Halide's rule): made by NewRVar.
const fusedRVarPrefix = "rvf"

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
	if d.Op == OpCloneIn {
		_, dup := in.Funcs[d.Wrapper]
		f, okf := in.Funcs[d.Func]
		cons, okc := in.Funcs[d.Consumer]
		if dup || !okf || !okc {
			return false
		}
		in.Funcs[d.Wrapper] = f.CloneIn(cons)
		return true
	}
	if d.Op == OpIn {
		if _, dup := in.Funcs[d.Wrapper]; dup {
			return false
		}
		cons, ok := in.Funcs[d.Consumer]
		if !ok {
			return false
		}
		var consumers []*halide.Func
		if !d.Global {
			consumers = []*halide.Func{cons}
		}
		if f, ok := in.Funcs[d.Func]; ok {
			in.Funcs[d.Wrapper] = f.In(consumers...)
			return true
		}
		if img, ok := in.Images[d.Func]; ok {
			in.Funcs[d.Wrapper] = img.In(consumers...)
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
	if d.Op == OpComputeAt || d.Op == OpStoreAt || d.Op == OpHoistStorage || d.Op == OpComputeWith {
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
	if d.Op == OpSpecialize {
		c, ok := in.specCond(d.Cond)
		if !ok {
			return false
		}
		if in.cases == nil {
			in.cases = map[string]*halide.Stage{}
		}
		in.cases[caseKey(d.Func, d.Stage, d.Case)] = st.Specialize(c)
		return true
	}
	if d.Case > 0 {
		// A case whose OpSpecialize the minimizer deleted is skipped.
		if st, ok = in.cases[caseKey(d.Func, d.Stage, d.Case)]; !ok {
			return false
		}
	}
	switch d.Op {
	case OpSplit:
		st.Split(vs[0], vs[1], vs[2], d.Ints[0], tail...)
	case OpFuse:
		st.Fuse(vs[0], vs[1], vs[2])
	case OpReorder:
		st.Reorder(vs...)
	case OpTile:
		st.Tile(vs[0], vs[1], vs[2], vs[3], vs[4], vs[5], d.Ints[0], d.Ints[1], tail...)
	case OpUnroll, OpVectorize, OpParallel:
		// A factor and a tail strategy: the Tail form of the directive.
		plain, withTail := st.Unroll, st.UnrollTail
		switch d.Op {
		case OpVectorize:
			plain, withTail = st.Vectorize, st.VectorizeTail
		case OpParallel:
			plain, withTail = st.Parallel, st.ParallelTail
		}
		if len(tail) > 0 && len(d.Ints) > 0 {
			withTail(vs[0], d.Ints[0], tail[0])
		} else {
			plain(vs[0], d.Ints...)
		}
	case OpGPUBlocks:
		st.GPUBlocks(vs...)
	case OpGPUThreads:
		st.GPUThreads(vs...)
	case OpGPULanes:
		st.GPULanes(vs[0])
	case OpGPUTile:
		st.GPUTile(vs[0], vs[1], vs[2], vs[3], vs[4], vs[5], d.Ints[0], d.Ints[1], tail...)
	case OpGPUTile1D:
		st.GPUTile1D(vs[0], vs[1], vs[2], d.Ints[0], tail...)
	case OpGPUTile3D:
		st.GPUTile3D(vs[0], vs[1], vs[2], vs[3], vs[4], vs[5], vs[6], vs[7], vs[8], d.Ints[0], d.Ints[1], d.Ints[2], tail...)
	case OpAtomic:
		st.Atomic()
	case OpGPUSingleThread:
		st.GPUSingleThread()
	case OpComputeWith:
		st.ComputeWith(cons.Stage(d.ConsumerStage), vs[0], halide.LoopAlign{Var: vs[0], Strategy: halide.LoopAlignStrategy(d.Ints[0])})
	case OpNeverPartition:
		st.NeverPartition(vs...)
	case OpNeverPartitionAll:
		st.NeverPartitionAll()
	case OpPrefetch:
		strategy := halide.PrefetchBoundStrategy(d.Ints[1])
		if src, ok := in.Funcs[d.Consumer]; ok && d.Ints[2] == 0 {
			st.Prefetch(src, vs[0], vs[1], d.Ints[0], strategy)
		} else if img, ok := in.Images[d.Consumer]; ok && d.Ints[2] == 1 {
			st.PrefetchImage(img, vs[0], vs[1], d.Ints[0], strategy)
		} else {
			return false
		}
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
	case OpFoldStorage, OpAlignStorage, OpBoundStorage, OpAlignBounds, OpAlignExtent:
		// These take a pure Var (a loop name of the schedule names a
		// Var as well: Lower refuses one f has not).
		v, ok := vs[0].(halide.Var)
		if !ok {
			v = halide.NewVar(d.Vars[0])
		}
		switch d.Op {
		case OpFoldStorage:
			f.FoldStorage(v, d.Ints[0])
		case OpAlignStorage:
			f.AlignStorage(v, d.Ints[0])
		case OpAlignBounds:
			f.AlignBounds(v, d.Ints[0], d.Ints[1])
		case OpAlignExtent:
			f.AlignExtent(v, d.Ints[0])
		default:
			f.BoundStorage(v, d.Ints[0])
		}
	default:
		return false
	}
	return true
}
