package ir

// Stmt is a statement of the lowered program.
type Stmt interface{ isStmt() }

// LetStmt binds Name to Value within Body.
type LetStmt struct {
	Name  string
	Value Expr
	Body  Stmt
}

// AssertStmt fails the program with Message (followed by the values of Args)
// when Cond is false.
type AssertStmt struct {
	Cond    Expr
	Message string
	Args    []Expr
	// Error, when set, is the error the failure reports: a check made at
	// run time of a rule that could not be checked at Lower, such as a
	// shared memory size known only at launch. Its Msg is Message and the
	// values of Args, or, where Error.Msg is set, Error.Msg as a format
	// whose %s verbs take the values of Args in order.
	Error *Error
}

// ProducerConsumer marks the statement that produces Func (Producer) or the
// statement that consumes it.
type ProducerConsumer struct {
	Func     string
	Producer bool
	Body     Stmt
}

// For runs Body for Name in [Min, Min+Extent).
type For struct {
	Name        string
	Min, Extent Expr
	Kind        ForKind
	Body        Stmt
}

// Block runs Stmts in order.
type Block struct{ Stmts []Stmt }

// IfThenElse runs Then when Cond holds, otherwise Else (which may be nil).
type IfThenElse struct {
	Cond       Expr
	Then, Else Stmt
}

// Evaluate evaluates X for its effects (or none).
type Evaluate struct{ X Expr }

// Provide stores Value at Args of a multi-dimensional Func (before storage
// flattening).
type Provide struct {
	Func  string
	Value Expr
	Args  []Expr
	// Atomic marks an update whose stores may collide between parallel
	// iterations and must be made atomically.
	Atomic bool
}

// Atomic runs Body as one critical section of Func's storage: no two
// Atomic statements of the same Func run at once (Halide's Atomic node
// with a mutex). It makes the read-modify-write of a Tuple update whole
// when one value reads another (an argmax), which no single atomic store
// can. Only host code has it: a kernel has no mutex (validate_gpu refuses
// such an update there).
type Atomic struct {
	Func string
	Body Stmt
}

// Range is a min and an extent.
type Range struct{ Min, Extent Expr }

// Realize gives storage to Func over Bounds within Body (before storage
// flattening).
type Realize struct {
	Func   string
	T      Type
	Memory MemoryType
	Bounds []Range
	// PerThread lists, for a GPUShared realization inside GPU thread
	// loops, the thread loops its region depends on: the block's one copy
	// holds a part per thread along them and is shared along the block's
	// other dimensions (allocation_bounds decides it).
	PerThread []string
	// InGlobal marks a GPUShared realization whose one copy per block
	// lives in global memory (store_in(Heap) at the block level of a
	// kernel): shared by the block's threads like shared memory, placed
	// by gpu_kernels in a global scratch buffer, a slice per block.
	InGlobal bool
	// Folds, when set, has one entry per dimension: 0 for a dimension
	// stored whole, else the number of slices its storage holds, the
	// coordinate x at x mod Folds[d] (storage_folding decides it; the
	// Bounds of a folded dimension are [0, Folds[d])).
	Folds []int64
	Body  Stmt
}

// Allocate gives a flat buffer of Extents elements (their product) to Body.
type Allocate struct {
	Name    string
	T       Type
	Memory  MemoryType
	Extents []Expr
	// PerThread and InGlobal are the Realize's (see there).
	PerThread []string
	InGlobal  bool
	Body      Stmt
}

// Store writes Value to element Index of the flat buffer Buf.
type Store struct {
	Buf          string
	Index, Value Expr
	Atomic       bool
}

func (*LetStmt) isStmt()          {}
func (*AssertStmt) isStmt()       {}
func (*ProducerConsumer) isStmt() {}
func (*Atomic) isStmt()           {}
func (*For) isStmt()              {}
func (*Block) isStmt()            {}
func (*IfThenElse) isStmt()       {}
func (*Evaluate) isStmt()         {}
func (*Provide) isStmt()          {}
func (*Realize) isStmt()          {}
func (*Allocate) isStmt()         {}
func (*Store) isStmt()            {}

// MakeBlock joins statements, dropping nils and flattening nested Blocks.
// It returns nil for no statements and the statement itself for one.
func MakeBlock(stmts ...Stmt) Stmt {
	var out []Stmt
	for _, s := range stmts {
		switch s := s.(type) {
		case nil:
		case *Block:
			out = append(out, s.Stmts...)
		default:
			out = append(out, s)
		}
	}
	switch len(out) {
	case 0:
		return nil
	case 1:
		return out[0]
	}
	return &Block{out}
}
