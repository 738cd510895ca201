package halide

import (
	"fmt"
	"math"

	"github.com/gohalide/gohalide/ir"
)

// VarOrRVar is a Var or an RVar: the loop variables schedule directives name.
type VarOrRVar interface {
	varName() string
	isRVar() bool
}

// Var is a pure variable of a Func's definition and a loop of its schedule.
// It is an Expr (of type int32) and has all Expr methods.
type Var struct {
	Expr
	name string
}

// NewVar returns the variable called name (not empty, without '.' or '$';
// a bad name is an ErrBadName error that the Funcs using the Var record).
func NewVar(name string) Var {
	v := newVar(name)
	v.err = checkName("Var", "NewVar", name)
	return v
}

// newVar is NewVar without the check of the name, for the Vars the
// library makes from names it has (a Func's arguments).
func newVar(name string) Var {
	return Var{Expr: Expr{node: &ir.Var{T: ir.Int32, Name: name}}, name: name}
}

// Outermost returns the Var of the level just outside every loop of a
// stage (Halide's Var::outermost()). HoistStorage(g, Outermost())
// allocates f's storage once around g's loop nest (inside g's
// production, so once per realization of g, where HoistStorageRoot would
// allocate it once for the whole pipeline). ComputeAt and StoreAt do not
// take it (an ErrComputeAt error).
func Outermost() Var { return newVar(ir.OutermostVar) }

// nameErr returns the ErrBadName error of a Var made with a bad name.
func (v Var) nameErr() error { return v.err }

// Name returns the variable's name.
func (v Var) Name() string    { return v.name }
func (v Var) varName() string { return v.name }
func (v Var) isRVar() bool    { return false }

// RVar is one dimension of an RDom. It is an Expr (of type int32).
type RVar struct {
	Expr
	name string
	dom  *RDom
}

// Name returns the variable's name, e.g. "r$x".
func (v RVar) Name() string    { return v.name }
func (v RVar) varName() string { return v.name }
func (v RVar) isRVar() bool    { return true }

// NewRVar returns a reduction variable name with no domain of its own. Use it
// to name the outer and inner loops when splitting an RVar.
func NewRVar(name string) RVar {
	return RVar{Expr: Expr{node: &ir.Var{T: ir.Int32, Name: name}, err: checkName("RVar", "NewRVar", name)}, name: name}
}

// nameErr returns the ErrBadName error of an RVar made with a bad name.
func (v RVar) nameErr() error { return v.err }

// RangeSpec is one dimension of an RDom: a min and an extent.
type RangeSpec struct{ Min, Extent any }

// Range returns the RDom dimension [min, min+extent).
func Range(min, extent any) RangeSpec { return RangeSpec{min, extent} }

// RDom is a multi-dimensional reduction domain. Its dimensions are the RVars
// X, Y, Z, W (named name$x, name$y, ...); the first dimension is innermost.
type RDom struct {
	name string
	vars []RVar
	dom  *ir.ReductionDomain
	err  error
}

var rdomSuffixes = []string{"x", "y", "z", "w"}

// NewRDom returns a reduction domain over the given ranges, whose bounds may
// be expressions over Params and input extents.
func NewRDom(name string, ranges ...RangeSpec) *RDom {
	r := &RDom{name: name, dom: &ir.ReductionDomain{Name: name}}
	if err := checkName("RDom", "NewRDom", name); err != nil {
		r.err = err
	} else if len(ranges) == 0 {
		r.err = ir.Errorf(ir.ErrDefinition, "", "RDom", "RDom %s has no dimensions", name)
	}
	for i, rg := range ranges {
		suffix := fmt.Sprint(i)
		if i < len(rdomSuffixes) {
			suffix = rdomSuffixes[i]
		}
		vn := name + "$" + suffix
		mn, ext := E(rg.Min), E(rg.Extent)
		for _, e := range []Expr{mn, ext} {
			if e.err != nil && r.err == nil {
				r.err = e.err
			} else if e.err == nil && !e.Type().IsIntOrUInt() && r.err == nil {
				r.err = ir.Errorf(ir.ErrType, "", "RDom", "the bounds of RDom %s must be integers, not %s", name, e.Type())
			}
		}
		if r.err != nil {
			continue
		}
		// The bounds are int32s: a constant must fit (an extent of 2^40
		// must not wrap to 0), and a wider Param is checked at Realize.
		var err error
		if mn, err = toInt32("", "RDom", fmt.Sprintf("the min of dimension %d of RDom %s", i, name), mn, false); err != nil {
			r.err = err
			continue
		}
		if ext, err = toInt32("", "RDom", fmt.Sprintf("the extent of dimension %d of RDom %s", i, name), ext, false); err != nil {
			r.err = err
			continue
		}
		if m, ok := mn.node.(*ir.IntImm); ok {
			if e, ok := ext.node.(*ir.IntImm); ok && e.V > 0 && m.V+e.V-1 > math.MaxInt32 {
				r.err = ir.Errorf(ir.ErrType, "", "RDom", "dimension %d of RDom %s runs from %d to %d, past the largest int32", i, name, m.V, m.V+e.V-1).
					WithLegal("min + extent - 1 at most %d (an RVar is an int32)", math.MaxInt32)
				continue
			}
		}
		r.dom.Vars = append(r.dom.Vars, ir.RVar{Name: vn, Min: mn.node, Extent: ext.node})
		rv := RVar{Expr: Expr{node: &ir.Var{T: ir.Int32, Name: vn, RDom: r.dom}}, name: vn, dom: r}
		r.vars = append(r.vars, rv)
	}
	return r
}

