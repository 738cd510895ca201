package lower

import "github.com/gohalide/gohalide/ir"

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
