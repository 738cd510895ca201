package lower

import (
	"fmt"
	"maps"
	"slices"

	"github.com/gohalide/gohalide/ir"
)

// SetAfterPass sets the hook Lower calls after each pass with the
// statement, the kernels, the kernel records before extraction (by
// outermost block loop) and whether it found the pass unchanged; nil
// removes it.
func SetAfterPass(f func(pass string, s ir.Stmt, kernels []*ir.Kernel, records map[string]*ir.Kernel, unchanged bool)) {
	if f == nil {
		afterPass = nil
		return
	}
	afterPass = func(pass string, st *State, unchanged bool) { f(pass, st.Stmt, st.Kernels, st.kernels, unchanged) }
}

// Snapshot is the part of the lowering state in which a pass's work shows:
// the statement, the kernels, the kernel records before extraction, the
// Funcs and their order.
type Snapshot struct {
	Stmt    ir.Stmt
	Kernels []*ir.Kernel
	Records map[string]*ir.Kernel
	Funcs   map[string]*ir.Function
	Order   []string
}

func snapshot(st *State) Snapshot {
	return Snapshot{st.Stmt, slices.Clone(st.Kernels), maps.Clone(st.kernels), maps.Clone(st.Funcs), slices.Clone(st.Order)}
}

// SetRerun sets a hook Lower calls after each pass with what the pass left
// (after) and what the same pass leaves when run a second time, on a copy
// of the state it left (again, and the error it returned or the panic it
// raised). Lower goes on from after; the copy is dropped. nil removes the
// hook.
func SetRerun(f func(pass string, after, again Snapshot, err error)) {
	if f == nil {
		afterPass = nil
		return
	}
	afterPass = func(name string, st *State, _ bool) {
		i := slices.IndexFunc(Passes, func(p Pass) bool { return p.Name == name })
		c := st.clone()
		err := func() (err error) {
			defer func() {
				if r := recover(); r != nil {
					err = fmt.Errorf("panic: %v", r)
				}
			}()
			return Passes[i].Run(c)
		}()
		f(name, snapshot(st), snapshot(c), err)
	}
}

// clone returns a copy of st that a pass can run on without changing st:
// its maps and slices are copies (the IR, the kernels and the Funcs are
// values, never edited in place, and are shared).
func (st *State) clone() *State {
	c := *st
	c.Funcs = maps.Clone(st.Funcs)
	c.Order = slices.Clone(st.Order)
	c.Kernels = slices.Clone(st.Kernels)
	c.tails = slices.Clone(st.tails)
	c.failChecks = slices.Clone(st.failChecks)
	c.specConds = slices.Clone(st.specConds)
	c.promised = maps.Clone(st.promised)
	c.kernels = maps.Clone(st.kernels)
	c.slid = maps.Clone(st.slid)
	c.slidAlong = maps.Clone(st.slidAlong)
	c.caseConds = maps.Clone(st.caseConds)
	return &c
}
