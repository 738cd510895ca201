package halide

import (
	"strconv"
	"strings"

	"github.com/gohalide/gohalide/ir"
)

// ImplicitArgs is the type of Implicit.
type ImplicitArgs struct{}

// Implicit is Halide's _ (implicit arguments). In a call, f.At(x,
// Implicit) or in.At(Implicit, y), it stands for as many coordinates as
// the Func or input has beyond the ones given: the implicit Vars
// ImplicitVar(0), ImplicitVar(1), ..., named _0, _1, ..., in order. In
// the left-hand side of a definition it stands for the implicit Vars the
// right-hand side uses (a pure definition; none, if its calls with
// Implicit had no dimensions to spare) or for the Func's remaining
// dimensions (an update). So a helper can work on Funcs of any number of
// dimensions, as Halide's apps write them:
//
//	down.Define(x, Implicit).Is(f.At(x.Mul(2), Implicit).Add(f.At(x.Mul(2).Add(1), Implicit)).Div(2))
//
// defines down(x, _0, _1) for a three-dimensional f. A call or definition
// has at most one Implicit; a right-hand side that uses implicit Vars
// needs an Implicit on the left, or the left names them (ImplicitVar).
var Implicit = ImplicitArgs{}

// implicitPrefix names the implicit Vars: _0, _1, ...
const implicitPrefix = "_"

// ImplicitVar returns the implicit Var i, _i: the name Implicit gives the
// dimensions it stands for, to schedule them (Halide's Var::implicit).
func ImplicitVar(i int) Var {
	v := newVar(implicitPrefix + strconv.Itoa(i))
	if i < 0 {
		v.err = ir.Errorf(ir.ErrBadArgument, "", "ImplicitVar", "implicit Var %d", i).WithLegal("an index of at least 0: the implicit Vars are _0, _1, ...")
	}
	return v
}

// expandImplicit returns args with its Implicit (at most one) replaced by
// the implicit Vars _0 ... _{n-1}, n the number that makes dims
// arguments. owner and directive name the call for errors.
func expandImplicit(fn, directive, owner string, dims int, args []any) ([]any, error) {
	at := -1
	for i, a := range args {
		if _, ok := a.(ImplicitArgs); ok {
			if at >= 0 {
				return nil, ir.Errorf(ir.ErrArgCount, fn, directive, "%s is called with Implicit twice (arguments %d and %d)", owner, at, i).
					WithLegal("one Implicit per call, standing for every remaining dimension")
			}
			at = i
		}
	}
	if at < 0 {
		return args, nil
	}
	n := dims - (len(args) - 1)
	if n < 0 {
		return nil, ir.Errorf(ir.ErrArgCount, fn, directive, "%s has %d dimensions but is called with %d arguments besides Implicit", owner, dims, len(args)-1).
			WithLegal("at most %d explicit arguments with Implicit", dims)
	}
	return spliceImplicit(args, at, n), nil
}

// spliceImplicit returns args with the element at index at replaced by the
// implicit Vars _0 ... _{n-1}.
func spliceImplicit(args []any, at, n int) []any {
	out := make([]any, 0, len(args)-1+n)
	out = append(out, args[:at]...)
	for i := 0; i < n; i++ {
		out = append(out, ImplicitVar(i))
	}
	return append(out, args[at+1:]...)
}

// implicitCount returns how many implicit Vars e uses: 1 + the largest i
// of a Var _i in it (0 for none, and for a nil e).
func implicitCount(e ir.Expr) int {
	n := 0
	if e == nil {
		return 0
	}
	ir.WalkExprOnce(e, func(x ir.Expr) bool {
		if v, ok := x.(*ir.Var); ok && v.Param == nil && v.RDom == nil && strings.HasPrefix(v.Name, implicitPrefix) {
			if i, err := strconv.Atoi(v.Name[len(implicitPrefix):]); err == nil && i >= 0 {
				n = max(n, i+1)
			}
		}
		return true
	})
	return n
}

// expandLHS returns the left-hand side args of a definition of f with its
// Implicit expanded: to the implicit Vars the values use for a pure
// definition, to f's remaining dimensions for an update. A value that
// uses implicit Vars the left-hand side does not name is an error.
func (f *Func) expandLHS(directive string, args []any, values ...ir.Expr) ([]any, error) {
	uses := 0
	for _, v := range values {
		uses = max(uses, implicitCount(v))
	}
	dims := uses // a pure definition: what the right-hand side uses
	if f.fn.Pure != nil {
		dims = len(f.fn.Args) - (len(args) - 1)
	}
	has := false
	for _, a := range args {
		_, ok := a.(ImplicitArgs)
		has = has || ok
	}
	if !has {
		// A left-hand side that names the implicit Vars the value uses
		// (f.Define(x, ImplicitVar(0)), or the wrapper In defines for f)
		// needs no Implicit, as in Halide.
		if uses > 0 && f.fn.Pure == nil && !namesImplicit(args, uses) {
			return nil, ir.Errorf(ir.ErrDefinition, f.fn.Name, directive, "the right-hand side uses the implicit Vars %s (a call with Implicit) but the left-hand side of %s has no Implicit", implicitList(uses), f.fn.Name).
				WithLegal("%s.Define(..., Implicit) to give %s a dimension for each", f.fn.Name, f.fn.Name)
		}
		return args, nil
	}
	out, err := expandImplicit(f.fn.Name, directive, f.fn.Name, len(args)-1+dims, args)
	if err != nil {
		return nil, err
	}
	if uses > dims {
		return nil, ir.Errorf(ir.ErrDefinition, f.fn.Name, directive, "the right-hand side uses the implicit Vars %s but Implicit stands for %d of %s's dimensions here", implicitList(uses), dims, f.fn.Name).
			WithLegal("calls with Implicit of Funcs and inputs with at most %d dimensions beyond their explicit arguments", dims)
	}
	return out, nil
}

// namesImplicit says whether args has a Var named _i for each i < n.
func namesImplicit(args []any, n int) bool {
	for i := 0; i < n; i++ {
		name, found := implicitPrefix+strconv.Itoa(i), false
		for _, a := range args {
			if v, ok := a.(Var); ok && v.name == name {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// implicitList prints _0, ..., _{n-1}.
func implicitList(n int) string {
	names := make([]string, n)
	for i := range names {
		names[i] = implicitPrefix + strconv.Itoa(i)
	}
	return strings.Join(names, ", ")
}

func (ImplicitArgs) String() string { return "_" }
