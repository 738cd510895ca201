// Package bounds computes symbolic ranges of expressions and the regions of
// Funcs and buffers that statements read and write. It is the analysis
// behind bounds inference, written after Halide's Bounds.cpp.
//
// # Intervals
//
// An [Interval] is an inclusive range [Min, Max] of values, each end an
// ir.Expr. A nil end is infinite: a nil Min means -infinity and a nil Max
// +infinity, so [Everything] is the zero Interval. Ends are symbolic: they may
// refer to variables such as a Param or an output extent, so the range of
// f.s0.x over a loop `for (f.s0.x, 0, w)` is [0, w - 1]. Ends are always
// simplified with ir.Simplify.
//
// # Scopes and free variables
//
// [Of] takes an expression and a [Scope], which maps variable names (loop
// variables, let bindings) to the intervals they range over. A variable that
// is not in the scope is a symbolic constant: its own range is the single
// point [v, v], and results are expressed in such variables. The ends of the
// intervals in a scope are used as they stand; they should be expressed in
// variables that are not themselves in the scope. Of is sound: for every
// assignment of the scoped variables within their intervals, the value of the
// expression lies in the interval it returns (an interval whose ends were
// simplified to a constant therefore holds a constant bound). It is not
// always tight: see the comments of Of for the places where precision is
// given up.
//
// Because Of simplifies its input before analysing it, correlated terms
// cancel first: with x and r in the scope, the bounds of x + r - x are the
// bounds of r, not the wider [x.min + r.min - x.max, ...].
//
// [ConstantUpperBound] and [ConstantLowerBound] answer the narrower question
// "what constant bound holds whatever the free variables are", which lowering
// uses to size allocations and to prove that loads stay in range.
//
// # Boxes
//
// A [Box] is a multi-dimensional region, one Interval per dimension.
// [Required] walks a statement and returns, for each Func, image and flat
// buffer it reads, the box of coordinates read; [Provided] does the same for
// writes (Provide and Store), and [Touched] for both. The walk pushes each
// loop variable with the range of its loop, each let with the range of its
// value, and narrows variables under if conditions and select arms such as
// the tail guard likely(x <= 29), so the boxes are expressed only in
// variables free in the statement.
//
// Union of two boxes is the per-dimension union, and a nil Box is empty, so
// boxes from several statements can be accumulated with Union(acc, b).
//
// Bounds inference in lower/ uses Required this way: for each Func, from the
// last in the realization order to the first, it asks Required for the box
// of the Func that its consume statement reads, with a nil scope, so the
// loops and lets inside the consumer range over their values and everything
// outside (the consumers' own region lets, Params, buffer extents) stays
// symbolic. Each earlier update stage also covers what the later stages
// read. The box must be bounded in every dimension (an unbounded end is the
// "accessed in an unbounded way" error); its ends become the lets
// f.s<k>.<x>.min and .max that the producer's loops start from.
// Allocation bounds use Touched over the body of each Realize, and
// ConstantUpperBound to give tail-split allocations a fixed size.
package bounds
