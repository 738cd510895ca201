package lower

import (
	"strconv"

	"github.com/gohalide/gohalide/ir"
)

// Input is an input buffer of a pipeline.
type Input struct {
	Name string
	T    ir.Type
	Dims int
	// Bounds holds the min and extent the user promised for each
	// dimension (ImageParam.Dim(d).SetBounds; nil Min or Extent where there
	// is none). Realize checks them; lowering uses them as constants.
	Bounds []ir.Range
}

// Param is a scalar parameter of a pipeline.
type Param struct {
	Name string
	T    ir.Type
}

// Pipeline is what lowering starts from: every Func the output depends on,
// in realization order.
type Pipeline struct {
	// Funcs maps names to Functions. Lowering does not modify them.
	Funcs map[string]*ir.Function
	// Order lists the Funcs so that each comes after the Funcs it calls;
	// the output is last.
	Order  []string
	Output string
	Inputs []Input
	Params []Param
}

// BufferVar returns the name of a buffer's min, extent or stride variable,
// e.g. BufferVar("in", "min", 0) = "in.min.0".
func BufferVar(buf, field string, dim int) string {
	return buf + "." + field + "." + strconv.Itoa(dim)
}

// stagePrefix is the prefix of the names of stage s of f: "f.s0.".
func stagePrefix(f string, s int) string { return f + ".s" + strconv.Itoa(s) + "." }

func v(name string) ir.Expr { return ir.NewVar(name) }

func itoa(i int) string { return strconv.Itoa(i) }