// Where restricts the RDom to the points where cond holds (Halide's
// RDom::where): an update over it runs only there, testing cond in its
// innermost loop. cond is a bool Expr over the RDom's RVars, the pure Vars
// of the updates that use it, Params, inputs and Funcs. Several Where
// clauses all apply. They must come before the first update that uses the
// RDom (an update takes the clauses it sees when it is defined).
func (r *RDom) Where(cond any) *RDom {
	if r.nilErr() != nil || r.err != nil {
		return r
	}
	fail := func(err error) *RDom {
		r.err = err
		r.dom.Err = err
		return r
	}
	if r.dom.Used {
		return fail(ir.Errorf(ir.ErrDefinition, "", "Where", "RDom %s is already used by an update; a Where clause added now would not apply to it", r.name).
			WithLegal("call Where before defining the updates over %s", r.name))
	}
	c := E(cond)
	if c.err != nil {
		return fail(c.err)
	}
	if !c.Type().IsBool() {
		return fail(ir.Errorf(ir.ErrType, "", "Where", "the condition of %s.Where is %s, not bool: %s", r.name, c.Type(), c).
			WithLegal("a comparison or a bool Expr, for example r.X().Lt(r.Y())"))
	}
	var bad error
	ir.WalkExpr(c.node, func(e ir.Expr) bool {
		if v, ok := e.(*ir.Var); ok && v.RDom != nil && v.RDom != r.dom && bad == nil {
			bad = ir.Errorf(ir.ErrDefinition, "", "Where", "the condition of %s.Where uses %s, an RVar of another RDom (%s)", r.name, v.Name, v.RDom.Name).
				WithLegal("the RVars of %s, pure Vars, Params, inputs and Funcs", r.name)
		}
		return bad == nil
	})
	if bad != nil {
		return fail(bad)
	}
	if r.dom.Predicate == nil {
		r.dom.Predicate = c.node
	} else {
		r.dom.Predicate = ir.AndE(r.dom.Predicate, c.node)
	}
	return r
}

// nilErr returns the ErrNilObject error of a nil or zero RDom, or nil.
func (r *RDom) nilErr() error {
	if r == nil || r.dom == nil {
		return ir.Errorf(ir.ErrNilObject, "", "RDom", "a nil or zero RDom (one not made by NewRDom) has no dimensions").
			WithLegal("an RDom made by NewRDom")
	}
	return nil
}

// Dim returns dimension i.
func (r *RDom) Dim(i int) RVar {
	if err := r.nilErr(); err != nil {
		return RVar{Expr: Expr{err: err}}
	}
	if r.err != nil {
		return RVar{Expr: Expr{err: r.err}}
	}
	if i < 0 || i >= len(r.vars) {
		return RVar{Expr: bad("RDom %s has %d dimensions, not %d", r.name, len(r.vars), i+1)}
	}
	return r.vars[i]
}

// X, Y, Z and W return dimensions 0 to 3.
func (r *RDom) X() RVar { return r.Dim(0) }
func (r *RDom) Y() RVar { return r.Dim(1) }
func (r *RDom) Z() RVar { return r.Dim(2) }
func (r *RDom) W() RVar { return r.Dim(3) }

// Dims returns the number of dimensions.
func (r *RDom) Dims() int {
	if r == nil {
		return 0
	}
	return len(r.vars)
}

// toExpr lets a one-dimensional RDom be used as an Expr (its only RVar).
func (r *RDom) toExpr() Expr {
	if err := r.nilErr(); err != nil {
		return Expr{err: err}
	}
	if r.err != nil {
		return Expr{err: r.err}
	}
	if len(r.vars) != 1 {
		return bad("RDom %s has %d dimensions; use X(), Y(), ... to pick one", r.name, len(r.vars))
	}
	return r.vars[0].Expr
}

// varName and isRVar let a one-dimensional RDom name its loop in schedule
// directives (as r.X()). For other RDoms the name is empty, which the
// directives report as an error.
func (r *RDom) varName() string {
	if r == nil || len(r.vars) != 1 {
		return ""
	}
	return r.vars[0].name
}

func (r *RDom) isRVar() bool { return true }

// nameErr returns the error of an RDom made with a bad name (or recorded
// by NewRDom for another reason).
func (r *RDom) nameErr() error {
	if r == nil {
		return nil
	}
	return r.err
}
